import type { CreateRateLimitOptions } from '@fastify/rate-limit';
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

/**
 * Keys each limit remembers (least recently used first out). With the plugin's 5,000, a script cycling
 * through that many junk keys (addresses, or emails named in a body) evicted a victim's counter and so
 * reset its budget. A key costs about 250 bytes (an address) up to about 900 (an account key with the
 * longest email, beyond Latin-1), so a limit at its cap holds 5 to 18 MB, kept once reached (keys are
 * evicted, never expired). The gateway's README adds up the ten limits that can fill, against the pod's
 * memory limit.
 */
export const RATE_LIMIT_KEYS_PER_LIMIT = 20_000;

/**
 * A limit of its own with room for RATE_LIMIT_KEYS_PER_LIMIT keys. The plugin gives each limit made
 * this way a store of its own, sized from these options (its registration's `cache` does not reach
 * them); the option is missing from its typings. The store keeps a copy of each key, not the key itself.
 */
export function createLimiter(app: FastifyInstance, options: CreateRateLimitOptions): Limiter {
  const { keyGenerator } = options;
  const withRoom: CreateRateLimitOptions & { cache: number } = {
    ...options,
    cache: RATE_LIMIT_KEYS_PER_LIMIT,
    ...(keyGenerator && {
      keyGenerator: (req: FastifyRequest) => {
        const key = keyGenerator(req);
        return typeof key === 'string' ? standaloneCopy(key) : key;
      },
    }),
  };
  return app.createRateLimit(withRoom);
}

/**
 * `text` in a string of its own. A key cut from a request (`slice`, a template) may be a view of the
 * whole text it came from: an account key cut to 320 characters from an email of a megabyte kept the
 * megabyte for as long as the limit remembered the key.
 */
function standaloneCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

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
