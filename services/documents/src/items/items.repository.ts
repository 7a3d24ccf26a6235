import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, type Tx } from '@portico/platform';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type DocumentsSchema, extractedDocuments, type ItemRow, items } from '../schema.js';
import { DB, type DocumentsDb } from '../tokens.js';
import { ancestors, joinPath, sanitiseName, splitPath } from './paths.rules.js';

export type DocTx = Tx<DocumentsSchema>;
export type NewItem = typeof items.$inferInsert;
/** A file of a batch filed by `insertFiles`: what differs between the files of one upload. */
export interface NewFile {
  id: string;
  name: string;
  storageKey: string;
  size: number;
  contentType: string;
  isProtected: boolean;
  extractedDocumentId: string | null;
  previewStatus: string;
}
export type ItemChanges = Partial<Omit<NewItem, 'id' | 'firmId'>>;

/** Characters beyond U+FFFF, which JavaScript counts twice and PostgreSQL once. */
const ASTRAL = '[\u{10000}-\u{10FFFF}]';
/**
 * A text's length as JavaScript counts it (UTF-16 code units), the measure of the paths' limit: its
 * characters, plus one for each beyond U+FFFF.
 */
const utf16Length = (text: SQL) =>
  sql`(char_length(${text}) + char_length(${text}) - char_length(regexp_replace(${text}, ${ASTRAL}, '', 'g')))`;

/** Rows of one insert statement: well under PostgreSQL's 65,535 parameters at about 25 columns a row. */
const INSERT_BATCH = 1_000;

/**
 * Names folded by PostgreSQL, as the unique index folds them: JavaScript's toLowerCase folds 'İ' and a
 * word-final 'Σ' otherwise than lower() does, and such names were never found again.
 */
const namesFolded = (names: readonly string[]) =>
  sql.join(
    names.map((name) => sql`lower(${name})`),
    sql`, `,
  );

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Items anywhere inside the folder at `fullPath` (not the folder itself). */
const insideFolder = (fullPath: string) =>
  or(eq(items.folder, fullPath), ilike(items.folder, `${escapeLike(fullPath)}/%`));

/**
 * The item is STAFF ONLY by its own name (the trigger's staff_only) or by a folder on its way, read as
 * paths.rules' staffOnlyForm reads a name: NFKC, ASCII letters in capitals.
 */
const staffOnlyOrWithin = sql`(${items.staffOnly}
  or translate(normalize(${items.folder}, NFKC), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') like '%STAFF ONLY%')`;

/** Where a listing page ended: the sort key of its last item (created_at as PostgreSQL's text, to the microsecond). */
export interface ListCursor {
  type: 'file' | 'folder';
  name: string;
  createdAt: string;
  id: string;
}

/** A timestamp as JavaScript's toISOString writes it, computed by PostgreSQL. */
const isoText = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An item as a listing reads it: timestamps as ISO text ('' when not deleted). */
export type ListedRow = Pick<
  ItemRow,
  | 'id'
  | 'folder'
  | 'name'
  | 'type'
  | 'size'
  | 'contentType'
  | 'description'
  | 'tags'
  | 'isProtected'
  | 'isSystem'
  | 'uploadType'
  | 'questionnaireId'
  | 'extractedDocumentId'
  | 'parentDocumentId'
  | 'previewStatus'
> & {
  createdAt: string;
  updatedAt: string;
  deletedAt: string;
  cursorCreatedAt: string;
};

/**
 * An item inside a folder as the calls that read a whole subtree use it (copies, folder zips): none of
 * the listing's stored JSON, so a folder of many items costs what its rows need.
 */
export type SubtreeRow = Pick<
  ItemRow,
  | 'id'
  | 'folder'
  | 'name'
  | 'type'
  | 'storageKey'
  | 'size'
  | 'contentType'
  | 'description'
  | 'tags'
  | 'isProtected'
  | 'uploadType'
  | 'hidden'
  | 'updatedAt'
>;

/**
 * Where a client would carry a folder's contents (`holdsRestricted`): the folder's path there (`root`) and
 * the path prefixes blocked for clients there.
 */
export type CarryPlace = { root: string; blocked: readonly string[] };

