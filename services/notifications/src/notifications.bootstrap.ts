import { type Logger, openDatabase, type RunningService, runMigrations, runService } from '@portico/platform';
import type { NotificationsConfig } from './config.js';
import { NotificationsModule } from './notifications.module.js';
import { MIGRATIONS_FOLDER, type Schema, schema } from './schema.js';

/** Applies the migrations, then answers on NATS and runs the delivery worker until stopped. */
export async function startNotificationsService(
  config: NotificationsConfig,
  log: Logger,
): Promise<RunningService<Schema>> {
  const database = openDatabase(config.DATABASE_URL, schema);
  try {
    await runMigrations(database.db, MIGRATIONS_FOLDER);
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
