import { fileURLToPath } from 'node:url';
import { type DatabaseHandle, runMigrations } from '@portico/platform';
import type { Schema } from './schema.js';

/** The SQL migrations drizzle-kit wrote, at the package root beside src/ and dist/ (images keep that layout). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

/** Any fixed number, the same in every replica: the advisory lock key of this database's migrations. */
const MIGRATION_LOCK = 7_106_001;

/**
 * Applies the migrations while holding an advisory lock, so replicas starting together (and the
 * migration job) take turns: the first applies them, the others then find nothing left to do.
 */
export async function applyMigrations(database: DatabaseHandle<Schema>): Promise<void> {
  // The lock is held by one pooled connection while the migrations run on others: the pool needs two.
  const lock = await database.pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await runMigrations(database.db, MIGRATIONS_FOLDER);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
}
