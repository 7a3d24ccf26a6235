import type { MessageInitShape } from '@bufbuild/protobuf';
import { isUuid } from '@portico/platform';
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

/** Text of printable ASCII: one byte a character, two when JSON escapes it (a quote or a backslash). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A generous estimate of a text's bytes in a reply: twice its length for JSON escaping, or, beyond
 * printable ASCII, its UTF-8 bytes as JSON writes it where that is more (three bytes for a CJK
 * character, six for an escaped control character).
 */
function textBytes(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return 2 * text.length;
  return Math.max(2 * text.length, Buffer.byteLength(JSON.stringify(text)) - 2);
}

/** A generous estimate of one item's bytes in a reply (texts counted twice for JSON escaping). */
export function itemBytes(row: ListedRow, columnar: boolean): number {
  let n = FIXED_BYTES[columnar ? 'columns' : 'documents'] + textBytes(row.name) + textBytes(row.description);
  if (!columnar) n += 2 * (textBytes(row.folder) + textBytes(row.name));
  for (const tag of row.tags) n += textBytes(tag) + 4;
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
const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?:[+-](\d{2})(?::?(\d{2}))?|Z)?$/;

/**
 * Whether a cursor's time is one PostgreSQL takes: of PG_TIMESTAMP's shape, and a real date and time
 * (a 13th month or a 30th of February failed the query, a 500). The drop-offs' page reads it too.
 */
export function isPgTimestamp(text: string): boolean {
  const match = PG_TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 8, 9].map(
    (i) => Number(match[i] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year);
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 15 &&
    offsetMinutes <= 59
  );
}

/** The opaque page token: the cursor, base64url JSON. Anything else is refused by the caller. */
export const encodePageToken = (c: ListCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

export function decodePageToken(token: string): ListCursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ListCursor>;
    const ok =
      (c.type === 'file' || c.type === 'folder') &&
      typeof c.name === 'string' &&
      // PostgreSQL's text holds no NUL.
      !c.name.includes('\u0000') &&
      typeof c.createdAt === 'string' &&
      isPgTimestamp(c.createdAt) &&
      typeof c.id === 'string' &&
      isUuid(c.id);
    return ok ? (c as ListCursor) : undefined;
  } catch {
    return undefined;
  }
}

export type DocumentColumnsInit = MessageInitShape<typeof DocumentColumnsSchema>;

/**
 * A page of rows as columns: entry i of every list is item i. A client's columns leave the advisors'
 * descriptions and tags out (spec 1 s.2.7).
 */
export function toColumns(
  companyId: string,
  rows: readonly ListedRow[],
  itemsCount: (row: ListedRow) => number,
  forClient: boolean,
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
    c.description.push(forClient ? '' : row.description);
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
    if (row.tags.length && !forClient) {
      c.taggedIndex.push(i);
      c.tagged.push({ tags: row.tags });
    }
  });
  return c;
}
