import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  badRequest,
  type FirmScope,
  firmScope,
  type Logger,
  remainingMs,
} from '@portico/platform';
import type {
  CompanyAccess,
  CreateUploadLinksRequest,
  ProcessDocumentRequest,
  UploadFile,
} from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import { assertAdvisor, assertCanChange, assertCanCreateFolders, notFound } from '../access/access.rules.js';
import type { DocumentsConfig } from '../config.js';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import type { PageSize } from '../extracted/page-sizes.rules.js';
import { recordItemEvents } from '../items/item.events.js';
import { type DocTx, ItemsRepository, type NewFile } from '../items/items.repository.js';
import { ItemsService, pathTooLong, requestPath, systemFolder } from '../items/items.service.js';
import {
  extensionOf,
  fittedName,
  isInSystemFolder,
  isSystemPath,
  joinPath,
  MAX_NAME_LENGTH,
  pathsFit,
  priorYearFolder,
  renamedFileName,
  SIGNATURE_REQUESTS_FOLDER,
  sanitiseName,
  splitPath,
  TAX_RETURN_DELIVERY_FOLDER,
} from '../items/paths.rules.js';
import { mapLimited } from '../jobs/map-limited.js';
import { Messages } from '../messages.js';
import { HeicConverter } from '../previews/heic.converter.js';
import type { UploadRow } from '../schema.js';
import { deleteObjects, type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { CONFIG, LOG, OBJECT_STORE } from '../tokens.js';
import { contentTypeOf, isUploadType, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from './file-type.rules.js';
import { tooLateToProcess } from './upload-expiry.rules.js';
import { type Checked, UploadValidator } from './upload-validator.js';
import { distinctUploadIds, type UploadQuota, UploadsRepository } from './uploads.repository.js';

/** Checks the files of one upload box: 1 to 999, none over 150 MB (spec 1 s.9). */
export function assertUploadFiles(files: readonly UploadFile[]): void {
  if (!files.length) throw badRequest(Messages.noFiles, { files: Messages.noFiles });
  if (files.length > MAX_FILES_PER_UPLOAD)
    throw badRequest(Messages.tooManyFiles, { files: Messages.tooManyFiles });
  for (const f of files) {
    if (Number(f.size) > MAX_FILE_BYTES)
      throw new AppError('payload_too_large', 'file_too_large', `${f.name}: ${Messages.fileTooLarge}`);
  }
}

/** A stored file name: sanitised, never empty, within MAX_NAME_LENGTH (its extension kept). */
export const storedName = (name: string) => fittedName(sanitiseName(name) || 'document');

/** Where an upload type files its documents; prior-year uploads need a year ('missing year'). */
export function uploadFolder(actor: Actor, documentType: string, path: string, taxYear: string): string {
  if (!isUploadType(documentType))
    throw badRequest(Messages.unknownUploadType, { documentType: Messages.unknownUploadType });
  switch (documentType) {
    case 'signature_request':
      assertAdvisor(actor);
      return SIGNATURE_REQUESTS_FOLDER;
    case 'tax_return_delivery':
      assertAdvisor(actor);
      return TAX_RETURN_DELIVERY_FOLDER;
    case 'prior_year_document':
      assertAdvisor(actor);
      if (!/^(19|20)\d{2}$/.test(taxYear.trim()))
        throw badRequest(Messages.missingYear, { taxYear: Messages.missingYear }, 'missing_year');
      return priorYearFolder(taxYear.trim());
    default: {
      // Only the product files into the system folder (the upload types above).
      const folder = requestPath(path);
      if (isInSystemFolder(folder)) throw systemFolder();
      return folder;
    }
  }
}

@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly items: ItemsRepository,
    private readonly tree: ItemsService,
    private readonly extracted: ExtractedRepository,
    private readonly access: AccessClient,
    private readonly validator: UploadValidator,
    private readonly heic: HeicConverter,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CONFIG) private readonly config: DocumentsConfig,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /** Step one: a presigned PUT per file, straight to storage. */
  async createLinks(actor: Actor, req: CreateUploadLinksRequest) {
    const access = await this.access.company(actor, req.companyId);
    const asked = uploadFolder(actor, req.documentType, req.path, req.taxYear);
    assertCanChange(actor, access, 'upload', asked);
    assertUploadFiles(req.files);
    const scope = firmScope(actor.firm_id);
    const folder = await this.items.transaction(scope, (tx) => this.folderFor(tx, actor, access, asked));
    if (!pathsFit(req.files.map((f) => joinPath(folder, storedName(f.name))))) throw pathTooLong();
    const links = await this.presignedLinks(scope, req.files, (id) => ({
      companyId: access.companyId,
      storageKey: StorageKeys.upload(scope.firmId, access.companyId, id),
      createdBy: actor.user_id,
    }));
    return { links };
  }

  /**
   * One pending upload per file (a new id, the name as sent cut to MAX_NAME_LENGTH with its extension
   * kept, the declared size) and its presigned PUT. `place` says where each one goes: its company (null
   * for the firm's drop link), its storage key and who asked.
   */
  /** Links for `files`; with `quota`, a 429 and none made when they would pass it. */
  async presignedLinks(
    scope: FirmScope,
    files: readonly UploadFile[],
    place: (id: string) => {
      companyId: string | null;
      storageKey: string;
      createdBy?: string;
      caller?: string;
    },
    quota?: UploadQuota,
  ) {
    const ttl = this.config.UPLOAD_LINK_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const rows = await this.uploads.create(
      scope,
      files.map((f) => {
        const id = randomUUID();
        return {
          id,
          firmId: scope.firmId,
          ...place(id),
          fileName: fittedName(f.name),
          declaredSize: Number(f.size),
          expiresAt,
        };
      }),
      quota,
    );
    if (!rows) throw new AppError('too_many_requests', 'drop_off_quota', Messages.dropOffQuota);
    return Promise.all(rows.map((row) => this.link(row, ttl, expiresAt)));
  }

  /**
   * Links signed again for pending drop-off uploads handed to `caller` (`UploadsRepository.renewDropOffs`):
   * a fresh expiry, the same storage key, size and type, nothing new counted. Undefined when any id is
   * not one of them.
   */
  async renewedDropOffLinks(scope: FirmScope, ids: string[], caller: string) {
    const ttl = this.config.UPLOAD_LINK_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const rows = await this.uploads.renewDropOffs(scope, ids, caller, expiresAt);
    return rows && Promise.all(rows.map((row) => this.link(row, ttl, expiresAt)));
  }

  private async link(
    row: { id: string; storageKey: string; fileName: string; declaredSize: number },
    ttl: number,
    expiresAt: Date,
  ) {
    // The type of the name the file is filed under ('W2.pdf' for 'W2.pdf,'), which the type check and
    // the item use too: the object is served (a preview) with the type it is stored with.
    const contentType = contentTypeOf(storedName(row.fileName));
    return {
      uploadId: row.id,
      fileName: row.fileName,
      url: await this.store.presignPut(row.storageKey, contentType, row.declaredSize, ttl),
      method: 'PUT',
      // If-None-Match is signed into the link (a conditional write; see S3ObjectStore.presignPut).
      headers: { 'content-type': contentType, 'if-none-match': '*' },
      expiresAt: expiresAt.toISOString(),
      expiresInSeconds: ttl,
    };
  }

  /**
   * Step three: validate each uploaded object and file the good ones; invalid ones leave nothing behind.
   * The files of one call are checked a few at a time (one read each) and filed together in one
   * transaction: the uploads consumed, the folders ensured, the items, extracted documents and events
   * each written by one statement.
   */
  async process(actor: Actor, req: ProcessDocumentRequest) {
    const access = await this.access.company(actor, req.companyId);
    const fields = advisorFields(actor, access, req);
    const asked = uploadFolder(actor, req.documentType, req.path, req.taxYear);
    assertCanChange(actor, access, 'upload', asked);
    const ids = distinctUploadIds(req.uploadIds);
    if (!ids.length) throw badRequest(Messages.noFiles, { uploadIds: Messages.noFiles });
    if (ids.length > MAX_FILES_PER_UPLOAD) throw badRequest(Messages.tooManyFiles);
    const scope = firmScope(actor.firm_id);
    // Checked before the files are read, and again when they are filed.
    await this.items.transaction(scope, (tx) => this.folderFor(tx, actor, access, asked));
    return withClaimedUploads(
      this.uploads,
      scope,
      ids,
      { companyId: access.companyId, createdBy: actor.user_id },
      (pending) => this.fileUploads(actor, req, access, asked, fields, ids, pending),
    );
  }

  /** `process` once its uploads are claimed: checks them, files the good ones, deletes the rest. */
  private async fileUploads(
    actor: Actor,
    req: ProcessDocumentRequest,
    access: CompanyAccess,
    asked: string,
    { description, tags }: AdvisorFields,
    ids: string[],
    pending: UploadRow[],
  ) {
    const scope = firmScope(actor.firm_id);
    const rename = !!req.newName.trim() && pending.length === 1;
    const named = pending.map((upload) => {
      const name = storedName(upload.fileName);
      return { upload, name: rename ? (renamedFileName(name, req.newName) ?? name) : name };
    });
    // Extracted documents keep their page count: their PDFs are opened whole.
    const bulk = req.documentType === 'bulk_document' || req.requiresSplitting || !!req.questionnaireId;
    const checks = await mapLimited(named, VALIDATE_CONCURRENCY, ({ upload, name }) =>
      this.validator.check(upload, name, { pageCount: bulk }),
    );

    // What to file: valid files, the first of each name (names are unique case-insensitively).
    const wanted = new Set<string>();
    const toFile: NewFile[] = [];
    // Kept for the annotations, which stay on their page; the sizes unknown (null) when not read whole.
    const pages = new Map<string, { count: number; sizes: PageSize[] | null }>();
    named.forEach(({ upload, name }, i) => {
      const checked = checks[i] as Checked;
      if (!checked.valid || wanted.has(name.toLowerCase())) return;
      wanted.add(name.toLowerCase());
      pages.set(upload.id, {
        count: checked.pageCount,
        sizes: checked.pageSizes.length ? checked.pageSizes : null,
      });
      toFile.push({
        id: upload.id,
        name,
        storageKey: upload.storageKey,
        size: checked.size,
        contentType: checked.contentType,
        isProtected: checked.isProtected,
        extractedDocumentId: bulk ? randomUUID() : null,
        previewStatus: isHeic(name) ? 'pending' : 'none',
      });
    });

    const { filedIds, folder } = await this.items.transaction(scope, async (tx) => {
      const consumed = await this.uploads.consumeAll(tx, scope, ids);
      // Another call took some of them first: that call files them.
      if (consumed.size !== ids.length) throw notFound();
      const folder = await this.folderFor(tx, actor, access, asked);
      if (!toFile.length) {
        await this.uploads.markDiscarded(tx, scope, ids);
        return { filedIds: new Set<string>(), folder };
      }
      if (!pathsFit(toFile.map((f) => joinPath(folder, f.name)))) throw pathTooLong();
      if (isInSystemFolder(folder)) await this.tree.ensureSystemFolders(tx, scope.firmId, access.companyId);
      // A folder of the path made meanwhile by another request under another case (or a file of that
      // name) is refused: the call's uploads are let go, to be sent again (see ItemsService.ensureFolders).
      if (
        !isSystemPath(folder) &&
        !(await this.tree.ensureFolders(tx, actor, scope.firmId, access.companyId, folder))
      )
        throw new AppError('conflict', 'folder_changed', Messages.uploadFailed);
      const filed = await this.items.insertFiles(
        tx,
        scope,
        {
          companyId: access.companyId,
          folder,
          description,
          tags,
          uploadType: req.documentType,
          questionnaireId: req.questionnaireId,
          createdBy: actor.user_id,
        },
        toFile,
      );
      const filedFiles = toFile.filter((f) => filed.has(f.id));
      await this.uploads.markDiscarded(
        tx,
        scope,
        ids.filter((id) => !filed.has(id)),
      );
      if (bulk)
        await this.extracted.insertMany(
          tx,
          filedFiles.map((f) => ({
            id: f.extractedDocumentId as string,
            firmId: scope.firmId,
            companyId: access.companyId,
            itemId: f.id,
            name: f.name,
            source: req.questionnaireId ? 'questionnaire' : 'upload',
            status: 'review_required',
            documentType: req.documentType,
            pageCount: pages.get(f.id)?.count ?? 0,
            pageSizes: pages.get(f.id)?.sizes ?? null,
            markedAsOthers: req.markedAsOthers,
            description,
            tags,
            questionnaireId: req.questionnaireId,
          })),
        );
      await recordItemEvents(
        tx,
        'uploaded',
        actor,
        filedFiles.map((f) => ({
          firmId: scope.firmId,
          companyId: access.companyId,
          type: 'file' as const,
          folder,
          name: f.name,
          uploadType: req.documentType,
        })),
      );
      return { filedIds: filed, folder };
    });

    // Answers in the order asked; the objects of what was not filed are deleted.
    const files: ProcessedFileInit[] = [];
    const invalid: string[] = [];
    const unfiled: string[] = [];
    const fileById = new Map(toFile.map((f) => [f.id, f]));
    named.forEach(({ upload, name }, i) => {
      const checked = checks[i] as Checked;
      if (!checked.valid) {
        invalid.push(upload.fileName);
        unfiled.push(upload.storageKey);
        files.push(invalidFileResult(upload.id, name));
        return;
      }
      const documentLocation = joinPath(folder, name);
      if (!filedIds.has(upload.id)) {
        unfiled.push(upload.storageKey);
        files.push({
          uploadId: upload.id,
          documentName: name,
          documentLocation,
          isDuplicate: true,
          message: req.questionnaireId
            ? Messages.alreadyInQuestionnaire(name)
            : Messages.alreadyUploaded(name),
        });
        return;
      }
      const file = fileById.get(upload.id) as NewFile;
      if (isHeic(name))
        this.heic.schedule({
          id: upload.id,
          firmId: scope.firmId,
          companyId: access.companyId,
          storageKey: upload.storageKey,
          size: file.size,
        });
      files.push({
        uploadId: upload.id,
        documentName: name,
        documentLocation,
        isProtected: file.isProtected,
        extractedDocumentId: file.extractedDocumentId ?? '',
        message: Messages.uploaded,
      });
    });
    await deleteObjects(this.store, unfiled, this.log);
    const filed = files.filter((f) => !f.invalid && !f.isDuplicate);
    const duplicates = files.filter((f) => f.isDuplicate);
    if (!filed.length && !duplicates.length)
      throw badRequest(Messages.invalidFiles, { files: Messages.invalidFiles }, 'invalid_files');
    const message = invalid.length
      ? Messages.invalidFiles
      : duplicates.length
        ? (duplicates[0]?.message as string)
        : Messages.uploaded;
    return {
      files,
      message,
      invalidFiles: invalid,
      documentLocation: files.length === 1 ? (files[0]?.documentLocation ?? '') : '',
      isDuplicate: files.length === 1 && !!files[0]?.isDuplicate,
    };
  }

  /**
   * The folder an upload files into, as stored (existing folders by their stored names, new ones
   * sanitised), checked again as stored: a new folder is a folder action, and a sanitised name can land
   * in the system folder or a blocked one.
   */
  /** Where an upload files, checked; its existing folders held while the files are written (RowLock). */
  private async folderFor(tx: DocTx, actor: Actor, access: CompanyAccess, asked: string): Promise<string> {
    const { path, missing } = await this.tree.storedFolder(
      tx,
      actor.firm_id,
      access.companyId,
      asked,
      'share',
    );
    if (isInSystemFolder(path) && !isInSystemFolder(asked)) throw systemFolder();
    assertCanChange(actor, access, 'upload', path);
    assertCanCreateFolders(actor, access, missing);
    // A folder it makes is named as any item is: no longer than a name can be, or it could not be
    // renamed or deleted by its name.
    if (missing.some((folder) => (splitPath(folder)?.[1] ?? '').length > MAX_NAME_LENGTH))
      throw badRequest(Messages.nameTooLong, { path: Messages.nameTooLong });
    return path;
  }

  companyAccess(actor: Actor, companyId: string): Promise<CompanyAccess> {
    return this.access.company(actor, companyId);
  }
}

