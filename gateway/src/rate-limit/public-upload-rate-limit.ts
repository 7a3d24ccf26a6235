import type { FastifyInstance } from 'fastify';
import { clientKey } from './client-key.js';
import { createLimiter, enforce, limitRoutes } from './route-limits.js';

export interface PublicUploadRateLimitOptions {
  windowMs: number;
  /** Requests per window from one client address (clientKey) to the public drop-off routes, all together. */
  ipMax: number;
}

/**
 * The routes anyone may call without signing in to leave files with a firm: the drop link's page and
 * upload steps (/drop-link) and the secure upload page (/secure-upload). Not the advisors' own drop link
 * routes (`/integrations/drop_link` without an id), which need a session.
 */
export function isPublicUploadRoute(url: string): boolean {
  return url.startsWith('/integrations/drop_link/:') || url.startsWith('/integrations/secure_upload/');
}

/**
 * A per-address limit on the public drop-off routes, before the body is read: a visitor's drop-off is
 * three or four calls (the page, the upload links of up to 999 files, the processing), so the limit stops
 * a script from minting upload links in a loop, not a person. Over the limit: 429 with Retry-After.
 */
export async function registerPublicUploadRateLimit(
  app: FastifyInstance,
  options: PublicUploadRateLimitOptions,
) {
  const byAddress = createLimiter(app, {
    max: options.ipMax,
    timeWindow: options.windowMs,
    keyGenerator: (req) => `drop-off-ip:${clientKey(req)}`,
  });
  limitRoutes(app, isPublicUploadRoute, 'onRequest', enforce(byAddress));
}
