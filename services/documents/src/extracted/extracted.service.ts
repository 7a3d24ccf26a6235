import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  assertBeforeDeadline,
  badRequest,
  firmScope,
  isUniqueViolation,
  isUuid,
  type Logger,
  Semaphore,
} from '@portico/platform';
import type {
  AttachToQuestionnaireRequest,
  CompanyAccess,
  ExtractedDocumentRequest,
  SaveAnnotationsRequest,
  SplitDocumentsRequest,
  UpdateDescriptionRequest,
  UpdateMarkedAsOthersRequest,
  UpdateTagsRequest,
} from '@portico/proto';
import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { AccessClient } from '../access/access.client.js';
import {
  assertAdvisor,
  assertCanChange,
  assertVisiblePath,
  hiddenFrom,
  isClient,
  notFound,
} from '../access/access.rules.js';
import { FreeNames } from '../items/free-names.js';
import { recordItemEvent } from '../items/item.events.js';
import { type DocTx, ItemsRepository, type NewItem } from '../items/items.repository.js';
import { pathTooLong } from '../items/items.service.js';
import { extensionOf, fittedName, joinPath, pathsFit, sanitiseName } from '../items/paths.rules.js';
import { Messages } from '../messages.js';
import type { ExtractedRow, ItemRow } from '../schema.js';
import { type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { LOG, OBJECT_STORE } from '../tokens.js';
import { pdfInfo } from '../uploads/upload-validator.js';
import { ExtractedRepository } from './extracted.repository.js';
import {
  formatPageRanges,
  normaliseAnnotation,
  pageRangesWellFormed,
  parsePageRanges,
} from './extracted.rules.js';
import { type PageSize, pageSizesOf } from './page-sizes.rules.js';

/**
 * An extracted document as the contract's; a client's answer leaves the advisors' description and tags
 * out (spec 1 s.2.7).
 */
export function toExtracted(row: ExtractedRow, item: ItemRow | undefined, forClient: boolean) {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    status: row.status,
    documentType: row.documentType,
    categorizedByAi: row.categorizedByAi,
    parentDocumentId: row.parentDocumentId ?? '',
    parentPages: row.parentPages,
    markedAsOthers: row.markedAsOthers,
    description: forClient ? '' : row.description,
    tags: forClient ? [] : row.tags,
    companyId: row.companyId,
    documentLocation: item ? joinPath(item.folder, item.name) : '',
    pageCount: row.pageCount,
    questionnaireId: row.questionnaireId,
    createdAt: row.createdAt.toISOString(),
    differentiator: row.differentiator,
  };
}

/** Times a split files its parts again after its source moved to another folder meanwhile. */
const MAX_MOVED_RETRIES = 3;

/** Names tried after another writer took the free one found: each failure means a file was written there meanwhile. */
const MAX_NAME_RETRIES = 20;

