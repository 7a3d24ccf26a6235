import { Inject, Injectable } from '@nestjs/common';
import { acrossFirms, type FirmScope, inFirm, isUuid } from '@portico/platform';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { type UploadRow, uploads } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';
import { DROP_OFF_RENEWABLE_MS, PROCESS_GRACE_MS } from './upload-expiry.rules.js';

/**
 * How many files and declared bytes a firm's drop link may take since a time, and the part of them one
 * caller (`caller`, the hash the rows keep) may take.
 */
export interface UploadQuota {
  files: number;
  bytes: number;
  since: Date;
  caller: string;
  callerShare: number;
}

/** An upload whose link expired less than PROCESS_GRACE_MS ago, or not yet: it can still be filed. */
const STILL_PROCESSABLE = sql`expires_at > now() - ${`${PROCESS_GRACE_MS} milliseconds`}::interval`;

/** Thrown inside `renewDropOffs`' transaction to roll it back when not every id can be renewed. */
const NOT_ALL_RENEWABLE = new Error('not every upload can be renewed');

/** Upload ids as stored (lower case), each once. */
export const distinctUploadIds = (ids: readonly string[]) => [
  ...new Set(ids.map((id) => id.trim().toLowerCase())),
];

@Injectable()
export class UploadsRepository {
  constructor(@Inject(DB) private readonly db: DocumentsDb) {}