/** A lean page as one text (`listLeanPage`): its items joined, how many, whether more follow, the cursor. */
export type LeanPage = {
  /** The page's items as lean JSON objects separated by commas (the inside of a JSON array). */
  text: string;
  count: number;
  more: boolean;
  last: Pick<ListedRow, 'id' | 'type' | 'name' | 'cursorCreatedAt'> | null;
};

export type LeanPageOptions = {
  withDeleted: boolean;
  /** Rows at most, and the bytes their text may take inside a JSON string. */
  limit: number;
  budget: number;
  /** A client's page leaves STAFF ONLY items out; an advisor's marks them. */
  forClient: boolean;
  /** The listed folder is itself STAFF ONLY: every item in it is marked. */
  insideStaffOnly: boolean;
  after?: ListCursor;
};

type LeanPageRow = Pick<LeanPage, 'text' | 'count' | 'more'> & {
  lastId: string | null;
  lastType: 'file' | 'folder' | null;
  lastName: string | null;
  lastCreatedAt: string | null;
};

/**
 * How a folder read for a change is held until its transaction ends. A writer into a folder (an upload,
 * a new folder, a move or copy landing there) holds each folder of the path 'share'; whatever deletes,
 * renames or moves an item holds it 'update'. So a folder is not deleted or moved from under files being
 * written into it (under read committed, the subtree statement did not see them, and they stayed live
 * under a folder that was gone): one waits for the other, and sees what it wrote.
 */
export type RowLock = 'share' | 'update';

/** The most items a search answers; one more is read to tell that more match. */
export const SEARCH_LIMIT = 500;

/** The listing order (folders first, then by name), which items_listing_idx serves and the cursor follows. */
const LISTING_ORDER = sql`items.type desc, lower(items.name), items.created_at desc, items.id`;

/**
 * Rows after the cursor in the listing order: type desc, lower(name), created_at desc, id. The cursor
 * holds the name as stored, folded here by PostgreSQL as the order is (not by JavaScript, whose fold of
 * some letters differs, which skipped or repeated rows across pages).
 */
function afterCursor(c: ListCursor) {
  const name = sql`lower(${items.name})`;
  const cursorName = sql`lower(${c.name})`;
  const created = sql`${c.createdAt}::timestamptz`;
  return or(
    lt(items.type, c.type),
    and(
      eq(items.type, c.type),
      or(
        sql`${name} > ${cursorName}`,
        and(
          sql`${name} = ${cursorName}`,
          or(
            sql`${items.createdAt} < ${created}`,
            and(sql`${items.createdAt} = ${created}`, gt(items.id, c.id)),
          ),
        ),
      ),
    ),
  );
}

/** All SQL of the file tree. Every query names the firm; row-level security is the second lock. */
@Injectable()
export class ItemsRepository {
  constructor(@Inject(DB) private readonly db: DocumentsDb) {}

  transaction<T>(scope: FirmScope, work: (tx: DocTx) => Promise<T>): Promise<T> {
    return inFirm(this.db, scope, work);
  }

  private inCompany(scope: FirmScope, companyId: string) {
    return and(eq(items.firmId, scope.firmId), eq(items.companyId, companyId));
  }

  /** The items shown directly in a folder, from the cursor on: what both listing pages read. */
  private listingWhere(
    scope: FirmScope,
    companyId: string,
    folder: string,
    withDeleted: boolean,
    after?: ListCursor,
  ) {
    return and(
      this.inCompany(scope, companyId),
      eq(items.folder, folder),
      eq(items.hidden, false),
      withDeleted ? undefined : isNull(items.deletedAt),
      after ? afterCursor(after) : undefined,
    );
  }

  /**
   * Up to `limit` items directly in `folder` after `after`, folders first, then by name (keyset: the
   * listing index serves it without sorting the folder). Only the columns a listing shows, with the
   * timestamps already as ISO text, and created_at to the microsecond for the next cursor.
   */
  async listPage(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string,
    withDeleted: boolean,
    limit: number,
    after?: ListCursor,
  ): Promise<ListedRow[]> {
    // Plain SQL read by pg directly: for thousands of rows, mapping each through the query builder
    // costs more than the query.
    const result = await tx.execute<ListedRow>(sql`
      select id, folder, name, type, size::float8 as "size", content_type as "contentType", description, tags,
             is_protected as "isProtected", is_system as "isSystem", upload_type as "uploadType",
             questionnaire_id as "questionnaireId", extracted_document_id as "extractedDocumentId",
             parent_document_id as "parentDocumentId", preview_status as "previewStatus",
             ${isoText(items.createdAt)} as "createdAt", ${isoText(items.updatedAt)} as "updatedAt",
             coalesce(${isoText(items.deletedAt)}, '') as "deletedAt", created_at::text as "cursorCreatedAt"
      from items
      where ${this.listingWhere(scope, companyId, folder, withDeleted, after)}
      order by ${LISTING_ORDER}
      limit ${limit}`);
    return result.rows;
  }