/** Extracted documents (spec 1 s.7.6, spec 2): annotations, splitting, descriptions, tags, attaching. */
@Injectable()
export class ExtractedService {
  constructor(
    private readonly repo: ExtractedRepository,
    private readonly items: ItemsRepository,
    private readonly access: AccessClient,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  async get(actor: Actor, req: ExtractedDocumentRequest) {
    const { row, item } = await this.load(actor, await this.access.company(actor, req.companyId), req.id);
    return toExtracted(row, item, isClient(actor));
  }

  /** Spec 1 s.7.6 gives the call no payload: a company sent with it must be the document's. */
  async getAnnotations(actor: Actor, req: ExtractedDocumentRequest) {
    const access = await this.access.company(actor, await this.companyOf(actor, req.companyId, req.id));
    const { row } = await this.load(actor, access, req.id);
    return { annotations: row.annotations };
  }

  /** The whole list is saved (spec 2 s.7); advisors, when the firm has annotations on. */
  async saveAnnotations(actor: Actor, req: SaveAnnotationsRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, req.companyId);
    if (!access.preferences?.annotationEnabled)
      throw new AppError('forbidden', 'annotations_disabled', Messages.disabledByFirm);
    // The text rules first: they do not depend on the page.
    if (req.annotations.some((a, i) => !normaliseAnnotation(a, i)))
      throw badRequest(Messages.annotationText, { annotations: Messages.annotationText });
    // A document filed before its page sizes were kept is measured here, once: before the transaction (a
    // PDF read whole holds no pooled connection) and with the splits' bound on whole files in memory. What
    // cannot be measured (a protected or damaged file) is kept as no sizes, so no save reads it again.
    const before = await this.load(actor, access, req.id);
    const measured = before.row.pageSizes
      ? undefined
      : ((await splits.run(() => this.measurePages(before.item))) ?? []);
    return this.change(actor, access, req.id, async (tx, row, item) => {
      const pageSizes = row.pageSizes ?? measured ?? [];
      const annotations = req.annotations.map((a, i) => normaliseAnnotation(a, i, pageSizes));
      await this.repo.update(tx, firmScope(actor.firm_id), row.id, {
        annotations: annotations as Record<string, unknown>[],
        ...(row.pageSizes ? {} : { pageSizes }),
      });
      if (item) await recordItemEvent(tx, 'updated', actor, item);
      return { annotations: annotations as never };
    });
  }