  /**
   * Records upload links. With `quota` (the drop link's, whose uploaders are anonymous), these links
   * must fit two budgets since `quota.since`, or nothing is recorded and the answer is undefined:
   * - the firm's: the links whose uploads can still be filed (until PROCESS_GRACE_MS after they
   *   expire: counted only until they expired, links asked for in rounds a quarter of an hour apart could
   *   all be filed at once, several days' worth) and the files filed from them. Before either, 136 links
   *   declaring 150 MB each, asked for in one call and never used, held the firm's 20 GB for the day's
   *   rest;
   * - the caller's (`quota.caller`): `callerShare` of the firm's, every link it was handed counted,
   *   used or not, so that one address cannot take the firm's day, nor ask again as its links expire.
   *   A link signed again for the same upload (`renewDropOffs`) is not a new one and counts nothing.
   * The firm's lock makes two calls at once count each other.
   */
  async create(
    scope: FirmScope,
    rows: (typeof uploads.$inferInsert)[],
    quota?: UploadQuota,
  ): Promise<UploadRow[] | undefined> {
    if (!rows.length) return [];
    return inFirm(this.db, scope, async (tx) => {
      if (quota) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`drop-offs:${scope.firmId}`}))`);
        // A link counts while its upload can still be filed.
        const counted = sql`(${STILL_PROCESSABLE} or (consumed_at is not null and not discarded))`;
        const theirs = sql`caller = ${quota.caller}`;
        const used = await tx.execute<{
          files: number;
          bytes: number;
          callerFiles: number;
          callerBytes: number;
        }>(sql`
          select count(*) filter (where ${counted})::int as files,
                 coalesce(sum(declared_size) filter (where ${counted}), 0)::float8 as bytes,
                 count(*) filter (where ${theirs})::int as "callerFiles",
                 coalesce(sum(declared_size) filter (where ${theirs}), 0)::float8 as "callerBytes"
          from uploads
          where firm_id = ${scope.firmId}::uuid and company_id is null
            and created_at > ${quota.since.toISOString()}::timestamptz`);
        const adding = rows.reduce((sum, r) => sum + Number(r.declaredSize), 0);
        const { files = 0, bytes = 0, callerFiles = 0, callerBytes = 0 } = used.rows[0] ?? {};
        if (files + rows.length > quota.files || bytes + adding > quota.bytes) return undefined;
        if (
          callerFiles + rows.length > Math.ceil(quota.files * quota.callerShare) ||
          callerBytes + adding > quota.bytes * quota.callerShare
        )
          return undefined;
      }
      return tx.insert(uploads).values(rows).returning();
    });
  }

  /**
   * Gives pending drop-off uploads a new expiry, for links signed again when a long drop-off outlives
   * them: the uploads with these ids (from `distinctUploadIds`) of the firm's drop link, handed to
   * `caller`, neither consumed nor discarded (the sweep marks the ones it takes both), handed out less
   * than DROP_OFF_RENEWABLE_MS ago and still processable (not past PROCESS_GRACE_MS after their expiry).
   * Nothing new is recorded, so nothing more counts against the drop link's day. Answers them in the
   * order of `ids`, or undefined, with none changed, when any id is not one of them.
   */
  async renewDropOffs(
    scope: FirmScope,
    ids: string[],
    caller: string,
    expiresAt: Date,
  ): Promise<UploadRow[] | undefined> {
    if (!ids.every(isUuid)) return undefined;
    if (!ids.length) return [];
    return inFirm(this.db, scope, async (tx) => {
      const pending = and(
        eq(uploads.firmId, scope.firmId),
        inArray(uploads.id, ids),
        isNull(uploads.companyId),
        eq(uploads.caller, caller),
        isNull(uploads.consumedAt),
        eq(uploads.discarded, false),
        sql`${uploads.createdAt} > now() - ${`${DROP_OFF_RENEWABLE_MS} milliseconds`}::interval`,
        STILL_PROCESSABLE,
      );
      const rows = await tx.update(uploads).set({ expiresAt }).where(pending).returning();
      // One of them is not: none is renewed.
      if (rows.length !== ids.length) throw NOT_ALL_RENEWABLE;
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) as UploadRow);
    }).catch((err) => {
      if (err === NOT_ALL_RENEWABLE) return undefined;
      throw err;
    });
  }

  /**
   * Claims the unconsumed uploads with these ids (from `distinctUploadIds`) handed out for this company
   * (null: the firm's drop link), and to `createdBy` when given, until `until`, and answers them in the
   * order of `ids`; undefined when any is not one of them or another process call holds it (what this
   * call took is then let go). So a
   * second call with the same ids does not read and parse the same files again while the first one
   * works. An id that is not a UUID names no upload, like an unknown one: callers answer 404, not a 500.
   */
  async claim(
    scope: FirmScope,
    ids: string[],
    owner: { companyId: string | null; createdBy?: string },
    until: Date,
  ): Promise<UploadRow[] | undefined> {
    const { companyId, createdBy } = owner;
    const wanted = ids.filter(isUuid);
    if (wanted.length !== ids.length) return undefined;
    const rows = await inFirm(this.db, scope, (tx) =>
      tx
        .update(uploads)
        .set({ claimedUntil: until })
        .where(
          and(
            eq(uploads.firmId, scope.firmId),
            inArray(uploads.id, wanted),
            companyId ? eq(uploads.companyId, companyId) : isNull(uploads.companyId),
            createdBy ? eq(uploads.createdBy, createdBy) : undefined,
            isNull(uploads.consumedAt),
            or(isNull(uploads.claimedUntil), lt(uploads.claimedUntil, sql`now()`)),
          ),
        )
        .returning(),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const inOrder = ids.map((id) => byId.get(id));
    if (inOrder.every((row) => row !== undefined)) return inOrder;
    await this.release(scope, rows);
    return undefined;
  }

  /** Lets go of uploads this call claimed and did not consume, so they can be processed again. */
  async release(scope: FirmScope, claimed: readonly UploadRow[]): Promise<void> {
    if (!claimed.length) return;
    await inFirm(this.db, scope, (tx) =>
      tx
        .update(uploads)
        .set({ claimedUntil: null })
        .where(
          and(
            eq(uploads.firmId, scope.firmId),
            inArray(
              uploads.id,
              claimed.map((row) => row.id),
            ),
            isNull(uploads.consumedAt),
          ),
        ),
    );
  }

  /** Marks these uploads used; answers the ids this call consumed (not those another call took first). */
  async consumeAll(tx: DocTx, scope: FirmScope, ids: readonly string[]): Promise<Set<string>> {
    const wanted = ids.filter(isUuid);
    if (!wanted.length) return new Set();
    const result = await tx.execute<{ id: string }>(sql`
      update uploads set consumed_at = now(), claimed_until = null
      where firm_id = ${scope.firmId}::uuid and id = any(${sql.param(wanted)}::uuid[]) and consumed_at is null
      returning id`);
    return new Set(result.rows.map((r) => r.id));
  }

  /**
   * Marks consumed uploads that were not filed, in the transaction that consumed them: their objects are
   * deleted once it commits, and again by the sweep after their links expire (a link still accepts one
   * put until then).
   */
  async markDiscarded(tx: DocTx, scope: FirmScope, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await tx.execute(sql`
      update uploads set discarded = true
      where firm_id = ${scope.firmId}::uuid and id = any(${sql.param([...ids])}::uuid[])`);
  }

  /**
   * The uploads whose objects are deleted after they were filed (a drop-off deleted, a file moved to
   * another company): their links may still put the object back until they expire, and a delete may
   * fail, so the sweep deletes these keys again once the links have expired.
   */
  async discardStoredAt(tx: DocTx, scope: FirmScope, keys: readonly string[]): Promise<void> {
    if (!keys.length) return;
    await tx.execute(sql`
      update uploads set discarded = true
      where firm_id = ${scope.firmId}::uuid and storage_key = any(${sql.param([...keys])}::text[])`);
  }

  /**
   * Across firms (a sweep cannot know the firm first): up to `limit` uploads never processed, or processed
   * and discarded, whose link expired before `cutoff`, and that no process call is checking now. Their
   * objects are deleted outside any transaction: holding the rows (and a pooled connection) while
   * `removeObjects` deleted up to 200 objects, each up to 10 s, kept a process call of any of them
   * waiting, and with it the replica's pool. So the rows are claimed in a short transaction, marked
   * consumed and discarded: a process call then finds them spent (404), as it found them gone, and can
   * never file an upload whose object is being deleted (its consume takes only rows not consumed, and a
   * call still checking one holds it, `claimed_until`, so the sweep passes it over). The claim lasts
   * `leaseMs`, so two sweeps at once take different rows. Once `removeObjects` has succeeded the rows go,
   * in a second short transaction; when it fails they are let go, to be swept again (as discarded uploads,
   * which no call can take), and its error is thrown. Answers how many were removed.
   */
  async removeAbandoned(
    cutoff: Date,
    limit: number,
    removeObjects: (keys: string[]) => Promise<void>,
    leaseMs = 15 * 60_000,
  ): Promise<number> {
    const claimed = await acrossFirms(this.db, async (tx) => {
      const result = await tx.execute<{ id: string; storage_key: string }>(sql`
        update uploads
           set consumed_at = coalesce(consumed_at, now()), discarded = true,
               claimed_until = now() + ${`${leaseMs} milliseconds`}::interval
         where id in (
           select id from uploads
            where (consumed_at is null or discarded) and expires_at < ${cutoff.toISOString()}::timestamptz
              and (claimed_until is null or claimed_until < now())
            order by expires_at limit ${limit} for update skip locked)
        returning id, storage_key`);
      return result.rows;
    });
    if (!claimed.length) return 0;
    const ids = sql.param(claimed.map((r) => r.id));
    try {
      await removeObjects(claimed.map((r) => r.storage_key));
    } catch (err) {
      await acrossFirms(this.db, (tx) =>
        tx.execute(sql`update uploads set claimed_until = null where id = any(${ids}::uuid[])`),
      ).catch(() => undefined);
      throw err;
    }
    await acrossFirms(this.db, (tx) =>
      tx.execute(sql`delete from uploads where id = any(${ids}::uuid[]) and discarded`),
    );
    return claimed.length;
  }

  /**
   * Across firms: forgets uploads filed before `cutoff` (their objects are files or drop-offs now); the
   * discarded ones are the sweep's, which deletes their objects first.
   */
  async forgetConsumed(cutoff: Date): Promise<number> {
    return acrossFirms(this.db, async (tx) => {
      const res = await tx.execute(
        sql`delete from uploads where consumed_at < ${cutoff.toISOString()}::timestamptz and not discarded`,
      );
      return res.rowCount ?? 0;
    });
  }
}
