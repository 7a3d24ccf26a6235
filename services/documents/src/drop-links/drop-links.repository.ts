import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, recordEvent } from '@portico/platform';
import { DocumentsEvents } from '@portico/proto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { dropOffs } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';

/** Where a page of drop-offs ends: the last row's time (PostgreSQL's text) and id. */
export interface DropOffCursor {
  at: string;
  id: string;
}

@Injectable()
export class DropLinksRepository {
  constructor(@Inject(DB) private readonly db: DocumentsDb) {}

  transaction<T>(scope: FirmScope, work: (tx: DocTx) => Promise<T>): Promise<T> {
    return inFirm(this.db, scope, work);
  }

  /** Files the drop-offs and announces them, in the caller's transaction (with their uploads consumed). */
  async addDropOffs(
    tx: DocTx,
    scope: FirmScope,
    rows: (typeof dropOffs.$inferInsert)[],
    who: { name: string; email: string },
  ) {
    const inserted = rows.length ? await tx.insert(dropOffs).values(rows).returning() : [];
    await recordEvent(tx, DocumentsEvents.dropOffReceived, {
      firmId: scope.firmId,
      names: inserted.map((r) => r.name),
      uploaderName: who.name,
      uploaderEmail: who.email,
      occurredAt: new Date().toISOString(),
    });
    return inserted;
  }

  /**
   * Up to `limit` drop-offs, newest first, after `after` (the last row of the page before). Each row
   * comes with its time as PostgreSQL's text, to the microsecond, for the next page's keyset: a
   * JavaScript Date keeps milliseconds, and rows of one drop-off share them.
   */
  list(scope: FirmScope, limit: number, after?: DropOffCursor) {
    return inFirm(this.db, scope, (tx) =>
      tx
        .select({ row: dropOffs, at: sql<string>`${dropOffs.createdAt}::text` })
        .from(dropOffs)
        .where(
          and(
            eq(dropOffs.firmId, scope.firmId),
            after
              ? sql`(${dropOffs.createdAt}, ${dropOffs.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(dropOffs.createdAt), desc(dropOffs.id))
        .limit(limit),
    );
  }

  /** Deletes these drop-offs of the firm; answers the storage keys of those it deleted. */
  async deleteMany(tx: DocTx, scope: FirmScope, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await tx
      .delete(dropOffs)
      .where(and(eq(dropOffs.firmId, scope.firmId), inArray(dropOffs.id, ids)))
      .returning({ storageKey: dropOffs.storageKey });
    return rows.map((r) => r.storageKey);
  }

  async get(scope: FirmScope, id: string) {
    const rows = await inFirm(this.db, scope, (tx) =>
      tx
        .select()
        .from(dropOffs)
        .where(and(eq(dropOffs.firmId, scope.firmId), eq(dropOffs.id, id))),
    );
    return rows[0];
  }
}
