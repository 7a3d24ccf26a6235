import rateLimit from '@fastify/rate-limit';
import { AppError } from '@portico/platform';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';

/** The rate-limit plugin, once per app, before the limits of the routes below are set up. */
export async function registerRateLimitPlugin(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
}

const tooMany = (retryAfterSeconds: number) =>
  new AppError(
    'too_many_requests',
    'rate_limited',
    `Too many attempts. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    { retryAfterSeconds },
  );

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** A hook that answers 429 with Retry-After once `limiter` says the request is over its limit. */
export function enforce(limiter: Limiter): onRequestHookHandler & preHandlerHookHandler {
  return async (req: FastifyRequest) => {
    const result = await limiter(req);
    if (!result.isAllowed && result.isExceeded) throw tooMany(Math.max(1, result.ttlInSeconds));
  };
}

/**
 * Adds `hook` to every route whose path pattern `matches`: before the body is read (`onRequest`) or
 * after (`preHandler`, for limits keyed by the body). Call before the routes are registered.
 */
export function limitRoutes(
  app: FastifyInstance,
  matches: (url: string) => boolean,
  phase: 'onRequest' | 'preHandler',
  hook: onRequestHookHandler & preHandlerHookHandler,
) {
  app.addHook('onRoute', (route) => {
    if (!matches(route.url)) return;
    route[phase] = [...toArray(route[phase]), hook] as never;
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
