import 'reflect-metadata';

export * from './auth/actor.js';
export * from './bus/bus-client.js';
export * from './bus/events.js';
export * from './bus/outbox.schema.js';
export * from './bus/rpc.js';
export * from './bus/semaphore.js';
export * from './config/env.js';
export * from './db/database.js';
export * from './db/migration-job.js';
export * from './db/scoped-read.js';
export * from './errors/app-error.js';
export * from './errors/postgres-errors.js';
export * from './health/health-server.js';
export * from './logging/logger.js';
export * from './service/run-service.js';
export * from './telemetry/propagation.js';
export * from './text/text.rules.js';
