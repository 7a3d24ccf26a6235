import { Inject, Injectable } from '@nestjs/common';
import type { FirmScope } from '@portico/platform';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DocTx } from '../items/items.repository.js';
import { type ExtractedRow, extractedDocuments, type ItemRow, items } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';

export type ExtractedChanges = Partial<Omit<typeof extractedDocuments.$inferInsert, 'id' | 'firmId'>>;

/** The live extracted document `id` of the firm, and of `companyId` when given. */
function live(scope: FirmScope, id: string, companyId?: string) {
  return and(
    eq(extractedDocuments.firmId, scope.firmId),
    companyId === undefined ? undefined : eq(extractedDocuments.companyId, companyId),
    eq(extractedDocuments.id, id),
    isNull(extractedDocuments.deletedAt),
  );
}

@Injectable()
export class ExtractedRepository {
  constructor(@Inject(DB) readonly db: DocumentsDb) {}

  async insert(tx: DocTx, values: typeof extractedDocuments.$inferInsert): Promise<ExtractedRow> {
    const rows = await tx.insert(extractedDocuments).values(values).returning();
    return rows[0] as ExtractedRow;
  }

  /** Several at once, one statement. */
  async insertMany(tx: DocTx, values: (typeof extractedDocuments.$inferInsert)[]): Promise<void> {
    if (values.length) await tx.insert(extractedDocuments).values(values);
  }

  async get(tx: DocTx, scope: FirmScope, companyId: string, id: string): Promise<ExtractedRow | undefined> {
    const rows = await tx
      .select()
      .from(extractedDocuments)
      .where(live(scope, id, companyId));
    return rows[0];
  }

  /** The company of a live extracted document of the firm, for the calls that name only the document. */
  async companyOf(tx: DocTx, scope: FirmScope, id: string): Promise<string | undefined> {
    const rows = await tx
      .select({ companyId: extractedDocuments.companyId })
      .from(extractedDocuments)
      .where(live(scope, id));
    return rows[0]?.companyId;
  }

  /**
   * The files of the extracted documents `ids`, locked (select ... for update) until the transaction
   * ends, in id order. Whatever writes a file and its extracted document takes the file first, as the
   * tree's edit and delete do: two calls taking the two rows in opposite orders deadlocked (40P01).
   */
  async lockItemsOf(tx: DocTx, scope: FirmScope, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const itemIds = tx
      .select({ itemId: extractedDocuments.itemId })
      .from(extractedDocuments)
      .where(and(eq(extractedDocuments.firmId, scope.firmId), inArray(extractedDocuments.id, ids)));
    await tx
      .select({ id: items.id })
      .from(items)
      .where(and(eq(items.firmId, scope.firmId), inArray(items.id, itemIds)))
      .orderBy(items.id)
      .for('update');
  }

  /**
   * The extracted row and its file, locked (select ... for update) until the transaction ends, deleted
   * or not: a split re-checks both under the lock, so two splits of one document cannot both succeed.
   * The join locks the extracted row first: the caller holds the file already (lockItemsOf).
   */
  async lockWithItem(
    tx: DocTx,
    scope: FirmScope,
    id: string,
  ): Promise<{ row: ExtractedRow; item: ItemRow } | undefined> {
    const rows = await tx
      .select({ row: extractedDocuments, item: items })
      .from(extractedDocuments)
      .innerJoin(
        items,
        and(eq(items.firmId, extractedDocuments.firmId), eq(items.id, extractedDocuments.itemId)),
      )
      .where(and(eq(extractedDocuments.firmId, scope.firmId), eq(extractedDocuments.id, id)))
      .for('update');
    return rows[0];
  }

  /**
   * Live extracted documents of a company, held until the transaction ends (in id order, so two callers
   * with overlapping lists wait for each other instead of deadlocking): two attaches at once would each
   * see a document unattached and both answer success.
   */
  many(tx: DocTx, scope: FirmScope, companyId: string, ids: string[]) {
    return tx
      .select()
      .from(extractedDocuments)
      .where(
        and(
          eq(extractedDocuments.firmId, scope.firmId),
          eq(extractedDocuments.companyId, companyId),
          inArray(extractedDocuments.id, ids),
          isNull(extractedDocuments.deletedAt),
        ),
      )
      .orderBy(extractedDocuments.id)
      .for('update');
  }

  /** Soft-deletes the document while it is live; answers whether it was (not deleted or removed meanwhile). */
  async deleteLive(tx: DocTx, scope: FirmScope, id: string): Promise<boolean> {
    const rows = await tx
      .update(extractedDocuments)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(live(scope, id))
      .returning({ id: extractedDocuments.id });
    return rows.length > 0;
  }

  async update(tx: DocTx, scope: FirmScope, id: string, changes: ExtractedChanges): Promise<ExtractedRow> {
    const rows = await tx
      .update(extractedDocuments)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(extractedDocuments.firmId, scope.firmId), eq(extractedDocuments.id, id)))
      .returning();
    return rows[0] as ExtractedRow;
  }
}
