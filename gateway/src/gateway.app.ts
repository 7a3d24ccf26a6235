import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { JsonNestLogger } from '@portico/platform';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { AppModule, type GatewayResources } from './app.module.js';
import type { GatewayConfig } from './config/gateway.config.js';
import { frameworkErrorResponse } from './errors/error-response.js';
import { Lifecycle } from './health/lifecycle.js';
import { registerCompression } from './http/compression.js';
import { corsOptions } from './http/cors.js';
import { applySecurityHeaders, registerSecurityHeaders } from './http/security-headers.js';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi.document.js';
import { registerClientErrorsRateLimit } from './rate-limit/client-errors-rate-limit.js';
import { registerPublicUploadRateLimit } from './rate-limit/public-upload-rate-limit.js';
import { registerRateLimitPlugin } from './rate-limit/route-limits.js';
import { registerSignInRateLimit } from './rate-limit/sign-in-rate-limit.js';
import { registerRequestTracing } from './tracing/request-tracing.js';

/** The longest path parameter taken (a drop link id is up to 2,000 characters). */
export const MAX_PATH_PARAM_LENGTH = 2_048;

/** Prefix of the sign-in routes that carry the per-address and per-account limits. */
export const SIGN_IN_PREFIX = '/sessions/';

export function fastifyOptions(config: GatewayConfig): FastifyServerOptions {
  return {
    bodyLimit: config.bodyLimitBytes,
    // A drop link id is the firm's id and name, so it grows with the name: Fastify's default of 100
    // characters answered 414 for every firm named with 38 bytes or more. The route's own pipe limits it.
    maxParamLength: MAX_PATH_PARAM_LENGTH,
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // While closing, new requests get 503 and in-flight ones finish.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: (err, _request, reply) => {
      const { status, body } = frameworkErrorResponse(err);
      applySecurityHeaders(reply as FastifyReply);
      void (reply as FastifyReply).status(status).send(body);
    },
  };
}

/**
 * While draining, every response asks the client to close its connection, so keep-alive connections
 * of requests that were in flight do not hold the server open after they finish.
 */
function closeConnectionsWhileDraining(fastify: FastifyInstance, lifecycle: Lifecycle): void {
  fastify.addHook('onSend', async (_request, reply) => {
    if (lifecycle.isDraining) reply.header('connection', 'close');
  });
}

/** Creates the Nest application on Fastify, not yet configured nor listening. */
export function createNestApp(resources: GatewayResources): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(
    AppModule.register(resources),
    new FastifyAdapter(fastifyOptions(resources.config)),
    { logger: new JsonNestLogger(resources.log), bufferLogs: false, abortOnError: false },
  );
}

/**
 * Adds everything that must exist before the routes are registered (tracing, security headers,
 * compression, CORS, sign-in rate limits, the OpenAPI document and its UI), then registers them. It
 * does not listen.
 */
export async function configureGatewayApp(
  app: NestFastifyApplication,
  resources: GatewayResources,
): Promise<void> {
  const { config, log } = resources;
  const fastify = app.getHttpAdapter().getInstance();
  registerRequestTracing(fastify, log);
  registerSecurityHeaders(fastify);
  await registerCompression(fastify);
  closeConnectionsWhileDraining(fastify, app.get(Lifecycle));
  app.enableCors(corsOptions(config));
  await registerRateLimitPlugin(fastify);
  await registerSignInRateLimit(fastify, { ...config.rateLimit, prefix: SIGN_IN_PREFIX });
  await registerPublicUploadRateLimit(fastify, {
    windowMs: config.rateLimit.windowMs,
    ipMax: config.rateLimit.publicUploadIpMax,
  });
  await registerClientErrorsRateLimit(fastify, {
    windowMs: config.rateLimit.windowMs,
    ipMax: config.rateLimit.clientErrorsIpMax,
    totalMax: config.rateLimit.clientErrorsTotalMax,
  });
  serveOpenApi(app, buildOpenApiDocument(app));
  await app.init();
}

export async function createGatewayApp(resources: GatewayResources): Promise<NestFastifyApplication> {
  const app = await createNestApp(resources);
  await configureGatewayApp(app, resources);
  return app;
}