const isHeic = (name: string) => ['heic', 'heif'].includes(extensionOf(name));

type AdvisorFields = { description: string; tags: string[] };

/**
 * The description and tags an upload files, by the rules of update_description and update_tags: the
 * advisors' (spec 1 s.2.7; 403 to a client who sends either), tags only with document_tags_enabled
 * (403 to anyone). Checked before the uploads are claimed: a refused call files nothing and its uploads
 * can be processed again. Blank ones write nothing and pass. A client's questionnaireId is kept: spec 2
 * has clients upload from their questionnaires (it is what lets them open and remove those files with
 * the Documents view hidden); attaching a filed document to a questionnaire is the advisors' call.
 */
function advisorFields(actor: Actor, access: CompanyAccess, req: ProcessDocumentRequest): AdvisorFields {
  const description = req.description.trim().slice(0, 1_000);
  const tags = [...new Set(req.tags.map((t) => t.trim()).filter(Boolean))];
  if (description || tags.length) assertAdvisor(actor);
  if (tags.length && !access.preferences?.documentTagsEnabled)
    throw new AppError('forbidden', 'tags_disabled', Messages.tagsDisabled);
  return { description, tags };
}

type ProcessedFileInit = {
  uploadId: string;
  documentName: string;
  documentLocation?: string;
  invalid?: boolean;
  isDuplicate?: boolean;
  isProtected?: boolean;
  extractedDocumentId?: string;
  message: string;
};

