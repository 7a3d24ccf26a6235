import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Database, openDatabase, runService } from '@portico/platform';
import { type DocumentsConfig, loadDocumentsConfig } from './config.js';
import { DocumentsModule } from './documents.module.js';
import { DropOffNotifier } from './drop-links/drop-off-notifier.js';
import { startExportsExpiry } from './exports/exports-expiry.js';
import { schema } from './schema.js';
import { S3ObjectStore } from './storage/s3.object-store.js';
import { startAbandonedUploadsSweep } from './uploads/abandoned-uploads.js';
import { UploadsRepository } from './uploads/uploads.repository.js';

/** The migrations folder sits beside src/ and dist/ in the package. */
export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export const objectStoreOf = (config: DocumentsConfig) =>
  new S3ObjectStore({
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });

/**
 * Starts the documents service in this process: object storage, health, migrations (applied, or awaited
 * when MIGRATE_ON_START is false), NATS handlers.
 */
export async function startDocumentsService(env: NodeJS.ProcessEnv = process.env) {
  const config = loadDocumentsConfig(env);
  const log = createLogger('documents', config.LOG_LEVEL);
  const database = openDatabase(config.DATABASE_URL, schema);
  const store = objectStoreOf(config);
  const exportsExpiry = await startExportsExpiry(store, log, { ttlHours: config.EXPORT_TTL_HOURS });
  const service = await runService({
    name: 'documents',
    natsUrl: config.NATS_URL,
    healthPort: config.HEALTH_PORT,
    database,
    log,
    migrations: { folder: MIGRATIONS_FOLDER, applyAtStart: config.MIGRATE_ON_START },
    module: (resources) => DocumentsModule.create(resources, config, store),
  });
  const abandonedUploads = startAbandonedUploadsSweep(new UploadsRepository(database.db), store, log);
  const dropOffNotices = await service.app
    .get(DropOffNotifier)
    .start(service.resources.nc, database.db as Database);
  return {
    ...service,
    store,
    config,
    exportsExpiry,
    stop: async () => {
      await exportsExpiry.stop();
      await abandonedUploads.stop();
      await dropOffNotices.stop();
      await service.stop();
      store.destroy();
    },
  };
}
