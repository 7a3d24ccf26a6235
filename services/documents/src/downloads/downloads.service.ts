import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  BusClient,
  badRequest,
  type FirmScope,
  firmScope,
  isUuid,
  type Logger,
  remainingMs,
} from '@portico/platform';
import {
  DocumentsSignals,
  type DownloadDocumentRequest,
  type DownloadFolderRequest,
  type DownloadMultipleRequest,
} from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import {
  assertAdvisor,
  assertCanOpenWithoutDocumentsView,
  assertDocumentsView,
  assertVisiblePath,
  hiddenFrom,
  isClient,
  notFound,
} from '../access/access.rules.js';
import type { DocumentsConfig } from '../config.js';
import { type DocTx, ItemsRepository } from '../items/items.repository.js';
import { requestPath } from '../items/items.service.js';
import { extensionOf, joinPath } from '../items/paths.rules.js';
import { Messages } from '../messages.js';
import { HeicConverter } from '../previews/heic.converter.js';
import { ImageNotConvertible } from '../previews/image-limits.js';
import type { ItemRow } from '../schema.js';
import { type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { BUS, CONFIG, LOG, OBJECT_STORE } from '../tokens.js';
import { imageToPdf, isImageName, pdfNameOf } from './image-pdf.js';
import { throttledProgress } from './zip-progress.js';
import { writeZip } from './zip-writer.js';

/** Folder download under 150MB; with images converted to PDF under 15MB (spec 1 s.9). */
/** What a zip reads of each file it holds. */
type ZippedItem = Pick<ItemRow, 'id' | 'name' | 'storageKey' | 'size' | 'updatedAt'>;

export const MAX_ZIP_BYTES = 150 * 1024 * 1024;
export const MAX_CONVERT_BYTES = 15 * 1024 * 1024;

/** Too large answers 503 with the spec's message (spec 1 s.8). */
export function assertZipSize(totalBytes: number, convertImages: boolean): void {
  if (totalBytes > MAX_ZIP_BYTES || (convertImages && totalBytes > MAX_CONVERT_BYTES))
    throw new AppError('unavailable', 'too_large_to_download', Messages.tooLargeToDownload);
}

/** Bulk actions are refused on a mix of deleted and live items (spec 1 s.4.3). */
export function assertNotMixed(rows: { deletedAt: Date | null }[]): void {
  const deleted = rows.filter((r) => r.deletedAt).length;
  if (deleted > 0 && deleted < rows.length)
    throw badRequest(Messages.mixedDeleted, undefined, 'mixed_deleted');
}

@Injectable()
export class DownloadsService {
  constructor(
    private readonly repo: ItemsRepository,
    private readonly access: AccessClient,
    private readonly heic: HeicConverter,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CONFIG) private readonly config: DocumentsConfig,
    @Inject(LOG) private readonly log: Logger,
    @Inject(BUS) private readonly bus: BusClient,
  ) {}

  /** A short-lived link to a file; for a HEIC preview, to its converted copy once ready. */
  async link(actor: Actor, req: DownloadDocumentRequest) {
    const access = await this.access.company(actor, req.companyId);
    const full = requestPath(req.link);
    assertVisiblePath(actor, full);
    const scope = firmScope(actor.firm_id);
    const item = await this.repo.transaction(scope, (tx) =>
      this.findDownloadable(tx, scope, actor, access.companyId, full),
    );
    if (item?.type !== 'file' || !item.storageKey || hiddenFrom(actor, item)) throw notFound();
    assertCanOpenWithoutDocumentsView(actor, access, item);
    const ttl = this.config.DOWNLOAD_LINK_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000).toISOString();
    const ext = extensionOf(item.name);
    if (!req.isDownload && (ext === 'heic' || ext === 'heif')) {
      if (item.previewStatus === 'ready' && item.previewKey) {
        const link = await this.store.presignGet(item.previewKey, ttl);
        return { document: { data: { link, fileName: item.name, expiresAt, previewStatus: 'ready' } } };
      }
      if (item.previewStatus !== 'failed') this.heic.schedule(item);
      return {
        document: {
          data: {
            link: '',
            fileName: item.name,
            expiresAt: '',
            previewStatus: item.previewStatus === 'failed' ? 'failed' : 'pending',
          },
        },
      };
    }
    const link = await this.store.presignGet(item.storageKey, ttl, req.isDownload ? item.name : undefined);
    return {
      document: { data: { link, fileName: item.name, expiresAt, previewStatus: item.previewStatus } },
    };
  }

  /** A folder as a zip: advisors only (spec 1 s.6). */
  async folder(actor: Actor, req: DownloadFolderRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, req.companyId);
    const full = requestPath(req.path);
    const scope = firmScope(actor.firm_id);
    const { files, stored } = await this.repo.transaction(scope, async (tx) => {
      // The folder as it is stored: it is found whatever the case of its name ('/taxes' for '/Taxes'),
      // and what is directly in it is filed under the stored spelling.
      let stored = '';
      if (full) {
        const folder = await this.repo.findLive(tx, scope, access.companyId, full);
        if (folder?.type !== 'folder') throw notFound(Messages.folderNotFound);
        stored = joinPath(folder.folder, folder.name);
      }
      const files = (await this.repo.subtree(tx, scope, access.companyId, stored)).filter(
        (r) => r.type === 'file' && !r.hidden,
      );
      return { files, stored };
    });
    const entries = files.map((f) => ({
      item: f,
      path: joinPath(f.folder, f.name).slice(stored.length + 1),
    }));
    const zipName = `${stored.split('/').pop() || 'Documents'}.zip`;
    return this.zip(actor, access.companyId, entries, zipName, req.convertImagesToPdf, req.progressId);
  }

  /** Several files as a zip; folders are refused with the spec's message. */
  async multiple(actor: Actor, req: DownloadMultipleRequest) {
    const access = await this.access.company(actor, req.companyId);
    // Zips are the file manager's bulk download.
    assertDocumentsView(actor, access);
    if (!req.links.length) throw badRequest(Messages.notFound);
    const paths = [...new Set(req.links.map(requestPath))];
    for (const path of paths) assertVisiblePath(actor, path);
    const scope = firmScope(actor.firm_id);
    const rows = await this.repo.transaction(scope, async (tx) => {
      const found: ItemRow[] = [];
      for (const path of paths) {
        const row = await this.findDownloadable(tx, scope, actor, access.companyId, path);
        if (!row || hiddenFrom(actor, row)) throw notFound();
        found.push(row);
      }
      return found;
    });
    if (rows.some((r) => r.type === 'folder'))
      throw badRequest(Messages.foldersNotSupported, undefined, 'folders_not_supported');
    assertNotMixed(rows);
    return this.zip(
      actor,
      access.companyId,
      rows.map((item) => ({ item, path: item.name })),
      'Documents.zip',
      req.convertImagesToPdf,
      req.progressId,
    );
  }

  /**
   * The item a download names: the live one at the path, else for advisors a split's hidden source or a
   * deleted file (Include deleted files). A client is held to the stored path of what was found (404): a
   * path typed otherwise ('(STAFF  ONLY)') finds the same file.
   */
  private async findDownloadable(
    tx: DocTx,
    scope: FirmScope,
    actor: Actor,
    companyId: string,
    path: string,
  ): Promise<ItemRow | undefined> {
    const live = await this.repo.findLive(tx, scope, companyId, path);
    if (live) assertVisiblePath(actor, joinPath(live.folder, live.name));
    if (live || isClient(actor)) return live;
    return (
      (await this.repo.findHidden(tx, scope, companyId, path)) ??
      (await this.repo.findDeleted(tx, scope, companyId, path))
    );
  }

  /**
   * Tells the user who asked, on their sockets, how far a zip has come, when they named it (a UUID, as
   * the gateway checks; any other name is not signalled).
   */
  private progressOf(actor: Actor, progressId: string, fileCount: number) {
    if (!isUuid(progressId)) return undefined;
    return throttledProgress(
      fileCount,
      (filesDone) =>
        this.bus.signal(DocumentsSignals.zipProgress, {
          userId: actor.user_id,
          progressId,
          filesDone,
          fileCount,
        }),
      this.config.ZIP_PROGRESS_INTERVAL_MS,
    );
  }

  /** An image as a one-page PDF, or undefined when it cannot be converted. */
  private async imageAsPdf(item: ZippedItem): Promise<Buffer | undefined> {
    const bytes = await this.store.read(item.storageKey as string, item.size);
    try {
      return await imageToPdf(item.name, bytes);
    } catch (err) {
      if (!(err instanceof ImageNotConvertible)) throw err;
      this.log.warn({ err, item_id: item.id }, 'An image could not be converted to PDF; zipped as it is');
      return undefined;
    }
  }

  private async zip(
    actor: Actor,
    companyId: string,
    entries: { item: ZippedItem; path: string }[],
    zipName: string,
    convertImages: boolean,
    progressId: string,
  ) {
    let total = entries.reduce((sum, e) => sum + e.item.size, 0);
    assertZipSize(total, convertImages);
    // An image is converted when the zip comes near it; one that cannot be (unreadable, or too many
    // pixels) goes into the zip as it is, under its own name. The PDFs can be larger than the images
    // (which are under 15MB together): the zip stays under 150MB all the same.
    const convert = async (item: ZippedItem, path: string) => {
      const pdf = await this.imageAsPdf(item);
      if (!pdf) return undefined;
      total += pdf.length - item.size;
      assertZipSize(total, false);
      return { name: pdfNameOf(path), bytes: pdf };
    };
    const zipEntries = entries.map(({ item, path }) => ({
      name: path,
      mtime: item.updatedAt,
      storageKey: item.storageKey as string,
      size: item.size,
      convert: convertImages && isImageName(item.name) ? () => convert(item, path) : undefined,
    }));
    // No file is read once the caller has stopped waiting.
    const left = remainingMs();
    const key = StorageKeys.zip(actor.firm_id, companyId, randomUUID());
    const size = await writeZip(
      this.store,
      zipEntries,
      key,
      left === undefined ? Number.POSITIVE_INFINITY : Date.now() + left,
      this.progressOf(actor, progressId, entries.length),
    );
    const ttl = this.config.DOWNLOAD_LINK_TTL_SECONDS;
    const link = await this.store.presignGet(key, ttl, zipName);
    return {
      document: {
        data: { link, fileName: zipName, expiresAt: new Date(Date.now() + ttl * 1000).toISOString() },
      },
      size: BigInt(size),
      fileCount: entries.length,
    };
  }
}