/** How long a process call holds its uploads: as long as its caller waits (5 minutes without a deadline). */
const claimUntil = () => new Date(Date.now() + Math.max(0, remainingMs() ?? 5 * 60_000));

/**
 * Runs `work` on the uploads of a process call once it holds them (404 when any is unknown, spent, not
 * the caller's or held by another call), after the 410 check; lets them go again if `work` fails, so
 * the same ids can be sent again.
 */
export async function withClaimedUploads<T>(
  uploads: UploadsRepository,
  scope: FirmScope,
  ids: string[],
  owner: { companyId: string | null; createdBy?: string },
  work: (claimed: UploadRow[]) => Promise<T>,
): Promise<T> {
  const claimed = await uploads.claim(scope, ids, owner, claimUntil());
  if (!claimed) throw notFound();
  try {
    assertInTime(claimed);
    return await work(claimed);
  } catch (err) {
    await uploads.release(scope, claimed).catch(() => undefined);
    throw err;
  }
}

/** 410 when an upload's link expired longer ago than the grace (the sweep may be deleting it). */
export function assertInTime(pending: readonly UploadRow[]): void {
  if (pending.some((upload) => tooLateToProcess(upload)))
    throw new AppError('gone', 'upload_expired', Messages.uploadExpired);
}

/** A file of a process call that failed its checks: skipped, with the spec's INVALID message. */
export function invalidFileResult(uploadId: string, documentName: string) {
  return { uploadId, documentName, invalid: true, message: Messages.invalidFiles };
}

/**
 * Files checked at once per process call: each check is a ranged read or two, a few kilobytes, so the
 * store's latency (tens of ms per read on S3) is overlapped; whole files are limited on their own
 * (WHOLE_FILES_AT_ONCE in upload-validator.ts).
 */
export const VALIDATE_CONCURRENCY = 16;