  /**
   * The same page as `listPage` in the file manager's lean shape, built by PostgreSQL as one text: the
   * DocumentItem keys without link, path and company_id, fields at their default left out, a folder's
   * count of live, shown children included, STAFF ONLY items marked (and left out for clients). The
   * page ends after `limit` rows or before its text would pass `budget` bytes inside a JSON string (UTF-8
   * bytes plus an escape per quote or backslash), whichever comes first, and never before one row.
   * One row comes back whatever the page's size: no object per item in this process.
   */
  async listLeanPage(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string,
    options: LeanPageOptions,
  ): Promise<LeanPage> {
    const { withDeleted, limit, budget, forClient, insideStaffOnly, after } = options;
    // STAFF ONLY as paths.rules' isStaffOnly says it: the item's own name (the trigger's staff_only), or
    // the folder's path (the caller's `insideStaffOnly`; a client never lists inside such a folder).
    const itemStaffOnly = insideStaffOnly ? sql`true` : sql`items.staff_only`;
    // Descriptions and tags are advisor-only (spec 1 s.2.7): a client's page leaves them out of the
    // stored JSON, and measures what is left. Only rows that have either pay for it.
    const hasStaffFields = sql`(items.description <> '' or cardinality(items.tags) > 0)`;
    const shown = forClient
      ? sql`cross join lateral (
          select case when ${hasStaffFields}
            then (items.listing_json::jsonb - 'description' - 'tags')::text
            else items.listing_json end as json) shown`
      : sql`cross join lateral (select items.listing_json as json) shown`;
    const shownBytes = forClient
      ? sql`case when ${hasStaffFields} then octet_length(to_json(shown.json)::text) - 2 else items.listing_bytes end`
      : sql`items.listing_bytes`;
    // One pass over the listing index in order: each row's number and the running size of the page's
    // text come from one window; only folders (items_count) and STAFF ONLY items extend their stored
    // JSON, and only their extension is measured here (the trigger keeps listing_bytes).
    const result = await tx.execute<LeanPageRow>(sql`
      with page as (
        select id, type, name, created_text, n, json,
               n <= ${limit} and (n = 1 or running <= ${budget}) as keep
        from (
          select items.id, items.type, items.name, items.created_at::text as created_text,
            row_number() over listing as n,
            case when extension is null then shown.json
              else concat(left(shown.json, -1), extension, '}') end as json,
            -- Bytes inside a JSON string, with the comma after each item.
            sum(${shownBytes} + 1 + coalesce(octet_length(to_json(extension)::text) - 2, 0))
              over listing as running
          from items
          ${shown}
          cross join lateral (
            select nullif(concat(
              case when items.type = 'folder' then ',"items_count":' || nullif((
                select count(*) from items c
                where c.firm_id = items.firm_id and c.company_id = items.company_id
                  and c.folder = items.folder || '/' || items.name and c.deleted_at is null and not c.hidden
                  ${forClient ? sql`and not c.staff_only` : sql``}), 0) end,
              case when ${itemStaffOnly} then ',"staff_only":true' end), '') as extension
          ) extended
          where ${this.listingWhere(scope, companyId, folder, withDeleted, after)}
            ${forClient ? sql`and not items.staff_only` : sql``}
          window listing as (order by ${LISTING_ORDER} rows unbounded preceding)
          order by ${LISTING_ORDER}
          limit ${limit + 1}
        ) numbered
      ), totals as (
        select coalesce(string_agg(json, ',' order by n) filter (where keep), '') as text,
               (count(*) filter (where keep))::int as count,
               coalesce(bool_or(not keep), false) as more,
               max(n) filter (where keep) as last_n
        from page
      )
      select totals.text, totals.count, totals.more, last.id as "lastId", last.type as "lastType",
             last.name as "lastName", last.created_text as "lastCreatedAt"
      from totals left join page last on last.n = totals.last_n`);
    const row = result.rows[0];
    if (!row) return { text: '', count: 0, more: false, last: null };
    return {
      text: row.text,
      count: row.count,
      more: row.more,
      last: row.lastId
        ? {
            id: row.lastId,
            type: row.lastType ?? 'file',
            name: row.lastName ?? '',
            cursorCreatedAt: row.lastCreatedAt ?? '',
          }
        : null,
    };
  }

