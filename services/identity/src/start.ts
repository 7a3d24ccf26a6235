import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Database, openDatabase, runService } from '@portico/platform';
import { type IdentityConfig, loadIdentityConfig } from './config.js';
import { IdentityModule } from './identity.module.js';
import { KeyRing } from './keys/signing-keys.js';
import { schema } from './schema.js';
import { AccountNotices } from './users/account-notices.js';

/** The migrations folder sits beside src/ and dist/ in the package. */
export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

/**
 * Starts the identity service in this process: keys, health, migrations (applied, or awaited when
 * MIGRATE_ON_START is false), NATS handlers and the account notices' event consumer.
 */
export async function startIdentityService(env: NodeJS.ProcessEnv = process.env) {
  const config: IdentityConfig = loadIdentityConfig(env);
  const log = createLogger('identity', config.LOG_LEVEL);
  let keys: KeyRing;
  if (config.JWT_SIGNING_KEYS) keys = KeyRing.parse(config.JWT_SIGNING_KEYS);
  else {
    log.warn('JWT_SIGNING_KEYS is not set: using a generated key; sessions end when the process restarts');
    keys = new KeyRing([await KeyRing.generateConfig()]);
  }
  const database = openDatabase(config.DATABASE_URL, schema);
  const service = await runService({
    name: 'identity',
    natsUrl: config.NATS_URL,
    healthPort: config.HEALTH_PORT,
    database,
    log,
    migrations: { folder: MIGRATIONS_FOLDER, applyAtStart: config.MIGRATE_ON_START },
    module: (resources) => IdentityModule.create(resources, config, keys),
  });
  const accountNotices = await service.app
    .get(AccountNotices)
    .start(service.resources.nc, database.db as Database);
  return {
    ...service,
    stop: async () => {
      await accountNotices.stop();
      await service.stop();
    },
  };
}
