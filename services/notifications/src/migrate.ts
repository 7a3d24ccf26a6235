// Applies the SQL migrations and exits; run by the notifications-migrate Kubernetes Job before a
// rollout. The service also applies them at start, so locally this is never needed.
import {
  ConfigError,
  commonEnv,
  createLogger,
  loadConfig,
  openDatabase,
  serviceEnv,
} from '@portico/platform';
import { applyMigrations, MIGRATIONS_FOLDER } from './migrations.js';
import { schema } from './schema.js';

const log = createLogger('notifications-migrate');
try {
  const config = loadConfig({ LOG_LEVEL: commonEnv.LOG_LEVEL, DATABASE_URL: serviceEnv.DATABASE_URL });
  log.level = config.LOG_LEVEL;
  const database = openDatabase(config.DATABASE_URL, schema, { max: 2, statementTimeoutMs: 300_000 });
  try {
    await applyMigrations(database);
  } finally {
    await database.close();
  }
  log.info({ folder: MIGRATIONS_FOLDER }, 'Migrations applied');
} catch (err) {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else log.fatal({ err }, 'Migrations failed');
  process.exit(1);
}
