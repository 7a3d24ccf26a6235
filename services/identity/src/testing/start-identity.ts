import { createServiceDatabase, queryAcrossFirms, uniqueDatabaseName } from '@portico/platform/testing';
import { KeyRing } from '../keys/signing-keys.js';
import { type BuiltFirm, buildFirm, type FirmSpec } from '../seed/firm-builder.js';
import { startIdentityService } from '../start.js';

export interface TestIdentity {
  databaseUrl: string;
  healthPort: number;
  buildFirm(spec: FirmSpec): Promise<BuiltFirm>;
  /** Runs SQL as the service's own role, across firms (the way sign-in lookups do). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** Runs the real identity service in this process against its own fresh database. */
export async function startIdentity(options: {
  natsUrl: string;
  pgAdminUrl: string;
  env?: Record<string, string>;
}): Promise<TestIdentity> {
  const databaseUrl = await createServiceDatabase(options.pgAdminUrl, uniqueDatabaseName('identity'));
  const keys = JSON.stringify([await KeyRing.generateConfig('test-key')]);
  const service = await startIdentityService({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    NATS_URL: options.natsUrl,
    DATABASE_URL: databaseUrl,
    HEALTH_PORT: '0',
    JWT_SIGNING_KEYS: keys,
    PUBLIC_URL: 'http://portal.test',
    ...options.env,
  });
  const db = service.resources.database.db;
  return {
    databaseUrl,
    healthPort: service.healthPort,
    buildFirm: (spec) => buildFirm(db, spec),
    query: (text, params) => queryAcrossFirms(service.resources.database.pool, text, params),
    stop: service.stop,
  };
}
