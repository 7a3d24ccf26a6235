// Seeds the demo data into the identity database once: `node dist/seed/seed-main.js`.
import { createLogger, openDatabase, runMigrations } from '@portico/platform';
import { loadIdentityConfig } from '../config.js';
import { schema } from '../schema.js';
import { MIGRATIONS_FOLDER } from '../start.js';
import { seedDemoFirm } from './demo-firm.js';

const log = createLogger('identity-seed');
const database = openDatabase(loadIdentityConfig().DATABASE_URL, schema);
try {
  await runMigrations(database, MIGRATIONS_FOLDER);
  const { created } = await seedDemoFirm(database.db);
  log.info(created ? 'Demo firm seeded' : 'Demo firm already present');
} catch (err) {
  log.fatal({ err }, 'Seeding failed');
  process.exitCode = 1;
} finally {
  await database.close();
}
