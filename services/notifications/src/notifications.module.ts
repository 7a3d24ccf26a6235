import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceResources } from '@portico/platform';
import { CONFIG, type NotificationsConfig } from './config.js';
import { MAIL_PORT } from './delivery/mail.port.js';
import { createMailPort, createSmsPort } from './delivery/providers.js';
import { SMS_PORT } from './delivery/sms.port.js';
import { DeliveryWorker, LOGGER } from './delivery.worker.js';
import { OutboundHandler } from './outbound.handler.js';
import { OutboundService } from './outbound.service.js';
import { DATABASE, OutboxRepository } from './outbox.repository.js';
import { RetentionJob } from './retention.job.js';
import type { Schema } from './schema.js';

@Module({})
export class NotificationsModule {
  /** The module of one running service, wired to its opened resources and configuration. */
  static register(resources: ServiceResources<Schema>, config: NotificationsConfig): DynamicModule {
    return {
      module: NotificationsModule,
      controllers: [OutboundHandler],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: DATABASE, useValue: resources.database.db },
        { provide: LOGGER, useValue: resources.log },
        { provide: MAIL_PORT, useFactory: () => createMailPort(config) },
        { provide: SMS_PORT, useFactory: () => createSmsPort(config) },
        OutboxRepository,
        DeliveryWorker,
        RetentionJob,
        OutboundService,
      ],
    };
  }
}