  /**
   * Each listed folder's count of live, shown children, keyed by the folder's full path; a client's
   * counts leave out the STAFF ONLY children they are not shown.
   */
  async liveCounts(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    rows: readonly Pick<ItemRow, 'type' | 'folder' | 'name'>[],
    forClient: boolean,
  ) {
    const folders = rows.filter((r) => r.type === 'folder').map((r) => `${r.folder}/${r.name}`);
    const counts = new Map<string, number>();
    if (!folders.length) return counts;
    const grouped = await tx
      .select({ folder: items.folder, n: count() })
      .from(items)
      .where(
        and(
          this.inCompany(scope, companyId),
          inArray(items.folder, folders),
          isNull(items.deletedAt),
          eq(items.hidden, false),
          forClient ? eq(items.staffOnly, false) : undefined,
        ),
      )
      .groupBy(items.folder);
    for (const g of grouped) counts.set(g.folder, g.n);
    return counts;
  }

  /**
   * Up to SEARCH_LIMIT + 1 items whose name or description holds `term` (the one over says more match).
   * For a client, STAFF ONLY items and what is inside them are left out here, before the limit (read as
   * paths.rules' staffOnlyForm does): left out after it, 500 matches in a STAFF ONLY folder hid a
   * client's own files from their search. A client's search matches names only: descriptions are the
   * firm's (spec 1 s.2.7).
   */
  search(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    term: string,
    options: { withDeleted: boolean; forClient: boolean },
  ) {
    return tx
      .select()
      .from(items)
      .where(
        and(
          this.inCompany(scope, companyId),
          eq(items.hidden, false),
          options.withDeleted ? undefined : isNull(items.deletedAt),
          options.forClient ? sql`not ${staffOnlyOrWithin}` : undefined,
          options.forClient
            ? ilike(items.name, `%${escapeLike(term)}%`)
            : or(
                ilike(items.name, `%${escapeLike(term)}%`),
                ilike(items.description, `%${escapeLike(term)}%`),
              ),
        ),
      )
      .orderBy(asc(items.folder), asc(sql`lower(${items.name})`))
      .limit(SEARCH_LIMIT + 1);
  }

  /**
   * The live item the tree shows at a full path ('/A/b.pdf') as a request spells it: its name and its
   * folders compared case-insensitively, as names are unique that way, and its folders matched as
   * storedFolder matches them (a path in another case or Unicode form finds what making it found).
   */
  async findLive(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
    lock?: RowLock,
  ): Promise<ItemRow | undefined> {
    return this.atAskedPath(tx, scope, companyId, fullPath, (folder, names) =>
      this.findChild(tx, scope, companyId, folder, names, lock),
    );
  }

  /**
   * The hidden source of a split at a full path as a request spells it, the latest first: the tree does
   * not show it, but advisors still open it there when no shown item has taken its name since.
   */
  async findHidden(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
  ): Promise<ItemRow | undefined> {
    return this.atAskedPath(tx, scope, companyId, fullPath, async (folder, names) => {
      const rows = await tx
        .select()
        .from(items)
        .where(this.liveNamed(scope, companyId, folder, names, { hidden: true }))
        .orderBy(desc(items.createdAt))
        .limit(1);
      return rows[0];
    });
  }

  /**
   * `find` at a full path as a request spells it: first in its folder as given (the stored spelling, one
   * query), else in the folder it names when that is stored otherwise. The name also in its composed
   * form (NFC), which every stored name has.
   */
  private async atAskedPath(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
    find: (folder: string, names: string[]) => Promise<ItemRow | undefined>,
  ): Promise<ItemRow | undefined> {
    const parts = splitPath(fullPath);
    if (!parts) return undefined;
    const [folder, name] = parts;
    const names = [...new Set([name, name.normalize('NFC')])];
    const found = await find(folder, names);
    if (found || !folder) return found;
    const stored = await this.storedFolderPath(tx, scope, companyId, folder);
    return stored === undefined || stored === folder ? undefined : find(stored, names);
  }

