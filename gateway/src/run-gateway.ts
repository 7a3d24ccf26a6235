import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from '@portico/platform';
import { JwtStrategy } from './auth/jwt.strategy.js';
import { RevocationList } from './auth/revocations.js';
import type { GatewayConfig } from './config/gateway.config.js';
import { createGatewayApp } from './gateway.app.js';
import { Lifecycle } from './health/lifecycle.js';
import { startRealtimeEvents } from './realtime/realtime.events.js';
import { RealtimeHub } from './realtime/realtime.hub.js';
import { RealtimeServer } from './realtime/realtime.server.js';

export interface RunningGateway {
  app: NestFastifyApplication;
  nc: NatsConnection;
  url: string;
  port: number;
  /** Graceful: readiness 503, sockets closed, in-flight requests finished, NATS drained. Idempotent. */
  stop(): Promise<void>;
}

/** Connects to NATS, starts the HTTP server, the realtime socket and its event feed. */
export async function runGateway(config: GatewayConfig, log: Logger): Promise<RunningGateway> {
  const nc = await connect({
    servers: config.natsUrl,
    name: 'gateway',
    maxReconnectAttempts: -1,
    // Each request would otherwise build two Error objects up front just for their stack traces.
    noAsyncTraces: true,
  });
  let app: NestFastifyApplication | undefined;
  try {
    app = await createGatewayApp({ config, nc, log });
    const hub = app.get(RealtimeHub);
    const strategy = app.get(JwtStrategy);
    const revocations = app.get(RevocationList);
    const realtime = new RealtimeServer(
      hub,
      (token) => strategy.verifyToken(token),
      revocations,
      log,
      config.realtimePingIntervalMs,
    );
    realtime.attach(app.getHttpServer());
    const events = await startRealtimeEvents(nc, hub, revocations, log);
    await app.listen({ port: config.port, host: config.host });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
    log.info({ port }, 'Gateway is listening');

    const lifecycle = app.get(Lifecycle);
    const running = app;
    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        lifecycle.markDraining();
        if (config.shutdownDelayMs) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
        realtime.close();
        await events.stop().catch((err) => log.warn({ err }, 'Realtime events did not stop cleanly'));
        await running.close();
        await nc.drain().catch(() => undefined);
        log.info('Gateway stopped');
      })();
      return stopping;
    };
    return { app, nc, url: `http://${host}:${port}`, port, stop };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await nc.close().catch(() => undefined);
    throw err;
  }
}
