import { Inject, Injectable } from '@nestjs/common';
import { type Actor, AppError, badRequest, firmScope } from '@portico/platform';
import type {
  CompanyAccess,
  CreateUploadLinksRequest,
  ProcessDocumentRequest,
  UploadFile,
} from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import { assertAdvisor, assertCanChange, notFound } from '../access/access.rules.js';
import type { DocumentsConfig } from '../config.js';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { recordItemEvent } from '../items/item.events.js';
import { ItemsRepository } from '../items/items.repository.js';
import { requestPath } from '../items/items.service.js';
import {
  extensionOf,
  joinPath,
  priorYearFolder,
  renamedFileName,
  SIGNATURE_REQUESTS_FOLDER,
  sanitiseName,
  TAX_RETURN_DELIVERY_FOLDER,
} from '../items/paths.rules.js';
import { Messages } from '../messages.js';
import { HeicConverter } from '../previews/heic.converter.js';
import type { ItemRow } from '../schema.js';
import { type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { CONFIG, OBJECT_STORE } from '../tokens.js';
import { contentTypeOf, isUploadType, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from './file-type.rules.js';
import { UploadValidator } from './upload-validator.js';
import { UploadsRepository } from './uploads.repository.js';

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

/** A stored file name: sanitised, never empty. */
export const storedName = (name: string) => sanitiseName(name) || 'document';

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
    default:
      return requestPath(path);
  }
}

