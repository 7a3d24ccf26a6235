import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { NotReady, type ReadinessCheck } from '../health/health-server.js';
import { type DatabaseHandle, runMigrations } from './database.js';

/** Where drizzle's migrator records what it applied (its default, which runMigrations keeps). */
const APPLIED_MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';

/** How often a service waiting for its migrations looks at the database again. */
const DEFAULT_POLL_MS = 5_000;

interface JournalEntry {
  tag: string;
  /** drizzle-kit's creation time of the migration: what the migrator records and compares. */
  when: number;
}

/** The migrations of a folder as drizzle-kit's journal lists them; a folder without one is a build error. */
function journalOf(folder: string): JournalEntry[] {
  const text = readFileSync(join(folder, 'meta', '_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

async function notAppliedOf<S extends Record<string, unknown>>(
  database: DatabaseHandle<S>,
  journal: JournalEntry[],
): Promise<string[]> {
  const { rows: table } = await database.pool.query<{ present: boolean }>(
    'select to_regclass($1) is not null as present',
    [APPLIED_MIGRATIONS_TABLE],
  );
  let newest: number | undefined;
  if (table[0]?.present) {
    const { rows } = await database.pool.query<{ newest: string | null }>(
      `select max(created_at) as newest from ${APPLIED_MIGRATIONS_TABLE}`,
    );
    if (rows[0]?.newest != null) newest = Number(rows[0].newest);
  }
  return journal.filter((entry) => newest === undefined || newest < entry.when).map((entry) => entry.tag);
}

/**
 * The migrations of `folder` that the database lacks, by tag (e.g. '0007_item_listing_bytes_trigger'),
 * decided as drizzle's migrator decides what to run: every one newer than the newest it recorded. A
 * database migrated by a newer version (during a rollout, for the old one) lacks nothing.
 */
export async function pendingMigrations<S extends Record<string, unknown>>(
  database: DatabaseHandle<S>,
  folder: string,
): Promise<string[]> {
  return notAppliedOf(database, journalOf(folder));
}

export interface MigrationsAtStart {
  /** The service's migrations folder (drizzle-kit's output, with meta/_journal.json). */
  folder: string;
  /**
   * Apply them before taking work (under the advisory lock, so replicas take turns), or leave them to a
   * migration Job and wait until the database has them all (production: MIGRATE_ON_START=false).
   */
  applyAtStart: boolean;
  /** How often a waiting service looks again (5 s). */
  pollMs?: number;
}

/** What readiness's `migrations` check shows until the database has every migration the code needs. */
export type SchemaState = 'checking' | 'applying' | 'pending' | 'current';

export interface SchemaPreparation {
  /** Fails with the state ('applying', 'pending', 'checking') until the schema is current. */
  readiness: ReadinessCheck;
  /** Settles once the database has every migration of the folder; rejects if applying them failed. */
  current: Promise<void>;
}

/**
 * Brings the service's database up to the migrations its code was built with before the service takes
 * work: applies them, or, where a Job applies them, waits for them instead of running against an older
 * schema, logging once at error which are missing and looking again every `pollMs`.
 */
export function prepareSchema<S extends Record<string, unknown>>(
  database: DatabaseHandle<S>,
  migrations: MigrationsAtStart,
  log: Logger,
): SchemaPreparation {
  let state: SchemaState = migrations.applyAtStart ? 'applying' : 'checking';
  const readiness = async () => {
    if (state !== 'current') throw new NotReady(state);
  };
  const current = (async () => {
    if (migrations.applyAtStart) await runMigrations(database, migrations.folder);
    else
      await untilApplied(database, migrations, log, (next) => {
        state = next;
      });
    state = 'current';
  })();
  return { readiness, current };
}

async function untilApplied<S extends Record<string, unknown>>(
  database: DatabaseHandle<S>,
  migrations: MigrationsAtStart,
  log: Logger,
  setState: (state: SchemaState) => void,
): Promise<void> {
  const journal = journalOf(migrations.folder);
  let toldPending = false;
  let toldUnreadable = false;
  for (;;) {
    try {
      const pending = await notAppliedOf(database, journal);
      toldUnreadable = false;
      if (pending.length === 0) {
        if (toldPending) log.info('The database now has every migration this version needs: starting');
        return;
      }
      setState('pending');
      if (!toldPending)
        log.error(
          { pending_migrations: pending },
          'The database lacks migrations this version needs, and this service does not apply them at start: it stays not ready until the migration Job has applied them',
        );
      toldPending = true;
    } catch (err) {
      // Readiness's `database` check says whether it answers; this says once why the wait goes on.
      if (!toldUnreadable)
        log.error({ err }, 'Could not read which migrations the database has: trying again');
      toldUnreadable = true;
    }
    await new Promise((resolve) => setTimeout(resolve, migrations.pollMs ?? DEFAULT_POLL_MS));
  }
}
