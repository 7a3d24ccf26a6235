import type { FastifyCorsOptions } from '@fastify/cors';
import type { GatewayConfig } from '../config/gateway.config.js';

const LOCALHOST_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** Whether a browser origin may call the API: the configured list, else any localhost outside production. */
export function originAllowed(
  origin: string,
  config: Pick<GatewayConfig, 'corsOrigins' | 'nodeEnv'>,
): boolean {
  if (config.corsOrigins.length) return config.corsOrigins.includes(origin);
  return config.nodeEnv !== 'production' && LOCALHOST_ORIGIN.test(origin);
}

export function corsOptions(config: GatewayConfig): FastifyCorsOptions {
  return {
    origin: (origin, callback) => callback(null, !origin || originAllowed(origin, config)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'traceparent', 'tracestate'],
    exposedHeaders: ['retry-after', 'x-trace-id'],
    maxAge: 600,
  };
}