  /**
   * Splits a PDF by page ranges into new files beside it (pdf-lib); the source becomes split_succeeded
   * and is hidden. PDFs only, only with the bulk upload processor, never while processing, and once.
   */
  async split(actor: Actor, req: SplitDocumentsRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, await this.companyOf(actor, req.companyId, req.id));
    if (!access.preferences?.bulkUploadProcessor)
      throw new AppError('forbidden', 'split_disabled', Messages.splitDisabled);
    if (!req.documents.length) throw badRequest(Messages.badPages, { documents: Messages.badPages });
    const scope = firmScope(actor.firm_id);
    const { row, item } = await this.load(actor, access, req.id);
    if (!item || extensionOf(item.name) !== 'pdf' || !item.storageKey)
      throw badRequest(Messages.notPdf, undefined, 'not_pdf');
    assertSplittable(row, item);
    assertCanChange(actor, access, 'upload', item.folder);
    // Ranges that could never be read are refused before the file is.
    if (!req.documents.every((part) => pageRangesWellFormed(part.pages)))
      throw badRequest(Messages.badPages, { pages: Messages.badPages });
    const storageKey = item.storageKey;
    // Every key is noted before its PUT: a PUT that fails late may still have stored the object.
    const written: string[] = [];
    try {
      // The source is read whole and each part rendered in memory: a few splits at once per process.
      const outputs = await splits.run(async () => {
        const source = await loadPdf(await this.store.read(storageKey, item.size));
        const sizes = await asInvalidPdf(() => pageSizesOf(source));
        const parts = req.documents.map((part) => {
          const pages = pagesOf(part.pages, source.getPageCount());
          return { part, pages, pageSizes: pages.map((n) => sizes[n - 1] as PageSize) };
        });
        return this.renderAndStore(source, parts, written, (id) =>
          StorageKeys.file(scope.firmId, item.companyId, id),
        );
      });
      // The source's folder as last read; where it has moved meanwhile, filed again under its new one.
      let folder = item.folder;
      for (let attempt = 1; ; attempt++) {
        const filed = await this.items.transaction(scope, (tx) =>
          this.fileParts(tx, actor, row.id, { companyId: item.companyId, folder }, outputs),
        );
        if ('documents' in filed) return { documents: filed.documents, message: Messages.updated };
        if (attempt === MAX_MOVED_RETRIES) throw notFound();
        folder = filed.movedTo;
      }
    } catch (err) {
      await this.removeParts(written);
      throw err;
    }
  }

  /**
   * Inserts a part under its name, or the first numbered one free ('W-2 (1).pdf'), as `names` finds it
   * (which of the numbers are taken read in one query for all the parts named alike, then remembered).
   * Free is checked, then taken: a file of that name written meanwhile by another split or an upload
   * (writers into one folder all hold it 'share', which does not keep them apart) makes the insert fail
   * on the live-path index, and the next number is tried, the failed insert undone to a savepoint so the
   * split's transaction goes on.
   */
  private async insertNumbered(
    tx: DocTx,
    folder: string,
    names: FreeNames,
    first: { name: string; alike: number },
    rowOf: (name: string) => NewItem,
  ) {
    for (let tries = 1; ; tries++) {
      const { name, n } = await names.next(first.name, first.alike);
      const path = joinPath(folder, name);
      // A part's own path must fit as every other file's does, or it could not be opened or changed.
      if (!pathsFit([path])) throw pathTooLong();
      // A savepoint by hand: the transaction is the connection's own (begin and commit are issued on it),
      // so a nested drizzle transaction would begin and commit another.
      await tx.execute(sql`savepoint split_part_name`);
      try {
        const child = await this.items.insert(tx, rowOf(name));
        await tx.execute(sql`release savepoint split_part_name`);
        names.take(first.name, n);
        return { child, name };
      } catch (err) {
        await tx.execute(sql`rollback to savepoint split_part_name`);
        if (!isUniqueViolation(err) || tries > MAX_NAME_RETRIES) throw err;
        names.take(first.name, n);
      }
    }
  }

  /**
   * Renders each part and stores it before the next, so one part's bytes are in memory at a time (200
   * overlapping parts of a 5 MB PDF held a gigabyte when all were rendered first). Ids are chosen here
   * so the storage keys are known before the rows; each key goes into `written` before its PUT.
   */
  private async renderAndStore(
    source: PDFDocument,
    parts: SplitPart[],
    written: string[],
    keyOf: (id: string) => string,
  ) {
    const outputs: SplitOutput[] = [];
    for (const p of parts) {
      assertBeforeDeadline();
      const saved = await asInvalidPdf(async () => {
        const out = await PDFDocument.create();
        const copied = await out.copyPages(
          source,
          p.pages.map((n) => n - 1),
        );
        for (const page of copied) out.addPage(page);
        return out.save();
      });
      // The saved bytes as they are: a copy would hold a large part twice.
      const bytes = Buffer.from(saved.buffer, saved.byteOffset, saved.byteLength);
      const id = crypto.randomUUID();
      const key = keyOf(id);
      written.push(key);
      await this.store.put(key, bytes, 'application/pdf');
      outputs.push({ id, key, size: bytes.length, part: p });
    }
    return outputs;
  }

  /**
   * The parts' rows, written into the source's folder as an upload writes into one: each folder of its
   * path held 'share' first (RowLock), so a delete or move of the folder waits for the parts and takes
   * them along, then the source itself, locked, re-read and re-checked: of two splits at once the second
   * finds it split, and a source deleted meanwhile is refused. A source no longer in `folder` (moved
   * before its folders were held) writes nothing and answers where it is now.
   */
  private async fileParts(
    tx: DocTx,
    actor: Actor,
    id: string,
    { companyId, folder }: { companyId: string; folder: string },
    outputs: SplitOutput[],
  ): Promise<{ documents: ReturnType<typeof toExtracted>[] } | { movedTo: string }> {
    const scope = firmScope(actor.firm_id);
    const held = await this.items.holdFolders(tx, scope, companyId, folder);
    await this.repo.lockItemsOf(tx, scope, [id]);
    const locked = await this.repo.lockWithItem(tx, scope, id);
    if (!locked) throw notFound();
    const { row, item } = locked;
    assertSplittable(row, item);
    // A document moved to another company is removed there, so its company is the one held.
    if (item.folder !== folder) return { movedTo: item.folder };
    // Its folder gone while the source is not deleted: nothing to file the parts under.
    if (!held) throw notFound();
    // A default name is made of the source's and the pages' ('1,3-5'), sanitised as any name is.
    const firstNames = outputs.map((o) => {
      const base =
        sanitiseName(o.part.part.name) ||
        sanitiseName(`${item.name.replace(/\.pdf$/i, '')} pages ${formatPageRanges(o.part.pages)}`);
      return fittedName(`${base.replace(/\.pdf$/i, '')}.pdf`);
    });
    const alike = new Map<string, number>();
    for (const name of firstNames) alike.set(name, (alike.get(name) ?? 0) + 1);
    const names = new FreeNames((candidates) =>
      this.items.takenAmong(tx, scope, item.companyId, item.folder, candidates),
    );
    const results = [];
    for (const [i, o] of outputs.entries()) {
      const first = firstNames[i] as string;
      const { child, name } = await this.insertNumbered(
        tx,
        item.folder,
        names,
        { name: first, alike: alike.get(first) ?? 1 },
        (name) => ({
          id: o.id,
          firmId: scope.firmId,
          companyId: item.companyId,
          folder: item.folder,
          name,
          type: 'file',
          storageKey: o.key,
          size: o.size,
          contentType: 'application/pdf',
          uploadType: item.uploadType,
          questionnaireId: item.questionnaireId,
          parentDocumentId: item.id,
          createdBy: actor.user_id,
        }),
      );
      const extracted = await this.repo.insert(tx, {
        firmId: scope.firmId,
        companyId: item.companyId,
        itemId: child.id,
        name,
        source: 'split',
        status: 'review_required',
        documentType: row.documentType,
        parentDocumentId: row.id,
        parentPages: formatPageRanges(o.part.pages),
        differentiator: o.part.part.differentiator.trim(),
        pageCount: o.part.pages.length,
        pageSizes: o.part.pageSizes,
        questionnaireId: row.questionnaireId,
      });
      await this.items.update(tx, scope, child.id, { extractedDocumentId: extracted.id });
      await recordItemEvent(tx, 'uploaded', actor, child);
      results.push(toExtracted(extracted, child, isClient(actor)));
    }
    await this.repo.update(tx, scope, row.id, { status: 'split_succeeded' });
    await this.items.update(tx, scope, item.id, { hidden: true });
    // The hidden source leaves the tree as a deleted item does.
    await recordItemEvent(tx, 'deleted', actor, item);
    return { documents: results };
  }

  /** Best effort: a part left behind costs only storage, and the log names it so it can be removed. */
  private async removeParts(keys: string[]) {
    await Promise.all(
      keys.map((key) =>
        this.store
          .delete(key)
          .catch((err) => this.log.warn({ err, key }, 'A part of a failed split could not be deleted')),
      ),
    );
  }

  async updateDescription(actor: Actor, req: UpdateDescriptionRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(
      actor,
      await this.companyOf(actor, req.companyId, req.extractedDocumentId),
    );
    return this.change(actor, access, req.extractedDocumentId, async (tx, row, item) => {
      const description = req.description.trim().slice(0, 1_000);
      const updated = await this.repo.update(tx, firmScope(actor.firm_id), row.id, { description });
      if (item) {
        await this.items.update(tx, firmScope(actor.firm_id), item.id, { description });
        await recordItemEvent(tx, 'updated', actor, item);
      }
      return toExtracted(updated, item, isClient(actor));
    });
  }

  async updateTags(actor: Actor, req: UpdateTagsRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(
      actor,
      await this.companyOf(actor, req.companyId, req.extractedDocumentId),
    );
    if (!access.preferences?.documentTagsEnabled)
      throw new AppError('forbidden', 'tags_disabled', Messages.tagsDisabled);
    const tags = [...new Set(req.tags.map((t) => t.trim()).filter(Boolean))];
    return this.change(actor, access, req.extractedDocumentId, async (tx, row, item) => {
      const updated = await this.repo.update(tx, firmScope(actor.firm_id), row.id, { tags });
      if (item) {
        await this.items.update(tx, firmScope(actor.firm_id), item.id, { tags });
        await recordItemEvent(tx, 'updated', actor, item);
      }
      return toExtracted(updated, item, isClient(actor));
    });
  }

  /** Dropping into Additional Attachments marks a document as others; clients do it too. */
  async updateMarkedAsOthers(actor: Actor, req: UpdateMarkedAsOthersRequest) {
    const access = await this.access.company(actor, req.companyId);
    return this.change(actor, access, req.extractedDocumentId, async (tx, row, item) => {
      const updated = await this.repo.update(tx, firmScope(actor.firm_id), row.id, {
        markedAsOthers: req.markedAsOthers,
      });
      if (item) await recordItemEvent(tx, 'updated', actor, item);
      return toExtracted(updated, item, isClient(actor));
    });
  }

  /** Removes the extracted document and its file (soft delete; restorable from the tree). */
  async delete(actor: Actor, req: ExtractedDocumentRequest) {
    const access = await this.access.company(actor, await this.companyOf(actor, req.companyId, req.id));
    await this.change(actor, access, req.id, async (tx, row, item) => {
      const scope = firmScope(actor.firm_id);
      // Read under its file's lock (change): a delete or move of the file from the tree before it is not
      // found, and announced itself. This call then answers as it would after them, and announces nothing.
      if (!(await this.repo.deleteLive(tx, scope, row.id))) throw notFound();
      if (item && !item.deletedAt && (await this.items.softDelete(tx, scope, item)))
        await recordItemEvent(tx, 'deleted', actor, item);
    });
    return { message: Messages.removed };
  }

  /** Attach to questionnaire (advisors; only documents not already linked). */
  async attach(actor: Actor, req: AttachToQuestionnaireRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, req.companyId);
    if (!req.questionnaireId.trim())
      throw badRequest(Messages.questionnaireMissing, { questionnaireId: Messages.questionnaireMissing });
    const ids = [...new Set(req.extractedDocumentIds)];
    if (!ids.length) throw badRequest(Messages.attachFailed);
    assertCanChange(actor, access, 'file_edit', '');
    const scope = firmScope(actor.firm_id);
    const documents = await this.items.transaction(scope, async (tx) => {
      // The files before their extracted documents (see lockItemsOf).
      await this.repo.lockItemsOf(tx, scope, ids.filter(isUuid));
      const rows = await this.repo.many(tx, scope, access.companyId, ids.filter(isUuid));
      if (rows.length !== ids.length) throw notFound();
      if (rows.some((r) => r.questionnaireId))
        throw new AppError('conflict', 'already_attached', Messages.alreadyAttached);
      const out = [];
      for (const r of rows) {
        const updated = await this.repo.update(tx, scope, r.id, {
          questionnaireId: req.questionnaireId.trim(),
        });
        const [item] = await this.items.byIds(tx, scope, [r.itemId]);
        if (item) {
          await this.items.update(tx, scope, item.id, { questionnaireId: req.questionnaireId.trim() });
          await recordItemEvent(tx, 'updated', actor, item);
        }
        out.push(toExtracted(updated, item, isClient(actor)));
      }
      return out;
    });
    return { documents, message: Messages.attached };
  }

  /**
   * The page sizes of a document filed before they were kept: its PDF read once (then kept with the
   * annotations). Undefined for a file that is not a PDF or does not open.
   */
  private async measurePages(item: ItemRow | undefined): Promise<PageSize[] | undefined> {
    if (!item?.storageKey || extensionOf(item.name) !== 'pdf') return undefined;
    const { pageSizes } = await pdfInfo(await this.store.read(item.storageKey, item.size));
    return pageSizes.length ? pageSizes : undefined;
  }

  /**
   * The company a call names, or else the extracted document's own (another firm's is not found): spec 1
   * s.7.6 gives update_description and update_tags only the document, spec 2 s.7 gives a split the
   * document and its parts, and delete_extracted_document no parameters. Access to that company is then
   * checked as for any call.
   */
  private async companyOf(actor: Actor, named: string, id: string) {
    if (named) return named;
    const scope = firmScope(actor.firm_id);
    const companyId = isUuid(id)
      ? await this.items.transaction(scope, (tx) => this.repo.companyOf(tx, scope, id))
      : undefined;
    if (!companyId) throw notFound();
    return companyId;
  }

  private async load(actor: Actor, access: CompanyAccess, id: string) {
    const scope = firmScope(actor.firm_id);
    return this.items.transaction(scope, (tx) => this.loadIn(tx, actor, access, id));
  }

  private async loadIn(tx: DocTx, actor: Actor, access: CompanyAccess, id: string) {
    const scope = firmScope(actor.firm_id);
    const row = isUuid(id) ? await this.repo.get(tx, scope, access.companyId, id) : undefined;
    if (!row) throw notFound();
    const [item] = await this.items.byIds(tx, scope, [row.itemId]);
    if (item) {
      assertVisiblePath(actor, joinPath(item.folder, item.name));
      if (hiddenFrom(actor, item)) throw notFound();
    }
    return { row, item };
  }

  private change<T>(
    actor: Actor,
    access: CompanyAccess,
    id: string,
    work: (tx: DocTx, row: ExtractedRow, item: ItemRow | undefined) => Promise<T>,
  ): Promise<T> {
    const scope = firmScope(actor.firm_id);
    return this.items.transaction(scope, async (tx) => {
      // Checked first, holding nothing; then its file locked before the extracted document is written, as
      // the tree's edit and delete take them (see lockItemsOf), and both read again under it: deleted,
      // moved or removed meanwhile, they are not found.
      await this.loadIn(tx, actor, access, id);
      await this.repo.lockItemsOf(tx, scope, [id]);
      const { row, item } = await this.loadIn(tx, actor, access, id);
      assertCanChange(actor, access, 'file_edit', item?.folder ?? '');
      return work(tx, row, item);
    });
  }
}

