import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Headers on every answer of the API, errors included. Its answers carry firms' and clients' data:
 * nothing is kept by the browser's or a shared cache unless the route says otherwise (the JWKS sets its
 * own Cache-Control), no answer is read as another type than it says, and none is shown in a frame or
 * sends its address on to another site.
 */
export const API_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (_request, reply) => applySecurityHeaders(reply));
}

/**
 * The headers set on one answer. Also called by the answers Fastify gives before routing (a malformed
 * or too long address), which no hook sees.
 */
export function applySecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) reply.header(name, value);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
