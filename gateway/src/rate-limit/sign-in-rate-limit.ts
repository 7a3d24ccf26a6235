import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_FIELDS, accountKeyOf } from '../sessions/sessions.schemas.js';
import { enforce, limitRoutes } from './route-limits.js';

export interface SignInRateLimitOptions {
  windowMs: number;
  /** Requests per window from one client address to the sign-in routes. */
  ipMax: number;
  /**
   * Requests per window from one address naming one account (by email, uid or two-factor challenge in
   * the body); from all addresses together, ACCOUNT_SPREAD times as many.
   */
  accountMax: number;
  /** Routes whose path starts with this prefix are limited. */
  prefix: string;
}

/**
 * How many addresses' worth of requests one account takes in a window. The account's own limit was
 * per account alone, so anyone could keep a user from signing in by naming their email twenty times a
 * minute from anywhere (a lookup needs no password); now an address exhausts only its own share, and
 * it takes this many addresses at full rate to reach the account's ceiling.
 */
export const ACCOUNT_SPREAD = 10;

/**
 * Per-address and per-account limits on the sign-in routes. The address limit runs before the body is
 * read; the account limits after, for each way a body names an account (email, uid, challenge): per
 * account and address, and per account from everywhere (ACCOUNT_SPREAD times higher). Over a limit:
 * 429 with Retry-After. Identity keeps its own finer limits (wrong codes, lockout) behind these.
 */
export async function registerSignInRateLimit(app: FastifyInstance, options: SignInRateLimitOptions) {
  const byAddress = app.createRateLimit({
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `ip:${req.ip}`,
  });
  const signIn = (url: string) => url.startsWith(options.prefix);
  limitRoutes(app, signIn, 'onRequest', enforce(byAddress));
  for (const field of ACCOUNT_FIELDS) {
    const unnamed = (req: FastifyRequest) => accountKeyOf(req.body, field) === undefined;
    const byAccountFromAddress = app.createRateLimit({
      max: options.accountMax,
      timeWindow: options.windowMs,
      keyGenerator: (req) => `${accountKeyOf(req.body, field) ?? ''}|ip:${req.ip}`,
      allowList: unnamed,
    });
    const byAccount = app.createRateLimit({
      max: options.accountMax * ACCOUNT_SPREAD,
      timeWindow: options.windowMs,
      keyGenerator: (req) => accountKeyOf(req.body, field) ?? '',
      allowList: unnamed,
    });
    limitRoutes(app, signIn, 'preHandler', enforce(byAccountFromAddress));
    limitRoutes(app, signIn, 'preHandler', enforce(byAccount));
  }
}