  /**
   * The stored path of the live folder that `folder`, as a request spells it, names: each segment
   * matched case-insensitively (folded by PostgreSQL) by the name as sent or as sanitised, the first
   * winning, as ItemsService.storedFolder matches them; in one statement. Undefined when a segment is
   * missing or is a file.
   */
  async storedFolderPath(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string,
  ): Promise<string | undefined> {
    const segments = folder.split('/').filter(Boolean);
    if (!segments.length) return '';
    const asSent = sql`(${sql.param(segments)}::text[])[walk.depth + 1]`;
    const sanitised = sql`(${sql.param(segments.map(sanitiseName))}::text[])[walk.depth + 1]`;
    const result = await tx.execute<{ path: string }>(sql`
      with recursive walk(depth, path) as (
        select 0, ''::text
        union all
        select walk.depth + 1, walk.path || '/' || found.name
        from walk cross join lateral (
          select i.name from items i
          where i.firm_id = ${scope.firmId} and i.company_id = ${companyId} and i.folder = walk.path
            and i.deleted_at is null and not i.hidden and i.type = 'folder'
            and lower(i.name) in (lower(${asSent}), lower(${sanitised}))
          order by lower(i.name) = lower(${asSent}) desc
          limit 1
        ) found
        where walk.depth < ${segments.length}
      )
      select path from walk where depth = ${segments.length}`);
    return result.rows[0]?.path;
  }

  /**
   * The live item shown directly in `folder` (as stored) named one of `names`, compared
   * case-insensitively; the first of `names` wins when several are there. `lock` holds the rows found
   * until the transaction ends (see RowLock).
   */
  async findChild(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string,
    names: readonly string[],
    lock?: RowLock,
  ): Promise<ItemRow | undefined> {
    if (!names.length) return undefined;
    // A split's hidden source holds no name (the unique index leaves it out too).
    const query = tx
      .select()
      .from(items)
      .where(this.liveNamed(scope, companyId, folder, names, { hidden: false }));
    const rows = await (lock ? query.for(lock) : query);
    // Which of `names` each row answers, told apart the same way on both sides (JavaScript's fold).
    const lower = names.map((name) => name.toLowerCase());
    return rows.sort((a, b) => lower.indexOf(a.name.toLowerCase()) - lower.indexOf(b.name.toLowerCase()))[0];
  }

  /**
   * Which of `names` are taken in `folder` (as stored) by a live item the tree shows: their indices into
   * `names`. Compared as findLive compares a name (lower() on both sides, the name also in its composed
   * form), so as the unique index decides; one query for all of them (FreeNames).
   */
  async takenAmong(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string,
    names: readonly string[],
  ): Promise<Set<number>> {
    if (!names.length) return new Set();
    const result = await tx.execute<{ i: number }>(sql`
      select (c.i - 1)::int as i
      from unnest(${sql.param([...names])}::text[], ${sql.param(names.map((n) => n.normalize('NFC')))}::text[])
           with ordinality as c(name, composed, i)
      where exists (
        select 1 from items
        where items.firm_id = ${scope.firmId} and items.company_id = ${companyId} and items.folder = ${folder}
          and items.deleted_at is null and not items.hidden
          and lower(items.name) in (lower(c.name), lower(c.composed)))`);
    return new Set(result.rows.map((r) => r.i));
  }

  /** Items not deleted in `folder` named one of `names` (folded by the database), hidden or shown. */
  private liveNamed(
    scope: FirmScope,
    companyId: string,
    folder: string,
    names: readonly string[],
    { hidden }: { hidden: boolean },
  ) {
    return and(
      this.inCompany(scope, companyId),
      eq(items.folder, folder),
      sql`lower(${items.name}) in (${namesFolded(names)})`,
      isNull(items.deletedAt),
      eq(items.hidden, hidden),
    );
  }

