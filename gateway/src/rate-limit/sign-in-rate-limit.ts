import rateLimit from '@fastify/rate-limit';
import { AppError } from '@portico/platform';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import { accountKeyOf } from '../sessions/sessions.schemas.js';

export interface SignInRateLimitOptions {
  windowMs: number;
  /** Requests per window from one client address to the sign-in routes. */
  ipMax: number;
  /** Requests per window naming one account (email or uid in the body). */
  accountMax: number;
  /** Routes whose path starts with this prefix are limited. */
  prefix: string;
}

export const tooMany = (retryAfterSeconds: number) =>
  new AppError(
    'too_many_requests',
    'rate_limited',
    `Too many attempts. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    { retryAfterSeconds },
  );

/** The rate-limit plugin, once per app, before the limits of the routes below are set up. */
export async function registerRateLimitPlugin(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
}

/**
 * Per-address and per-account limits on the sign-in routes. The address limit runs before the body is
 * read; the account limit after, keyed by the email or uid in the body. Over the limit: 429 with
 * Retry-After. Identity keeps its own finer limits (wrong codes, lockout) behind these.
 */
export async function registerSignInRateLimit(app: FastifyInstance, options: SignInRateLimitOptions) {
  const byAddress = app.createRateLimit({
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `ip:${req.ip}`,
  });
  const byAccount = app.createRateLimit({
    max: options.accountMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => accountKeyOf(req.body) ?? '',
    allowList: (req) => accountKeyOf(req.body) === undefined,
  });
  const check = async (limiter: typeof byAddress, req: FastifyRequest) => {
    const result = await limiter(req);
    if (!result.isAllowed && result.isExceeded) throw tooMany(Math.max(1, result.ttlInSeconds));
  };
  const addressHook: onRequestHookHandler = async (req) => check(byAddress, req);
  const accountHook: preHandlerHookHandler = async (req) => check(byAccount, req);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(options.prefix)) return;
    route.onRequest = [...toArray(route.onRequest), addressHook] as typeof route.onRequest;
    route.preHandler = [...toArray(route.preHandler), accountHook] as typeof route.preHandler;
  });
}

export function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
