import { fileURLToPath } from 'node:url';
import { type DatabaseHandle, runMigrations } from '@portico/platform';
import type { Schema } from './schema.js';

/** The SQL migrations drizzle-kit wrote, at the package root beside src/ and dist/ (images keep that layout). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

/** Applies the migrations; the platform serialises replicas with an advisory lock. */
export function applyMigrations(database: DatabaseHandle<Schema>): Promise<void> {
  return runMigrations(database, MIGRATIONS_FOLDER);
}
