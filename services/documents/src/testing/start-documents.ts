import { createServiceDatabase, queryAcrossFirms, uniqueDatabaseName } from '@portico/platform/testing';
import { HeicConverter } from '../previews/heic.converter.js';
import { startDocumentsService } from '../start.js';

export interface TestDocuments {
  databaseUrl: string;
  healthPort: number;
  /** Waits for queued HEIC conversions. */
  previewsIdle(): Promise<void>;
  /** Runs SQL as the service's own role, across firms. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * One of the running service's own providers (a class, or an injection token of tokens.ts), for a test
   * that holds a step of it back.
   */
  provider<T>(type: (abstract new (...args: never[]) => T) | symbol): T;
  stop(): Promise<void>;
}

/** Runs the real documents service in this process against its own fresh database and the given S3. */
export async function startDocuments(options: {
  natsUrl: string;
  pgAdminUrl: string;
  s3Env: Record<string, string>;
  env?: Record<string, string>;
}): Promise<TestDocuments> {
  const databaseUrl = await createServiceDatabase(options.pgAdminUrl, uniqueDatabaseName('documents'));
  const service = await startDocumentsService({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    NATS_URL: options.natsUrl,
    DATABASE_URL: databaseUrl,
    HEALTH_PORT: '0',
    ...options.s3Env,
    ...options.env,
  });
  return {
    databaseUrl,
    healthPort: service.healthPort,
    previewsIdle: () => service.app.get(HeicConverter).idle(),
    provider: (type) => service.app.get(type),
    query: (text, params) => queryAcrossFirms(service.resources.database.pool, text, params),
    stop: service.stop,
  };
}
