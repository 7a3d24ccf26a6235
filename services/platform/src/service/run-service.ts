import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { Logger } from 'pino';
import { BusClient } from '../bus/bus-client.js';
import { assertDurableConsumersRunning, ensureEventStream, OutboxRelay } from '../bus/events.js';
import { SubjectNatsServer } from '../bus/nats-server.js';
import type { Database, DatabaseHandle } from '../db/database.js';
import { type MigrationsAtStart, prepareSchema } from '../db/schema-migrations.js';
import { NotReady, type ReadinessCheck, startHealthServer } from '../health/health-server.js';
import { JsonNestLogger } from '../logging/logger.js';
import { shutdownTelemetry } from '../telemetry/shutdown.js';

/** How long a stopping service waits at most for its requests in progress (see drainMs). */
export const DRAIN_MS = 65_000;

/** What every service process holds: its database, its NATS connection and the bus client. */
export interface ServiceResources<S extends Record<string, unknown>> {
  name: string;
  database: DatabaseHandle<S>;
  nc: NatsConnection;
  bus: BusClient;
  log: Logger;
}

export interface RunServiceOptions<S extends Record<string, unknown>> {
  name: string;
  natsUrl: string;
  healthPort: number;
  database: DatabaseHandle<S>;
  log: Logger;
  /** Builds the Nest module from the opened resources. */
  module: (resources: ServiceResources<S>) => Type<unknown> | DynamicModule;
  /**
   * The longest a stop waits for the requests in progress to finish once no new ones arrive (it ends
   * as soon as they have): longer than the slowest contract's timeout (60 s).
   */
  drainMs?: number;
  /**
   * The service's migrations: applied, or awaited (a migration Job applies them), before it connects to
   * NATS and takes work. Meanwhile the health server answers: live, and not ready with the reason.
   */
  migrations?: MigrationsAtStart;
}

export interface RunningService<S extends Record<string, unknown>> {
  app: INestMicroservice;
  resources: ServiceResources<S>;
  healthPort: number;
  stop(): Promise<void>;
}

/**
 * Starts a NATS microservice: queue group named after the service (replicas share the load), the
 * outbox relay, the health server, and a graceful stop that drains NATS before closing the pool.
 */
export async function runService<S extends Record<string, unknown>>(
  options: RunServiceOptions<S>,
): Promise<RunningService<S>> {
  const { name, log } = options;
  // The health server answers from the first moment: a start that waits for the database's migrations
  // (or applies a long one) is alive for the startup probe, and not ready until it takes work.
  const starting: ReadinessCheck = async () => {
    throw new NotReady('starting');
  };
  const startingChecks = { database: options.database.ping, nats: starting, events: starting };
  const health = await startHealthServer(options.healthPort, startingChecks);
  const schema = options.migrations && prepareSchema(options.database, options.migrations, log);
  if (schema) health.setChecks({ ...startingChecks, migrations: schema.readiness });
  let started: Awaited<ReturnType<typeof takeWork<S>>>;
  try {
    await schema?.current;
    started = await takeWork(options);
  } catch (err) {
    await health.close();
    throw err;
  }
  const { app, resources, relay } = started;
  const nc = resources.nc;
  health.setChecks({
    database: options.database.ping,
    nats: async () => {
      if (nc.isClosed()) throw new Error('closed');
      await nc.flush();
    },
    // The durable consumers started on this connection (by the service after this returns) are running,
    // or were lost less than a minute ago and are being made again.
    events: async () => assertDurableConsumersRunning(nc),
  });
  log.info({ health_port: health.port }, `${name} is listening on NATS`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      health.markDraining();
      await app.close();
      await relay.stop();
      await nc.drain().catch(() => undefined);
      await options.database.close();
      await health.close();
      log.info(`${name} stopped`);
    })();
    return stopping;
  };
  return { app, resources, healthPort: health.port, stop };
}

/** Connects to NATS, answers on the service's subjects and relays its outbox. */
async function takeWork<S extends Record<string, unknown>>(options: RunServiceOptions<S>) {
  const { name, log } = options;
  // noAsyncTraces: nats.js otherwise builds two Error objects per request to keep async stack traces.
  const nc = await connect({
    servers: options.natsUrl,
    name: `${name}-client`,
    maxReconnectAttempts: -1,
    noAsyncTraces: true,
  });
  try {
    await ensureEventStream(nc);
    const resources: ServiceResources<S> = {
      name,
      database: options.database,
      nc,
      bus: new BusClient(nc),
      log,
    };
    const app = await NestFactory.createMicroservice<MicroserviceOptions>(options.module(resources), {
      strategy: new SubjectNatsServer({
        servers: options.natsUrl,
        queue: name,
        name: `${name}-server`,
        gracefulShutdown: true,
        gracePeriod: options.drainMs ?? DRAIN_MS,
        maxReconnectAttempts: -1,
        noAsyncTraces: true,
      }),
      logger: new JsonNestLogger(log),
      bufferLogs: false,
    });
    await app.listen();
    const relay = new OutboxRelay(options.database.db as Database, nc, log);
    relay.start();
    return { app, resources, relay };
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
}

/** Wires SIGTERM and SIGINT to a graceful stop, for main.ts files. */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  const onSignal = (signal: string) => {
    log.info({ signal }, 'Shutting down');
    stop().then(
      async () => {
        await shutdownTelemetry();
        process.exit(0);
      },
      async (err) => {
        log.error({ err }, 'Unclean shutdown');
        await shutdownTelemetry();
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
