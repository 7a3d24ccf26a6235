import type { FastifyInstance } from 'fastify';
import { ACCOUNT_FIELDS, accountKeyOf } from '../sessions/sessions.schemas.js';
import { enforce, limitRoutes } from './route-limits.js';

export interface SignInRateLimitOptions {
  windowMs: number;
  /** Requests per window from one client address to the sign-in routes. */
  ipMax: number;
  /** Requests per window naming one account (by email, uid or two-factor challenge in the body). */
  accountMax: number;
  /** Routes whose path starts with this prefix are limited. */
  prefix: string;
}

/**
 * Per-address and per-account limits on the sign-in routes. The address limit runs before the body is
 * read; the account limits after, one for each way a body names an account (email, uid, challenge).
 * Over the limit: 429 with Retry-After. Identity keeps its own finer limits (wrong codes, lockout)
 * behind these.
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
    const byAccount = app.createRateLimit({
      max: options.accountMax,
      timeWindow: options.windowMs,
      keyGenerator: (req) => accountKeyOf(req.body, field) ?? '',
      allowList: (req) => accountKeyOf(req.body, field) === undefined,
    });
    limitRoutes(app, signIn, 'preHandler', enforce(byAccount));
  }
}
