import type { FastifyInstance } from 'fastify';
import { clientKey } from './client-key.js';
import { createLimiter, enforce, limitRoutes } from './route-limits.js';

export const CLIENT_ERRORS_ROUTE = '/client_errors';

/**
 * The largest error report taken, as Kong's limit on this path: a report is at most about 18,000
 * characters of text (message, two stacks, page), and the gateway's own limit for every other body is
 * 1 MB, which a report never needs.
 */
export const CLIENT_ERRORS_BODY_LIMIT_BYTES = 32 * 1024;

export interface ClientErrorsRateLimitOptions {
  windowMs: number;
  /** Reports per window from one client address (clientKey). */
  ipMax: number;
  /** Reports per window from all addresses together, on this replica. */
  totalMax: number;
}

/**
 * Limits on error reports, before the body is read: per address, as a page reports at most a few errors
 * of each kind, so the limit only stops a page in a loop, or a script, from filling the log; and over all
 * addresses, since anyone may report and many addresses would each have a budget of their own. The
 * overall limit counts only reports within their address's budget, so one address cannot use it up.
 * Also gives the route its own body limit (413 beyond CLIENT_ERRORS_BODY_LIMIT_BYTES).
 */
export async function registerClientErrorsRateLimit(
  app: FastifyInstance,
  options: ClientErrorsRateLimitOptions,
) {
  const isReportRoute = (url: string) => url === CLIENT_ERRORS_ROUTE;
  const byAddress = createLimiter(app, {
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `client-errors-ip:${clientKey(req)}`,
  });
  const overall = createLimiter(app, {
    max: options.totalMax,
    timeWindow: options.windowMs,
    keyGenerator: () => 'client-errors-all',
  });
  limitRoutes(app, isReportRoute, 'onRequest', enforce(byAddress));
  limitRoutes(app, isReportRoute, 'onRequest', enforce(overall));
  app.addHook('onRoute', (route) => {
    if (isReportRoute(route.url)) route.bodyLimit = CLIENT_ERRORS_BODY_LIMIT_BYTES;
  });
}
