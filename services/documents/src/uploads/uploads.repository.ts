import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, isUuid } from '@portico/platform';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { type UploadRow, uploads } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';

@Injectable()
export class UploadsRepository {
  constructor(@Inject(DB) private readonly db: DocumentsDb) {}

  async create(scope: FirmScope, rows: (typeof uploads.$inferInsert)[]): Promise<UploadRow[]> {
    if (!rows.length) return [];
    return inFirm(this.db, scope, (tx) => tx.insert(uploads).values(rows).returning());
  }

  /**
   * Unconsumed uploads with these ids handed out for this company (null: the firm's drop link). An id that
   * is not a UUID names no upload and is left out like an unknown one: callers answer 404, not a 500.
   */
  pending(scope: FirmScope, ids: string[], companyId: string | null): Promise<UploadRow[]> {
    const wanted = ids.filter(isUuid);
    if (!wanted.length) return Promise.resolve([]);
    return inFirm(this.db, scope, (tx) =>
      tx
        .select()
        .from(uploads)
        .where(
          and(
            eq(uploads.firmId, scope.firmId),
            inArray(uploads.id, wanted),
            companyId ? eq(uploads.companyId, companyId) : isNull(uploads.companyId),
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
      update uploads set consumed_at = now()
      where firm_id = ${scope.firmId}::uuid and id = any(${sql.param(wanted)}::uuid[]) and consumed_at is null
      returning id`);
    return new Set(result.rows.map((r) => r.id));
  }
}
