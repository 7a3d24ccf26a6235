import { type SQL, sql } from 'drizzle-orm';
import { acrossFirms, type Database } from './database.js';

/**
 * Runs `statement`, a delete of at most `batch` rows, until it deletes fewer; answers how many in all.
 * Each statement stays short however many rows are due. Naming the rows by their ctid, locked by the same
 * statement (`where ctid = any(array(select ctid … limit n for update skip locked))`), none moves before
 * it is deleted and rows another replica's delete holds are skipped, not waited for; for the event
 * records' prune, `id in (select …)` had the planner read the whole table to join the batch against it.
 * With `acrossFirms`, each statement runs in a transaction of its own across firms (`acrossFirms`), for
 * tables under forced row-level security; otherwise as a statement of its own.
 */
export async function deleteInBatches<S extends Record<string, unknown>>(
  db: Database<S>,
  batch: number,
  statement: SQL,
  options: { acrossFirms?: boolean } = {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = options.acrossFirms
      ? await acrossFirms(db, (tx) => tx.execute(statement))
      : await db.execute(statement);
    const n = result.rowCount ?? 0;
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Deletes the rows of `table` that match `due`, `batch` at a time, each batch named by its ctid and
 * locked by the same statement, rows another replica's delete holds skipped (`deleteInBatches`).
 */
export function deleteDueRows<S extends Record<string, unknown>>(
  db: Database<S>,
  table: string,
  due: SQL,
  batch: number,
  options: { acrossFirms?: boolean } = {},
): Promise<number> {
  // A table name of the code's own, written as it is (the statements' text stays what plans are read of).
  if (!/^[a-z_]+$/.test(table)) throw new Error(`Not a table name: ${table}`);
  const rows = sql.raw(table);
  return deleteInBatches(
    db,
    batch,
    sql`delete from ${rows} where ctid = any(array(
      select ctid from ${rows} where ${due} limit ${batch} for update skip locked))`,
    options,
  );
}
