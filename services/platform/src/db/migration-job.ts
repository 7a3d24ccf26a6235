import { ConfigError, commonEnv, loadConfig, serviceEnv } from '../config/env.js';
import { createLogger } from '../logging/logger.js';
import { openDatabase, runMigrations } from './database.js';

/** A migration may rewrite a large table: far longer than a request's statement timeout. */
const MIGRATION_STATEMENT_TIMEOUT_MS = 300_000;

/**
 * A service's migration job (`dist/migrate.js`, the Kubernetes Job run before a rollout): applies the
 * SQL migrations in `folder` and sets the exit code, 0 when applied, 1 otherwise. It reads only
 * LOG_LEVEL and DATABASE_URL, the environment the job is given: not the service's own settings (keys,
 * storage), which the job has no business holding. A configuration error is printed as its plain message.
 */
export async function runMigrationJob(service: string, folder: string): Promise<void> {
  const log = createLogger(`${service}-migrate`);
  try {
    const config = loadConfig({ LOG_LEVEL: commonEnv.LOG_LEVEL, DATABASE_URL: serviceEnv.DATABASE_URL });
    log.level = config.LOG_LEVEL;
    const database = openDatabase(
      config.DATABASE_URL,
      {},
      {
        max: 2,
        statementTimeoutMs: MIGRATION_STATEMENT_TIMEOUT_MS,
      },
    );
    try {
      await runMigrations(database, folder);
    } finally {
      await database.close();
    }
    log.info({ folder }, 'Migrations applied');
  } catch (err) {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else log.fatal({ err }, 'Migrations failed');
    process.exitCode = 1;
  }
}
