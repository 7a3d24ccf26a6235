import type { FastifyInstance } from 'fastify';
import { enforce, limitRoutes } from './route-limits.js';

export const CLIENT_ERRORS_ROUTE = '/client_errors';

/**
 * A per-address limit on error reports, before the body is read: a page reports at most a few errors of
 * each kind, so the limit only stops a page in a loop, or a script, from filling the log.
 */
export async function registerClientErrorsRateLimit(
  app: FastifyInstance,
  options: { windowMs: number; ipMax: number },
) {
  const byAddress = app.createRateLimit({
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `client-errors-ip:${req.ip}`,
  });
  limitRoutes(app, (url) => url === CLIENT_ERRORS_ROUTE, 'onRequest', enforce(byAddress));
}
