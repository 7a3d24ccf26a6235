import { createLogger, openDatabase, type RunningService, runService } from '@portico/platform';
import { loadNotificationsConfig } from './config.js';
import { insecureSettings, undeliveredChannels } from './delivery/providers.js';
import { DeliveryWorker } from './delivery.worker.js';
import { MIGRATIONS_FOLDER } from './migrations.js';
import { NotificationsModule } from './notifications.module.js';
import { type Schema, schema } from './schema.js';

export { loadNotificationsConfig, type NotificationsConfig } from './config.js';
export { MIGRATIONS_FOLDER } from './migrations.js';

/**
 * Starts the notifications service in this process from environment variables (see config.ts):
 * applies the migrations (or, with MIGRATE_ON_START=false, waits not ready until a migration Job has),
 * answers on NATS, runs the delivery worker and the health server until
 * `stop()`. Throws a ConfigError naming every bad variable.
 */
export async function startNotificationsService(
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService<Schema>> {
  const config = loadNotificationsConfig(env);
  const log = createLogger('notifications', config.LOG_LEVEL);
  for (const warning of [...undeliveredChannels(config), ...insecureSettings(config)]) log.warn(warning);
  const database = openDatabase(config.DATABASE_URL, schema);
  let service: RunningService<Schema>;
  try {
    service = await runService({
      name: 'notifications',
      natsUrl: config.NATS_URL,
      healthPort: config.HEALTH_PORT,
      database,
      log,
      migrations: { folder: MIGRATIONS_FOLDER, applyAtStart: config.MIGRATE_ON_START },
      module: (resources) => NotificationsModule.register(resources, config),
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  // The worker stops claiming first: the stop drains NATS before any of the worker's own hooks run.
  const worker = service.app.get(DeliveryWorker);
  const stop = service.stop;
  return {
    ...service,
    stop: () => {
      worker.stopClaiming();
      return stop();
    },
  };
}
