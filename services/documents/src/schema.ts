import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export { outboxEvents, processedEvents } from '@portico/platform/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The file tree of each company: one row per file or folder. `folder` is the parent's full path
 * ('' at the root, '/2024/Receipts' below); files point at their object in storage.
 */
export const items = pgTable(
  'items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id').notNull(),
    companyId: uuid('company_id').notNull(),
    folder: text('folder').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<'file' | 'folder'>().notNull(),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    contentType: text('content_type').notNull().default(''),
    description: text('description').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'`),
    isProtected: boolean('is_protected').notNull().default(false),
    isSystem: boolean('is_system').notNull().default(false),
    /** A split source document: kept for its parts, hidden from the tree. */
    hidden: boolean('hidden').notNull().default(false),
    uploadType: text('upload_type').notNull().default(''),
    questionnaireId: text('questionnaire_id').notNull().default(''),
    extractedDocumentId: uuid('extracted_document_id'),
    parentDocumentId: uuid('parent_document_id'),
    previewKey: text('preview_key'),
    previewStatus: text('preview_status').notNull().default('none'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The item in the file manager's lean listing shape (a JSON object without items_count and
     * staff_only, which depend on other rows and on the listed path), kept by the trigger of migration
     * 0005 on every insert and update: never written by the code.
     */
    listingJson: text('listing_json').notNull().default(''),
    /**
     * Bytes of listing_json inside a JSON string (quotes and backslashes escaped, as the bus reply
     * carries it), for cutting a listing page by size; kept by the same trigger (migration 0007).
     */
    listingBytes: integer('listing_bytes').notNull().default(0),
    /** The item's own name says STAFF ONLY (paths.rules' isStaffOnly); kept by the same trigger. */
    staffOnly: boolean('staff_only').notNull().default(false),
  },
  (t) => [
    // A name is held by the items the tree shows: a split's hidden source keeps its row, not its name.
    uniqueIndex('items_live_path_idx')
      .on(t.companyId, t.folder, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null and not ${t.hidden}`),
    index('items_company_folder_idx').on(t.firmId, t.companyId, t.folder),
    // The listing order (folders first, then by name), so a page of a large folder is an index range.
    index('items_listing_idx').on(
      t.companyId,
      t.folder,
      t.type.desc().nullsFirst(),
      sql`lower(${t.name})`,
      t.createdAt.desc().nullsFirst(),
      t.id,
    ),
  ],
);

/** A presigned upload handed out and not yet processed; process files only what was handed out. */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id').notNull(),
    /** Empty for drop-link uploads, which belong to the firm. */
    companyId: uuid('company_id'),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    declaredSize: bigint('declared_size', { mode: 'number' }).notNull(),
    createdBy: uuid('created_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /**
     * Until when a process call is checking this upload: a second call with the same ids is refused at
     * once instead of reading and parsing the same files again. Lapses by itself if that call dies.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /**
     * Processed but not filed (invalid, a duplicate, never uploaded): its object was deleted, but the
     * link may still put one there until it expires, so the sweep deletes the key again after that.
     */
    discarded: boolean('discarded').notNull().default(false),
    /**
     * Who asked for a drop-off link: a hash of the firm and the caller's address group (never the
     * address), so one caller's share of the drop link's daily budget can be counted. Null otherwise.
     */
    caller: text('caller'),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_firm_idx').on(t.firmId)],
);

/** Extracted documents (spec 1 s.3, spec 2 s.3): a filed document seen by the bulk processor or a questionnaire. */
export const extractedDocuments = pgTable(
  'extracted_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id').notNull(),
    companyId: uuid('company_id').notNull(),
    itemId: uuid('item_id').notNull(),
    name: text('name').notNull(),
    source: text('source').notNull().default('upload'),
    status: text('status').notNull().default('review_required'),
    documentType: text('document_type').notNull().default(''),
    categorizedByAi: boolean('categorized_by_ai').notNull().default(false),
    parentDocumentId: uuid('parent_document_id'),
    parentPages: text('parent_pages').notNull().default(''),
    differentiator: text('differentiator').notNull().default(''),
    pageCount: integer('page_count').notNull().default(0),
    markedAsOthers: boolean('marked_as_others').notNull().default(false),
    description: text('description').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'`),
    questionnaireId: text('questionnaire_id').notNull().default(''),
    annotations: jsonb('annotations').$type<Record<string, unknown>[]>().notNull().default([]),
    /** Each page's [width, height] in points, as shown; null until known (rows from before it was kept). */
    pageSizes: jsonb('page_sizes').$type<[number, number][]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('extracted_company_idx').on(t.firmId, t.companyId),
    // A file's extracted document, found by its item: deleted, restored and removed with it
    // (ItemsRepository.extractedFollow), inside the transactions that hold the file's folder.
    index('extracted_item_idx').on(t.firmId, t.itemId),
  ],
);

/** Files left through the firm drop link by someone without an account. */
export const dropOffs = pgTable(
  'drop_offs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id').notNull(),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull().default(''),
    uploaderName: text('uploader_name').notNull().default(''),
    uploaderEmail: text('uploader_email').notNull().default(''),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  // The list pages by (created_at, id), newest first.
  (t) => [index('drop_offs_firm_idx').on(t.firmId, t.createdAt, t.id)],
);

export const schema = { items, uploads, extractedDocuments, dropOffs };
export type DocumentsSchema = typeof schema;
export type ItemRow = typeof items.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type ExtractedRow = typeof extractedDocuments.$inferSelect;
