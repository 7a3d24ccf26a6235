import { type Logger, openDatabase, type RunningService, runService } from '@portico/platform';
import type { NotificationsConfig } from './config.js';
import { applyMigrations } from './migrations.js';
import { NotificationsModule } from './notifications.module.js';
import { type Schema, schema } from './schema.js';

/** Applies the migrations, then answers on NATS and runs the delivery worker until stopped. */
export async function startNotificationsService(
  config: NotificationsConfig,
  log: Logger,
): Promise<RunningService<Schema>> {
  const database = openDatabase(config.DATABASE_URL, schema);
  try {
    await applyMigrations(database);
    return await runService({
      name: 'notifications',
      natsUrl: config.NATS_URL,
      healthPort: config.HEALTH_PORT,
      database,
      log,
      module: (resources) => NotificationsModule.register(resources, config),
    });
  } catch (err) {
    await database.close();
    throw err;
  }
}