@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly items: ItemsRepository,
    private readonly extracted: ExtractedRepository,
    private readonly access: AccessClient,
    private readonly validator: UploadValidator,
    private readonly heic: HeicConverter,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CONFIG) private readonly config: DocumentsConfig,
  ) {}

  /** Step one: a presigned PUT per file, straight to storage. */
  async createLinks(actor: Actor, req: CreateUploadLinksRequest) {
    const access = await this.access.company(actor, req.companyId);
    const folder = uploadFolder(actor, req.documentType, req.path, req.taxYear);
    assertCanChange(actor, access, 'upload', folder);
    assertUploadFiles(req.files);
    const scope = firmScope(actor.firm_id);
    const ttl = this.config.UPLOAD_LINK_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const rows = await this.uploads.create(
      scope,
      req.files.map((f) => {
        const id = crypto.randomUUID();
        return {
          id,
          firmId: scope.firmId,
          companyId: access.companyId,
          storageKey: StorageKeys.upload(scope.firmId, access.companyId, id),
          fileName: f.name.slice(0, 255),
          declaredSize: Number(f.size),
          createdBy: actor.user_id,
          expiresAt,
        };
      }),
    );
    return { links: await Promise.all(rows.map((row) => this.link(row, ttl, expiresAt))) };
  }

  async link(row: { id: string; storageKey: string; fileName: string }, ttl: number, expiresAt: Date) {
    const contentType = contentTypeOf(row.fileName);
    return {
      uploadId: row.id,
      fileName: row.fileName,
      url: await this.store.presignPut(row.storageKey, contentType, ttl),
      method: 'PUT',
      headers: { 'content-type': contentType },
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** Step three: validate each uploaded object and file the good ones; invalid ones leave nothing behind. */
  async process(actor: Actor, req: ProcessDocumentRequest) {
    const access = await this.access.company(actor, req.companyId);
    const folder = uploadFolder(actor, req.documentType, req.path, req.taxYear);
    assertCanChange(actor, access, 'upload', folder);
    const ids = [...new Set(req.uploadIds)];
    if (!ids.length) throw badRequest(Messages.noFiles, { uploadIds: Messages.noFiles });
    if (ids.length > MAX_FILES_PER_UPLOAD) throw badRequest(Messages.tooManyFiles);
    const scope = firmScope(actor.firm_id);
    const pending = await this.uploads.pending(scope, ids, access.companyId);
    if (pending.length !== ids.length || pending.some((u) => u.createdBy !== actor.user_id)) throw notFound();
    if (pending.some((u) => u.expiresAt.getTime() < Date.now() - 60 * 60 * 1000))
      throw new AppError('gone', 'upload_expired', Messages.uploadExpired);

    const files = [];
    const invalid: string[] = [];
    const heics: ItemRow[] = [];
    for (const upload of pending) {
      let name = storedName(upload.fileName);
      if (req.newName.trim() && pending.length === 1) name = renamedFileName(name, req.newName) ?? name;
      const checked = await this.validator.check(upload, name);
      if (!checked.valid) {
        invalid.push(upload.fileName);
        await this.store.delete(upload.storageKey).catch(() => undefined);
        await this.uploads.consumeNow(scope, upload.id);
        files.push({
          uploadId: upload.id,
          documentName: name,
          invalid: true,
          message: Messages.invalidFiles,
        });
        continue;
      }
      const result = await this.items.transaction(scope, async (tx) => {
        await this.uploads.consume(tx, scope, upload.id);
        if (await this.items.findLive(tx, scope, access.companyId, joinPath(folder, name))) return undefined;
        if (folder.startsWith('/_portico')) await ensureSystem(this.items, tx, scope, access.companyId);
        await this.items.ensureFolders(tx, scope, access.companyId, folder, actor.user_id);
        const item = await this.items.insert(tx, {
          id: upload.id,
          firmId: scope.firmId,
          companyId: access.companyId,
          folder,
          name,
          type: 'file',
          storageKey: upload.storageKey,
          size: checked.size,
          contentType: checked.contentType,
          description: req.description.trim().slice(0, 1_000),
          tags: [...new Set(req.tags.map((t) => t.trim()).filter(Boolean))],
          isProtected: checked.isProtected,
          uploadType: req.documentType,
          questionnaireId: req.questionnaireId,
          createdBy: actor.user_id,
          previewStatus: isHeic(name) ? 'pending' : 'none',
        });
        let extractedId = '';
        if (req.documentType === 'bulk_document' || req.requiresSplitting || req.questionnaireId) {
          const extracted = await this.extracted.insert(tx, {
            firmId: scope.firmId,
            companyId: access.companyId,
            itemId: item.id,
            name,
            source: req.questionnaireId ? 'questionnaire' : 'upload',
            status: 'review_required',
            documentType: req.documentType,
            pageCount: checked.pageCount,
            markedAsOthers: req.markedAsOthers,
            description: item.description,
            tags: item.tags,
            questionnaireId: req.questionnaireId,
          });
          extractedId = extracted.id;
          await this.items.update(tx, scope, item.id, { extractedDocumentId: extracted.id });
        }
        await recordItemEvent(tx, 'uploaded', actor, item);
        return { item, extractedId, isProtected: checked.isProtected };
      });
      if (!result) {
        await this.store.delete(upload.storageKey).catch(() => undefined);
        files.push({
          uploadId: upload.id,
          documentName: name,
          documentLocation: joinPath(folder, name),
          isDuplicate: true,
          message: Messages.alreadyUploaded(name),
        });
        continue;
      }
      if (isHeic(name)) heics.push(result.item);
      files.push({
        uploadId: upload.id,
        documentName: name,
        documentLocation: joinPath(folder, name),
        isProtected: result.isProtected,
        extractedDocumentId: result.extractedId,
        message: Messages.uploaded,
      });
    }
    for (const item of heics) this.heic.schedule(item);
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

  companyAccess(actor: Actor, companyId: string): Promise<CompanyAccess> {
    return this.access.company(actor, companyId);
  }
}

const isHeic = (name: string) => ['heic', 'heif'].includes(extensionOf(name));

async function ensureSystem(
  items: ItemsRepository,
  tx: Parameters<ItemsRepository['insert']>[0],
  scope: ReturnType<typeof firmScope>,
  companyId: string,
) {
  await items.ensureFolders(tx, scope, companyId, SIGNATURE_REQUESTS_FOLDER, null, true);
  await items.ensureFolders(tx, scope, companyId, TAX_RETURN_DELIVERY_FOLDER, null, true);
}
