import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DocumentColumnsSchema } from '@portico/proto';
import type { ListCursor, ListedRow } from './items.repository.js';
import { isStaffOnly, joinPath } from './paths.rules.js';

/** Items per listing page: 1000 unless asked, never more than 5000. */
export const DEFAULT_PAGE_SIZE = 1_000;
export const MAX_PAGE_SIZE = 5_000;
/**
 * A page stops once its items would take about this many bytes on the bus, well under NATS's 1 MB
 * default max_payload with the envelope (names up to 255 characters, descriptions up to 1000, tags).
 */
export const PAGE_BYTE_BUDGET = 640 * 1024;
/** Room a lean reply keeps under the bus's max_payload for its envelope, headers and other fields. */
const LEAN_ENVELOPE_ROOM = 16 * 1024;
/** The smallest lean item's JSON (id, a one-letter name, type, created_at) with its comma. */
const SMALLEST_LEAN_ITEM_BYTES = 100;
/** Items a lean page asks for when the caller does not say: as many as the bytes allow. */
export const MAX_LEAN_PAGE_SIZE = 100_000;
/** Fixed bytes per item besides its texts: ids, dates, flags and keys; columns repeat no keys. */
const FIXED_BYTES = { columns: 220, documents: 760 };

export const pageSizeOf = (requested: number) =>
  requested > 0 ? Math.min(requested, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;

/** Rows worth reading for one page: no more than the smallest items could fill. */
export const rowsToRead = (pageSize: number, columnar: boolean) =>
  Math.min(pageSize, Math.ceil(PAGE_BYTE_BUDGET / FIXED_BYTES[columnar ? 'columns' : 'documents']));

/** A generous estimate of one item's bytes in a reply (texts counted twice for JSON escaping). */
export function itemBytes(row: ListedRow, columnar: boolean): number {
  let n = FIXED_BYTES[columnar ? 'columns' : 'documents'] + 2 * (row.name.length + row.description.length);
  if (!columnar) n += 4 * (row.folder.length + row.name.length);
  for (const tag of row.tags) n += 2 * tag.length + 4;
  return n;
}

/** How many of `rows` fit the byte budget (at least one, so a page always moves on). */
export function fitToBudget(
  rows: readonly ListedRow[],
  columnar: boolean,
  budget = PAGE_BYTE_BUDGET,
): number {
  let used = 0;
  for (let i = 0; i < rows.length; i++) {
    used += itemBytes(rows[i] as ListedRow, columnar);
    if (used > budget && i > 0) return i;
  }
  return rows.length;
}

/**
 * A lean page's byte budget: its items' text is measured exactly as it travels inside the reply (UTF-8
 * bytes and an escape per quote or backslash), so it can come close to the bus's max_payload.
 */
export const leanPageBudget = (maxPayload: number) => Math.max(64 * 1024, maxPayload - LEAN_ENVELOPE_ROOM);

/** Rows worth reading for one lean page: no more than the smallest items could fill. */
export const leanRowsToRead = (requested: number, budget: number) =>
  Math.min(
    requested > 0 ? Math.min(requested, MAX_LEAN_PAGE_SIZE) : MAX_LEAN_PAGE_SIZE,
    Math.ceil(budget / SMALLEST_LEAN_ITEM_BYTES),
  );

/** The cursor after a page's last row. */
export const cursorAfter = (
  row: Pick<ListedRow, 'type' | 'name' | 'cursorCreatedAt' | 'id'>,
): ListCursor => ({
  type: row.type,
  name: row.name,
  createdAt: row.cursorCreatedAt,
  id: row.id,
});

/** timestamptz as PostgreSQL prints it, e.g. 2026-01-31 09:15:02.123456+00. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

/** The opaque page token: the cursor, base64url JSON. Anything else is refused by the caller. */
export const encodePageToken = (c: ListCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

export function decodePageToken(token: string): ListCursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ListCursor>;
    const ok =
      (c.type === 'file' || c.type === 'folder') &&
      typeof c.name === 'string' &&
      typeof c.createdAt === 'string' &&
      PG_TIMESTAMP.test(c.createdAt) &&
      typeof c.id === 'string' &&
      /^[0-9a-f-]{36}$/i.test(c.id);
    return ok ? (c as ListCursor) : undefined;
  } catch {
    return undefined;
  }
}

export type DocumentColumnsInit = MessageInitShape<typeof DocumentColumnsSchema>;

/** A page of rows as columns: entry i of every list is item i. */
export function toColumns(
  companyId: string,
  rows: readonly ListedRow[],
  itemsCount: (row: ListedRow) => number,
): DocumentColumnsInit {
  const c = {
    companyId,
    id: [] as string[],
    name: [] as string[],
    type: [] as string[],
    size: [] as bigint[],
    contentType: [] as string[],
    description: [] as string[],
    createdAt: [] as string[],
    updatedAt: [] as string[],
    deletedAt: [] as string[],
    itemsCount: [] as number[],
    isProtected: [] as boolean[],
    isSystem: [] as boolean[],
    previewStatus: [] as string[],
    uploadType: [] as string[],
    questionnaireId: [] as string[],
    extractedDocumentId: [] as string[],
    parentDocumentId: [] as string[],
    taggedIndex: [] as number[],
    tagged: [] as { tags: string[] }[],
    staffOnly: [] as boolean[],
  };
  rows.forEach((row, i) => {
    c.id.push(row.id);
    c.name.push(row.name);
    c.type.push(row.type);
    c.size.push(BigInt(row.size));
    c.contentType.push(row.contentType);
    c.description.push(row.description);
    c.createdAt.push(row.createdAt);
    c.updatedAt.push(row.updatedAt);
    c.deletedAt.push(row.deletedAt);
    c.itemsCount.push(itemsCount(row));
    c.isProtected.push(row.isProtected);
    c.isSystem.push(row.isSystem);
    c.previewStatus.push(row.previewStatus);
    c.uploadType.push(row.uploadType);
    c.questionnaireId.push(row.questionnaireId);
    c.extractedDocumentId.push(row.extractedDocumentId ?? '');
    c.parentDocumentId.push(row.parentDocumentId ?? '');
    c.staffOnly.push(isStaffOnly(joinPath(row.folder, row.name)));
    if (row.tags.length) {
      c.taggedIndex.push(i);
      c.tagged.push({ tags: row.tags });
    }
  });
  return c;
}