  /**
   * The most recently deleted item at a full path (one the tree showed: not a split's hidden source), or
   * the deleted item with this id.
   */
  async findDeleted(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
    id?: string,
  ): Promise<ItemRow | undefined> {
    const parts = splitPath(fullPath);
    const rows = await tx
      .select()
      .from(items)
      .where(
        and(
          this.inCompany(scope, companyId),
          isNotNull(items.deletedAt),
          id
            ? eq(items.id, id)
            : parts
              ? and(
                  eq(items.folder, parts[0]),
                  sql`lower(${items.name}) = lower(${parts[1]})`,
                  eq(items.hidden, false),
                )
              : sql`false`,
        ),
      )
      .orderBy(desc(items.deletedAt))
      .limit(1);
    return rows[0];
  }

  byIds(tx: DocTx, scope: FirmScope, ids: string[]) {
    if (!ids.length) return Promise.resolve([] as ItemRow[]);
    return tx
      .select()
      .from(items)
      .where(and(eq(items.firmId, scope.firmId), inArray(items.id, ids)));
  }

  /**
   * Everything inside the folder at `fullPath` (not the folder itself), without the listing's JSON.
   * `lock` holds the rows read until the transaction ends (see RowLock), taken in the order read: each
   * folder before what is inside it (a path sorts before the longer paths it begins), as a delete or
   * rename of a folder inside takes that folder, then its contents, so neither waits on the other's
   * later rows.
   */
  async subtree(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
    filter: 'live' | 'all' = 'live',
    lock?: RowLock,
  ): Promise<SubtreeRow[]> {
    const query = tx
      .select({
        id: items.id,
        folder: items.folder,
        name: items.name,
        type: items.type,
        storageKey: items.storageKey,
        size: items.size,
        contentType: items.contentType,
        description: items.description,
        tags: items.tags,
        isProtected: items.isProtected,
        uploadType: items.uploadType,
        hidden: items.hidden,
        updatedAt: items.updatedAt,
      })
      .from(items)
      .where(
        and(
          this.inCompany(scope, companyId),
          insideFolder(fullPath),
          filter === 'live' ? isNull(items.deletedAt) : undefined,
        ),
      )
      .orderBy(asc(items.folder), asc(items.name));
    return lock ? query.for(lock) : query;
  }

  /**
   * Whether anything live inside the folder `fullPath` is what a client may not carry with the folder:
   * STAFF ONLY (its own name, or a folder on its way, read as paths.rules' staffOnlyForm does), or within
   * a blocked prefix of a place, at its path there (the folder's contents re-rooted under the place's
   * root). One exists query: the contents are never loaded, however many they are.
   */
  async holdsRestricted(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    fullPath: string,
    places: readonly CarryPlace[],
  ): Promise<boolean> {
    const inPlace = (place: CarryPlace) => {
      const path =
        place.root === fullPath
          ? sql`(items.folder || '/' || items.name)`
          : sql`(${place.root}::text || substr(items.folder || '/' || items.name, char_length(${fullPath}::text) + 1))`;
      return sql`exists (
        select 1 from unnest(${sql.param([...place.blocked])}::text[]) blocked(prefix)
        where lower(${path}) = lower(blocked.prefix) or starts_with(lower(${path}), lower(blocked.prefix) || '/'))`;
    };
    const blocked = places.filter((place) => place.blocked.length).map(inPlace);
    const result = await tx.execute<{ restricted: boolean }>(sql`
      select exists (
        select 1 from items
        where ${and(this.inCompany(scope, companyId), isNull(items.deletedAt), insideFolder(fullPath))}
          and (${staffOnlyOrWithin}
            ${blocked.length ? sql`or ${sql.join(blocked, sql` or `)}` : sql``})
      ) as restricted`);
    return result.rows[0]?.restricted === true;
  }

  /**
   * Holds each folder of the stored path `folder` 'share', outermost first, as a writer into it does
   * (RowLock): answers false when one of them is not there (deleted or moved meanwhile).
   */
  async holdFolders(tx: DocTx, scope: FirmScope, companyId: string, folder: string): Promise<boolean> {
    let path = '';
    for (const segment of folder.split('/').filter(Boolean)) {
      const found = await this.findChild(tx, scope, companyId, path, [segment], 'share');
      if (found?.type !== 'folder' || found.name !== segment) return false;
      path = joinPath(path, segment);
    }
    return true;
  }

  async insert(tx: DocTx, values: NewItem): Promise<ItemRow> {
    const rows = await tx.insert(items).values(values).returning();
    return rows[0] as ItemRow;
  }

