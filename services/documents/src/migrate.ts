// Applies the migrations and exits: the Kubernetes job that runs before a rollout.
import { createLogger, openDatabase, runMigrations } from '@portico/platform';
import { loadDocumentsConfig } from './config.js';
import { schema } from './schema.js';
import { MIGRATIONS_FOLDER } from './start.js';

const log = createLogger('documents-migrate');
const config = loadDocumentsConfig();
const database = openDatabase(config.DATABASE_URL, schema);
try {
  await runMigrations(database, MIGRATIONS_FOLDER);
  log.info('Migrations applied');
} catch (err) {
  log.fatal({ err }, 'Migrations failed');
  process.exitCode = 1;
} finally {
  await database.close();
}
