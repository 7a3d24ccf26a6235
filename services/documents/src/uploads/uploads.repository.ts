import { Inject, Injectable } from '@nestjs/common';
import { acrossFirms, type FirmScope, inFirm, isUuid } from '@portico/platform';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { type UploadRow, uploads } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';

/** How many files and declared bytes a firm's drop link may take since a time. */
export interface UploadQuota {
  files: number;
  bytes: number;
  since: Date;
}

/** Upload ids as stored (lower case), each once. */
export const distinctUploadIds = (ids: readonly string[]) => [
  ...new Set(ids.map((id) => id.trim().toLowerCase())),
];

@Injectable()
export class UploadsRepository {
  constructor(@Inject(DB) private readonly db: DocumentsDb) {}

  /**
   * Records upload links. With `quota` (the drop link's, whose uploaders are anonymous): the firm's
   * drop-off links since `quota.since`, these included, must stay within its files and declared bytes,
   * or nothing is recorded and the answer is undefined. The firm's lock makes two calls at once count
   * each other.
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
        const used = await tx.execute<{ files: number; bytes: number }>(sql`
          select count(*)::int as files, coalesce(sum(declared_size), 0)::float8 as bytes from uploads
          where firm_id = ${scope.firmId}::uuid and company_id is null
            and created_at > ${quota.since.toISOString()}::timestamptz`);
        const adding = rows.reduce((sum, r) => sum + Number(r.declaredSize), 0);
        const { files = 0, bytes = 0 } = used.rows[0] ?? {};
        if (files + rows.length > quota.files || bytes + adding > quota.bytes) return undefined;
      }
      return tx.insert(uploads).values(rows).returning();
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
   * and discarded, whose link expired before `cutoff`, locked so a process call at the same moment waits
   * and then finds them gone.
   * `removeObjects` deletes their objects; the rows go once it has succeeded, in the same transaction.
   * Answers how many were removed.
   */
  async removeAbandoned(
    cutoff: Date,
    limit: number,
    removeObjects: (keys: string[]) => Promise<void>,
  ): Promise<number> {
    return acrossFirms(this.db, async (tx) => {
      const claimed = await tx.execute<{ id: string; storage_key: string }>(sql`
        select id, storage_key from uploads
        where (consumed_at is null or discarded) and expires_at < ${cutoff.toISOString()}::timestamptz
        order by expires_at limit ${limit} for update skip locked`);
      if (!claimed.rows.length) return 0;
      await removeObjects(claimed.rows.map((r) => r.storage_key));
      await tx.execute(
        sql`delete from uploads where id = any(${sql.param(claimed.rows.map((r) => r.id))}::uuid[])`,
      );
      return claimed.rows.length;
    });
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
