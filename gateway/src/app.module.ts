import type { NatsConnection } from '@nats-io/transport-node';
import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { BusClient, type Logger } from '@portico/platform';
import { Identity } from '@portico/proto';
import { AuthGuard } from './auth/auth.guard.js';
import { JwksCache } from './auth/jwks.cache.js';
import { JwtStrategy } from './auth/jwt.strategy.js';
import { RevocationList } from './auth/revocations.js';
import { GATEWAY_LOGGER, NATS_CONNECTION } from './bus/bus.tokens.js';
import { RpcForwarder } from './bus/rpc-forwarder.js';
import { ClientErrorsController } from './client-errors/client-errors.controller.js';
import { CompaniesClient } from './companies/companies.client.js';
import { CompaniesController, EntitiesController } from './companies/companies.controller.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config.js';
import { OutboxController } from './dev/outbox.controller.js';
import { DocumentsClient } from './documents/documents.client.js';
import { DocumentsController } from './documents/documents.controller.js';
import { ExtractedDocumentsController } from './documents/extracted.controller.js';
import { HttpExceptionFilter } from './errors/http-exception.filter.js';
import { FirmsClient } from './firms/firms.client.js';
import { FirmsController } from './firms/firms.controller.js';
import { HealthController } from './health/health.controller.js';
import { Lifecycle } from './health/lifecycle.js';
import { KeysController } from './keys/keys.controller.js';
import { RealtimeHub } from './realtime/realtime.hub.js';
import { SessionsClient } from './sessions/sessions.client.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { CurrentUserController } from './users/current-user.controller.js';
import { UsersClient } from './users/users.client.js';
import { OutOfOfficeController, UsersController } from './users/users.controller.js';

export interface GatewayResources {
  config: GatewayConfig;
  nc: NatsConnection;
  log: Logger;
}

/** A per-area client built on the forwarder. */
const areaClient = <T>(type: new (rpc: RpcForwarder) => T): Provider => ({
  provide: type,
  useFactory: (rpc: RpcForwarder) => new type(rpc),
  inject: [RpcForwarder],
});

@Module({})
export class AppModule {
  static register({ config, nc, log }: GatewayResources): DynamicModule {
    const controllers: Type[] = [
      SessionsController,
      UsersController,
      OutOfOfficeController,
      CurrentUserController,
      CompaniesController,
      EntitiesController,
      FirmsController,
      DocumentsController,
      ExtractedDocumentsController,
      KeysController,
      HealthController,
      ClientErrorsController,
    ];
    if (config.devRoutesEnabled) controllers.push(OutboxController);
    return {
      module: AppModule,
      controllers,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: GATEWAY_LOGGER, useValue: log },
        { provide: BusClient, useValue: new BusClient(nc) },
        {
          provide: RpcForwarder,
          useFactory: (bus: BusClient) => new RpcForwarder(bus, config.requestTimeoutMs),
          inject: [BusClient],
        },
        areaClient(SessionsClient),
        areaClient(UsersClient),
        areaClient(CompaniesClient),
        areaClient(FirmsClient),
        areaClient(DocumentsClient),
        {
          provide: JwksCache,
          useFactory: (bus: BusClient) =>
            new JwksCache(
              async () => (await bus.request(Identity.jwks, {}, { timeoutMs: config.requestTimeoutMs })).keys,
              config.jwks,
              log,
            ),
          inject: [BusClient],
        },
        { provide: RevocationList, useValue: new RevocationList() },
        JwtStrategy,
        { provide: Lifecycle, useValue: new Lifecycle() },
        { provide: RealtimeHub, useValue: new RealtimeHub() },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useValue: new HttpExceptionFilter(log) },
      ],
    };
  }
}
