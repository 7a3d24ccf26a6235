import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_FIELDS, accountKeyOf } from '../sessions/sessions.schemas.js';
import { clientKey } from './client-key.js';
import { createLimiter, enforce, limitRoutes } from './route-limits.js';

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
  /** Requests per window from one address to the routes that keep a session (SESSION_UPKEEP_ROUTES). */
  sessionUpkeepIpMax: number;
}

/**
 * The routes under the prefix that keep or end a session someone already holds: no account to guess and
 * nothing to send, so not the sign-in budget. A refresh there shared one address's 60 a minute with the
 * sign-in steps: an office behind one address, every tab refreshing each 15 minutes, used it up before
 * Kong's own 300 a minute for refreshes, and kept people from signing in.
 */
export const SESSION_UPKEEP_ROUTES = [
  '/sessions/refresh',
  '/sessions/sign_out',
  '/sessions/sign_out_everywhere',
];

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
 * 429 with Retry-After. Identity keeps its own finer limits (wrong codes, lockout) behind these. An
 * address is counted by clientKey (an IPv6 address by its /64).
 */
export async function registerSignInRateLimit(app: FastifyInstance, options: SignInRateLimitOptions) {
  const byAddress = createLimiter(app, {
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `ip:${clientKey(req)}`,
  });
  const upkeep = (url: string) => SESSION_UPKEEP_ROUTES.includes(url);
  const signIn = (url: string) => url.startsWith(options.prefix) && !upkeep(url);
  limitRoutes(app, signIn, 'onRequest', enforce(byAddress));
  const upkeepByAddress = createLimiter(app, {
    max: options.sessionUpkeepIpMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `upkeep-ip:${clientKey(req)}`,
  });
  limitRoutes(app, upkeep, 'onRequest', enforce(upkeepByAddress));
  for (const field of ACCOUNT_FIELDS) {
    const unnamed = (req: FastifyRequest) => accountKeyOf(req.body, field) === undefined;
    const byAccountFromAddress = createLimiter(app, {
      max: options.accountMax,
      timeWindow: options.windowMs,
      keyGenerator: (req) => `${accountKeyOf(req.body, field) ?? ''}|ip:${clientKey(req)}`,
      allowList: unnamed,
    });
    const byAccount = createLimiter(app, {
      max: options.accountMax * ACCOUNT_SPREAD,
      timeWindow: options.windowMs,
      keyGenerator: (req) => accountKeyOf(req.body, field) ?? '',
      allowList: unnamed,
    });
    limitRoutes(app, signIn, 'preHandler', enforce(byAccountFromAddress));
    limitRoutes(app, signIn, 'preHandler', enforce(byAccount));
  }
}
