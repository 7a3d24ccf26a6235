import type { NatsConnection } from '@nats-io/transport-node';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from '@portico/platform';
import { AppModule } from '../app.module.js';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { buildOpenApiDocument } from './openapi.document.js';

/** Building the document touches no service: a connection that is never used stands in for NATS. */
const unusedConnection = {} as NatsConnection;

/**
 * The committed document describes the production route set (dev routes off), built from the same
 * module as the running gateway, without listening or connecting.
 */
export async function generateOpenApiJson(log: Logger): Promise<string> {
  const config = loadGatewayConfig({ NODE_ENV: 'production', DEV_ROUTES_ENABLED: 'false' });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register({ config, nc: unusedConnection, log }),
    new FastifyAdapter(),
    { logger: false, abortOnError: false },
  );
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
