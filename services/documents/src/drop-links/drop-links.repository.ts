import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, recordEvent } from '@portico/platform';
import { DocumentsEvents } from '@portico/proto';
import { and, desc, eq } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { dropOffs } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';

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

  list(scope: FirmScope) {
    return inFirm(this.db, scope, (tx) =>
      tx
        .select()
        .from(dropOffs)
        .where(eq(dropOffs.firmId, scope.firmId))
        .orderBy(desc(dropOffs.createdAt))
        .limit(500),
    );
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