  /** Inserts many items, a statement per 1,000 (PostgreSQL takes at most 65,535 parameters in one). */
  async insertMany(tx: DocTx, values: readonly NewItem[]): Promise<ItemRow[]> {
    const out: ItemRow[] = [];
    for (let at = 0; at < values.length; at += INSERT_BATCH)
      out.push(
        ...(await tx
          .insert(items)
          .values(values.slice(at, at + INSERT_BATCH))
          .returning()),
      );
    return out;
  }

  /**
   * Creates every missing folder down to `folder` (or to each of several), in one statement; answers the
   * folders it created.
   */
  async ensureFolders(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    folder: string | readonly string[],
    createdBy: string | null,
    isSystem = false,
  ): Promise<ItemRow[]> {
    const paths = [...new Set((typeof folder === 'string' ? [folder] : folder).flatMap(ancestors))];
    if (!paths.length) return [];
    return tx
      .insert(items)
      .values(
        paths.map((path) => {
          const [parent, name] = splitPath(path) as [string, string];
          return {
            firmId: scope.firmId,
            companyId,
            folder: parent,
            name,
            type: 'folder' as const,
            createdBy,
            isSystem,
          };
        }),
      )
      .onConflictDoNothing()
      .returning();
  }

  /**
   * Files many uploaded objects into one folder in one statement (one array per column), skipping any
   * whose name is already taken there by a live item: answers the ids actually filed.
   */
  async insertFiles(
    tx: DocTx,
    scope: FirmScope,
    shared: {
      companyId: string;
      folder: string;
      description: string;
      tags: string[];
      uploadType: string;
      questionnaireId: string;
      createdBy: string;
    },
    files: readonly NewFile[],
  ): Promise<Set<string>> {
    if (!files.length) return new Set();
    const column = <T>(pick: (f: NewFile) => T) => sql.param(files.map(pick));
    const result = await tx.execute<{ id: string }>(sql`
      insert into items (id, firm_id, company_id, folder, name, type, storage_key, size, content_type,
                         description, tags, is_protected, upload_type, questionnaire_id,
                         extracted_document_id, created_by, preview_status)
      select f.id, ${scope.firmId}::uuid, ${shared.companyId}::uuid, ${shared.folder}, f.name, 'file', f.key,
             f.size, f.content_type, ${shared.description}, ${sql.param(shared.tags)}::text[], f.is_protected,
             ${shared.uploadType}, ${shared.questionnaireId}, f.extracted_id, ${shared.createdBy}::uuid,
             f.preview_status
      from unnest(${column((f) => f.id)}::uuid[], ${column((f) => f.name)}::text[],
                  ${column((f) => f.storageKey)}::text[], ${column((f) => f.size)}::bigint[],
                  ${column((f) => f.contentType)}::text[], ${column((f) => f.isProtected)}::boolean[],
                  ${column((f) => f.extractedDocumentId)}::uuid[], ${column((f) => f.previewStatus)}::text[])
           as f(id, name, key, size, content_type, is_protected, extracted_id, preview_status)
      on conflict do nothing
      returning id`);
    return new Set(result.rows.map((r) => r.id));
  }