type SplitPart = { part: SplitDocumentsRequest['documents'][number]; pages: number[]; pageSizes: PageSize[] };
type SplitOutput = { id: string; key: string; size: number; part: SplitPart };

/** Splits at once in one process: each holds its source PDF (up to 150 MB) and one part. */
const splits = new Semaphore(2);

/**
 * A source is split once: not while processing, not after a split (its status, or its file hidden),
 * and not once its extracted row or its file is deleted.
 */
function assertSplittable(row: ExtractedRow, item: ItemRow) {
  if (row.deletedAt || item.deletedAt) throw notFound();
  if (row.status === 'split_succeeded' || item.hidden)
    throw new AppError('conflict', 'already_split', Messages.alreadySplit);
  if (row.status === 'processing')
    throw new AppError('conflict', 'processing', Messages.splitWhileProcessing);
}

/**
 * Only bytes pdf-lib cannot open are INVALID; a storage read failure is thrown before this, as the
 * unexpected error it is (5xx), not blamed on the file.
 */
function loadPdf(bytes: Buffer): Promise<PDFDocument> {
  return asInvalidPdf(async () => {
    const pdf = await PDFDocument.load(bytes);
    // Some damage shows only when the page tree is read.
    if (pdf.getPageCount() < 1) throw new Error('no pages');
    return pdf;
  });
}

/**
 * pdf-lib's work on a file's bytes or pages: what it throws is damage in the file (no header, a page
 * without a MediaBox, a broken reference), the spec's INVALID, not a failure of the service.
 */
async function asInvalidPdf<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest(Messages.invalidFiles, undefined, 'invalid_files');
  }
}

/** The pages of one part, refused before expanding when malformed or past the last page. */
function pagesOf(input: string, pageCount: number): number[] {
  const parsed = parsePageRanges(input, pageCount);
  if (!('error' in parsed)) return parsed.pages;
  if (parsed.error === 'out_of_range') throw badRequest(Messages.pageOutOfRange(pageCount));
  throw badRequest(Messages.badPages, { pages: Messages.badPages });
}
