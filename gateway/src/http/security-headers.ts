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

/**
 * What a page of the API may load. Its answers are JSON, which loads nothing. The OpenAPI page at /docs
 * is HTML on the portal's own origin (where the portal keeps its tokens): its scripts, styles and the
 * document are its own files; its inline styles and data: icons are all it needs besides.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const isDocsPage = (url: string) => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    applySecurityHeaders(reply);
    if (isDocsPage(request.url)) reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
  });
}

/**
 * The headers set on one answer. Also called by the answers Fastify gives before routing (a malformed
 * or too long address), which no hook sees.
 */
export function applySecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) reply.header(name, value);
  reply.header('content-security-policy', API_CONTENT_SECURITY_POLICY);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