  async update(tx: DocTx, scope: FirmScope, id: string, changes: ItemChanges): Promise<ItemRow> {
    const rows = await tx
      .update(items)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(items.firmId, scope.firmId), eq(items.id, id)))
      .returning();
    return rows[0] as ItemRow;
  }

  /** Re-roots the live descendants of a moved or renamed folder. */
  async moveSubtree(
    tx: DocTx,
    scope: FirmScope,
    companyId: string,
    oldFull: string,
    newFull: string,
    newCompanyId = companyId,
  ): Promise<void> {
    await tx
      .update(items)
      .set({
        companyId: newCompanyId,
        // Counted by PostgreSQL, in characters: JavaScript's length counts a character beyond U+FFFF
        // ('𝐀') twice, which cut the paths of everything two levels down or more.
        folder: sql`${newFull}::text || substr(${items.folder}, char_length(${oldFull}::text) + 1)`,
        updatedAt: sql`now()`,
      })
      .where(and(this.inCompany(scope, companyId), isNull(items.deletedAt), insideFolder(oldFull)));
  }

  /** The item and, for a folder, what is inside it, in the state `state` picks (live, or deleted with it). */
  private withContents(scope: FirmScope, item: ItemRow, state: SQL) {
    const full = `${item.folder}/${item.name}`;
    return and(
      this.inCompany(scope, item.companyId),
      state,
      item.type === 'folder' ? or(eq(items.id, item.id), insideFolder(full)) : eq(items.id, item.id),
    );
  }

  /** The live item and, for a folder, everything live inside it. */
  private liveWithContents(scope: FirmScope, item: ItemRow) {
    return this.withContents(scope, item, isNull(items.deletedAt));
  }

  /**
   * Soft-deletes an item and, for a folder, everything live inside it, with one timestamp. Answers
   * whether the item itself was live to delete (not deleted or moved away meanwhile).
   */
  async softDelete(tx: DocTx, scope: FirmScope, item: ItemRow): Promise<boolean> {
    const deleted = await tx
      .update(items)
      .set({ deletedAt: sql`now()` })
      .where(this.liveWithContents(scope, item))
      .returning({ id: items.id });
    await this.extractedFollow(tx, scope, deleted, 'deleted');
    return deleted.some((row) => row.id === item.id);
  }

  /**
   * An extracted document lives and dies with its file: deleted with it (from the tree or as the
   * extracted document), restored with it, removed with it when it moves to another company.
   */
  private async extractedFollow(
    tx: DocTx,
    scope: FirmScope,
    files: { id: string }[],
    change: 'deleted' | 'restored' | 'removed',
  ): Promise<void> {
    if (!files.length) return;
    const ofFiles = and(
      eq(extractedDocuments.firmId, scope.firmId),
      inArray(
        extractedDocuments.itemId,
        files.map((f) => f.id),
      ),
    );
    if (change === 'removed') await tx.delete(extractedDocuments).where(ofFiles);
    else
      await tx
        .update(extractedDocuments)
        .set({ deletedAt: change === 'deleted' ? sql`now()` : null })
        .where(
          and(
            ofFiles,
            change === 'deleted'
              ? isNull(extractedDocuments.deletedAt)
              : isNotNull(extractedDocuments.deletedAt),
          ),
        );
  }

  /**
   * Removes for good an item that moved to another company, with its live contents: their objects are
   * gone with the move, so a deleted row here would offer a restore of files that no longer exist.
   * Answers the storage and preview keys of the rows it removed, and only those: a row deleted or moved
   * out before the move held the folder's contents was not copied, and keeps its object.
   */
  async removeMoved(tx: DocTx, scope: FirmScope, item: ItemRow): Promise<string[]> {
    const removed = await tx
      .delete(items)
      .where(this.liveWithContents(scope, item))
      .returning({ id: items.id, storageKey: items.storageKey, previewKey: items.previewKey });
    await this.extractedFollow(tx, scope, removed, 'removed');
    return removed.flatMap((row) => [row.storageKey, row.previewKey].filter((key): key is string => !!key));
  }

  /** How many characters the deepest live item inside the folder `fullPath` adds to its path (0: empty). */
  async deepestBelow(tx: DocTx, scope: FirmScope, companyId: string, fullPath: string): Promise<number> {
    const [row] = await tx
      .select({
        longest: sql<number | null>`max(${utf16Length(sql`${items.folder} || '/' || ${items.name}`)})`,
      })
      .from(items)
      .where(and(this.inCompany(scope, companyId), isNull(items.deletedAt), insideFolder(fullPath)));
    return row?.longest ? Number(row.longest) - fullPath.length : 0;
  }

  /**
   * Restores an item and what was deleted with it (same timestamp, same place). Answers whether the item
   * itself was restored here: false when another call restored it first (this one waited for its row).
   */
  async restore(tx: DocTx, scope: FirmScope, item: ItemRow): Promise<boolean> {
    // Compared in SQL: the stored timestamp has microseconds a JavaScript Date cannot hold.
    const deletedWithIt = sql`${items.deletedAt} = (select d.deleted_at from items d where d.id = ${item.id})`;
    const restored = await tx
      .update(items)
      .set({ deletedAt: null, updatedAt: sql`now()` })
      .where(this.withContents(scope, item, deletedWithIt))
      .returning({ id: items.id });
    await this.extractedFollow(tx, scope, restored, 'restored');
    return restored.some((row) => row.id === item.id);
  }
}
