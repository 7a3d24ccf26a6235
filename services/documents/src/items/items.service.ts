import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  assertBeforeDeadline,
  type BusClient,
  badRequest,
  firmScope,
  isUniqueViolation,
  isUuid,
  type Logger,
} from '@portico/platform';
import type {
  CompanyAccess,
  CreateFolderRequest,
  DeleteDocumentRequest,
  GetDocumentsRequest,
  MoveItemRequest,
  RenameItemRequest,
  RestoreDocumentRequest,
  SearchDocumentsRequest,
  UpdateItemRequest,
} from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import {
  assertAdvisor,
  assertCanChange,
  assertCanRemoveWithoutDocumentsView,
  assertDocumentsView,
  assertVisiblePath,
  type ChangeKind,
  carryPlace,
  disabledByFirm,
  isClient,
  notFound,
} from '../access/access.rules.js';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { mapLimited } from '../jobs/map-limited.js';
import { Messages } from '../messages.js';
import type { ItemRow } from '../schema.js';
import { deleteObjects, type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { BUS, LOG, OBJECT_STORE } from '../tokens.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { FreeNames } from './free-names.js';
import { recordItemEvent, recordItemEvents } from './item.events.js';
import { listedToDocumentItem, toDocumentItem } from './item.mapper.js';
import {
  type DocTx,
  ItemsRepository,
  type ListCursor,
  type ListedRow,
  type RowLock,
  SEARCH_LIMIT,
  type SubtreeRow,
} from './items.repository.js';
import {
  cursorAfter,
  decodePageToken,
  encodePageToken,
  fitToBudget,
  leanPageBudget,
  leanRowsToRead,
  pageSizeOf,
  rowsToRead,
  toColumns,
} from './listing.rules.js';
import {
  fittedName,
  isInSystemFolder,
  isStaffOnly,
  isSystemPath,
  isWithin,
  joinPath,
  normalisePath,
  pathsFit,
  renamedFileName,
  SIGNATURE_REQUESTS_FOLDER,
  sanitiseName,
  TAX_RETURN_DELIVERY_FOLDER,
} from './paths.rules.js';

/**
 * Object copies a folder's copy keeps in flight at once: each is a round trip of tens of milliseconds
 * to S3, so a folder of a thousand files takes seconds this way, not a minute.
 */
const COPY_CONCURRENCY = 16;

const kindOf = (item: ItemRow): ChangeKind => (item.type === 'folder' ? 'folder' : 'file_edit');
const fullPathOf = (item: ItemRow) => joinPath(item.folder, item.name);

/** Two requests making the same name at once: the loser's insert meets the unique index, not the check. */
const nameTakenOnRace = <T>(work: Promise<T>): Promise<T> =>
  work.catch((err) => {
    throw isUniqueViolation(err) ? nameTaken() : err;
  });

/** A path from a request, or 400. */
export function requestPath(input: string): string {
  const path = normalisePath(input);
  if (path === undefined) throw badRequest(Messages.folderNotFound, { path: Messages.folderNotFound });
  if (!pathsFit([path])) throw pathTooLong();
  return path;
}

/** 400: an item would get a path longer than MAX_PATH_LENGTH. */
export const pathTooLong = () => badRequest(Messages.pathTooLong, { path: Messages.pathTooLong });

/** The file tree calls of spec 1 s.7.6: list, search, folders, rename, move or copy, delete, restore. */
@Injectable()
export class ItemsService {
  constructor(
    private readonly repo: ItemsRepository,
    private readonly uploads: UploadsRepository,
    private readonly extracted: ExtractedRepository,
    private readonly access: AccessClient,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(BUS) private readonly bus: BusClient,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /** The system folder and its two subfolders exist in every company's tree (spec 3 s.9). */
  ensureSystemFolders(tx: DocTx, firmId: string, companyId: string) {
    return this.ensureFolders(tx, undefined, firmId, companyId, SYSTEM_FOLDERS, true);
  }

  /**
   * Creates the missing folders down to each of `folders` (stored paths), announcing each as created.
   * The system folders are the product's: no actor.
   *
   * Answers whether every one of `folders` is now there as a folder spelled so, each of its path held
   * 'share' (RowLock) for what the caller writes into it. A name is skipped when it is taken, and
   * another request can take it after the caller found it free ('Receipts' made while an upload makes
   * 'receipts', or a file of that name): what is then filed there hangs under a path that does not exist,
   * missing from the tree and from the folder's count, and a delete or rename of the folder leaves it
   * behind. The caller refuses then (409, and nothing written); sent again, the path finds the folder
   * made meanwhile. The system folders' names are reserved (no one else makes them in any case), and the
   * listing that makes them writes nothing into them, so they are not checked.
   */
  async ensureFolders(
    tx: DocTx,
    actor: Actor | undefined,
    firmId: string,
    companyId: string,
    folders: string | readonly string[],
    isSystem = false,
  ): Promise<boolean> {
    const scope = firmScope(firmId);
    const created = await this.repo.ensureFolders(
      tx,
      scope,
      companyId,
      folders,
      actor?.user_id ?? null,
      isSystem,
    );
    await recordItemEvents(tx, 'created', actor, created);
    if (isSystem) return true;
    for (const folder of typeof folders === 'string' ? [folders] : folders)
      if (!(await this.repo.holdFolders(tx, scope, companyId, folder))) return false;
    return true;
  }

  /**
   * A folder path from a request as stored (`folder` normalised by requestPath). Each segment that
   * exists becomes the live folder's stored name, matched case-insensitively by the name as sent or as
   * sanitised; from the first that does not exist on, segments are sanitised as new folder names are, and
   * `missing` lists those folders. A file where a folder is asked answers 404.
   */
  async storedFolder(
    tx: DocTx,
    firmId: string,
    companyId: string,
    folder: string,
    lock?: 'share',
  ): Promise<{ path: string; missing: string[] }> {
    const segments = folder.split('/').filter(Boolean);
    let path = '';
    for (const [i, segment] of segments.entries()) {
      const found = await this.repo.findChild(
        tx,
        firmScope(firmId),
        companyId,
        path,
        [segment, sanitiseName(segment)],
        lock,
      );
      if (found && found.type !== 'folder') throw notFound(Messages.folderNotFound);
      if (!found) {
        const names = segments.slice(i).map(sanitiseName);
        if (names.some((name) => !name))
          throw badRequest(Messages.folderNotFound, { path: Messages.folderNotFound });
        const missing = names.map((_, j) => `${path}/${names.slice(0, j + 1).join('/')}`);
        return { path: missing[missing.length - 1] as string, missing };
      }
      path = joinPath(path, found.name);
    }
    return { path, missing: [] };
  }

  /**
   * An existing folder's stored path, or 404; its folders held while something is written into it
   * (unless `held` is false: a check before the writing transaction).
   */
  private async existingFolder(tx: DocTx, actor: Actor, companyId: string, folder: string, held = true) {
    const { path, missing } = await this.storedFolder(
      tx,
      actor.firm_id,
      companyId,
      folder,
      held ? 'share' : undefined,
    );
    if (missing.length) throw notFound(Messages.folderNotFound);
    return path;
  }

  /**
   * A folder takes its contents with it (rename, move, copy, delete): for a client, none of them may be
   * STAFF ONLY or in a folder the company blocks, where they are now or, when `to` is given, where they
   * would land.
   */
  private async assertCanCarryContents(
    tx: DocTx,
    actor: Actor,
    item: ItemRow,
    from: CompanyAccess,
    to?: { access: CompanyAccess; path: string },
  ) {
    if (!isClient(actor) || item.type !== 'folder') return;
    const oldFull = fullPathOf(item);
    const places = [carryPlace(oldFull, from)];
    if (to) places.push(carryPlace(to.path, to.access));
    // Asked of the database in one query: the folder's contents are never loaded for it.
    if (await this.repo.holdsRestricted(tx, firmScope(actor.firm_id), item.companyId, oldFull, places))
      throw disabledByFirm();
  }

  /**
   * A folder's items, a page at a time (keyset on the listing order); in columns when asked. Every
   * page checks access and the folder again: a token only says where to continue.
   */
  async list(actor: Actor, req: GetDocumentsRequest) {
    const access = await this.access.company(actor, req.companyId);
    assertDocumentsView(actor, access);
    if (req.showWithDeleted) assertAdvisor(actor);
    const asked = requestPath(req.path);
    assertVisiblePath(actor, asked);
    const after = req.pageToken ? decodePageToken(req.pageToken) : undefined;
    if (req.pageToken && !after)
      throw badRequest(Messages.badPageToken, { pageToken: Messages.badPageToken });
    const scope = firmScope(actor.firm_id);
    if (req.lean) return this.listLean(actor, req, access.companyId, asked, after);
    const limit = rowsToRead(pageSizeOf(req.pageSize), req.columnar);
    const { folder, rows, counts, more } = await this.repo.transaction(scope, async (tx) => {
      const folder = await this.listedFolder(tx, actor, access.companyId, asked, {
        after,
        withDeleted: req.showWithDeleted,
      });
      const fetched = await this.repo.listPage(
        tx,
        scope,
        access.companyId,
        folder,
        req.showWithDeleted,
        limit + 1,
        after,
      );
      const page = fetched.slice(0, fitToBudget(fetched.slice(0, limit), req.columnar));
      const counts = await this.repo.liveCounts(tx, scope, access.companyId, page, isClient(actor));
      return { folder, rows: page, counts, more: fetched.length > page.length };
    });
    const last = rows[rows.length - 1];
    const nextPageToken = more && last ? encodePageToken(cursorAfter(last)) : '';
    const forClient = isClient(actor);
    const visible = rows.filter((row) => !forClient || !isStaffOnly(joinPath(row.folder, row.name)));
    const itemsCount = (row: ListedRow) => counts.get(joinPath(row.folder, row.name)) ?? 0;
    return {
      ...(req.columnar
        ? { columns: toColumns(access.companyId, visible, itemsCount, forClient) }
        : {
            documents: visible.map((row) =>
              listedToDocumentItem(access.companyId, row, itemsCount(row), forClient),
            ),
          }),
      path: folder || '/',
      count: visible.length,
      nextPageToken,
    };
  }

  /**
   * A page in the file manager's lean REST shape, built by PostgreSQL as one JSON text and passed on as
   * it is (the gateway joins the pages): no object per item in this process or the gateway. A page is
   * as large as the bus's max_payload allows, so a folder of ten thousand items is one page.
   */
  private async listLean(
    actor: Actor,
    req: GetDocumentsRequest,
    companyId: string,
    asked: string,
    after: ListCursor | undefined,
  ) {
    const scope = firmScope(actor.firm_id);
    const budget = leanPageBudget(this.bus.maxPayload);
    const { folder, page } = await this.repo.transaction(scope, async (tx) => {
      const folder = await this.listedFolder(tx, actor, companyId, asked, {
        after,
        withDeleted: req.showWithDeleted,
      });
      const page = await this.repo.listLeanPage(tx, scope, companyId, folder, {
        withDeleted: req.showWithDeleted,
        limit: leanRowsToRead(req.pageSize, budget),
        budget,
        forClient: isClient(actor),
        insideStaffOnly: isStaffOnly(folder),
        after,
      });
      return { folder, page };
    });
    return {
      leanItems: page.text,
      path: folder || '/',
      count: page.count,
      nextPageToken: page.more && page.last ? encodePageToken(cursorAfter(page.last)) : '',
    };
  }

  async search(actor: Actor, req: SearchDocumentsRequest) {
    const access = await this.access.company(actor, req.companyId);
    assertDocumentsView(actor, access);
    if (req.showWithDeleted) assertAdvisor(actor);
    const term = req.searchTerm.trim();
    if (!term) return { documents: [], path: '/', count: 0 };
    const scope = firmScope(actor.firm_id);
    const rows = await this.repo.transaction(scope, (tx) =>
      this.repo.search(tx, scope, access.companyId, term, {
        withDeleted: req.showWithDeleted,
        forClient: isClient(actor),
      }),
    );
    // The query already leaves STAFF ONLY out for a client (before its limit); read again here by
    // paths.rules, the rule's own wording, so a client never sees such an item should the database's
    // Unicode tables read a name otherwise.
    const visible = rows
      .filter((row) => !isClient(actor) || !isStaffOnly(fullPathOf(row)))
      .slice(0, SEARCH_LIMIT);
    return {
      documents: visible.map((row) => toDocumentItem(row, isClient(actor))),
      path: '/',
      count: visible.length,
      moreMatches: rows.length > SEARCH_LIMIT,
    };
  }

  async createFolder(actor: Actor, req: CreateFolderRequest) {
    const access = await this.access.company(actor, req.companyId);
    assertDocumentsView(actor, access);
    const asked = requestPath(req.path);
    const name = fittedName(sanitiseName(req.name));
    if (!name) throw badRequest(Messages.folderNameRequired, { name: Messages.folderNameRequired });
    // The system folders are made by the product only.
    if (isInSystemFolder(joinPath(asked, name))) throw systemFolder();
    assertCanChange(actor, access, 'folder', joinPath(asked, name));
    const scope = firmScope(actor.firm_id);
    const creating = this.repo.transaction(scope, async (tx) => {
      const parent = await this.existingFolder(tx, actor, access.companyId, asked);
      // Again as stored: a segment matched by its sanitised name can be the system folder or a blocked one.
      if (isInSystemFolder(joinPath(parent, name))) throw systemFolder();
      assertCanChange(actor, access, 'folder', joinPath(parent, name));
      if (!pathsFit([joinPath(parent, name)])) throw pathTooLong();
      if (await this.repo.findLive(tx, scope, access.companyId, joinPath(parent, name))) throw nameTaken();
      const created = await this.repo.insert(tx, {
        firmId: scope.firmId,
        companyId: access.companyId,
        folder: parent,
        name,
        type: 'folder',
        createdBy: actor.user_id,
      });
      await recordItemEvent(tx, 'created', actor, created);
      return created;
    });
    const row = await nameTakenOnRace(creating);
    return { document: toDocumentItem(row, isClient(actor)), message: Messages.updated };
  }

  async rename(actor: Actor, req: RenameItemRequest) {
    const access = await this.access.company(actor, req.companyId);
    assertDocumentsView(actor, access);
    const folder = requestPath(req.path);
    const scope = firmScope(actor.firm_id);
    const renaming = this.repo.transaction(scope, async (tx) => {
      const item = await this.liveOrThrow(
        tx,
        actor,
        access.companyId,
        joinPath(folder, req.itemName.trim()),
        'update',
      );
      if (item.isSystem || isSystemPath(fullPathOf(item))) throw systemFolder();
      assertCanChange(actor, access, kindOf(item), fullPathOf(item));
      const newName =
        item.type === 'file'
          ? renamedFileName(item.name, req.newName)
          : fittedName(sanitiseName(req.newName));
      if (!newName) throw badRequest(Messages.nameRequired, { newName: Messages.nameRequired });
      const newPath = joinPath(item.folder, newName);
      // The system folders are the product's, also before a company's first listing has made them.
      if (isSystemPath(newPath)) throw systemFolder();
      assertCanChange(actor, access, kindOf(item), newPath);
      if (newName === item.name) return item;
      await this.assertFits(tx, item, newPath);
      await this.assertCanCarryContents(tx, actor, item, access, { access, path: newPath });
      const clash = await this.repo.findLive(tx, scope, access.companyId, newPath);
      if (clash && clash.id !== item.id) throw nameTaken();
      const renamed = await this.repo.update(tx, scope, item.id, { name: newName });
      if (item.type === 'folder')
        await this.repo.moveSubtree(tx, scope, item.companyId, fullPathOf(item), fullPathOf(renamed));
      await recordItemEvent(tx, 'renamed', actor, item, { newPath: fullPathOf(renamed) });
      return renamed;
    });
    const row = await nameTakenOnRace(renaming);
    return { document: toDocumentItem(row, isClient(actor)), message: Messages.updated };
  }

  /**
   * Move (deleteOldPath) or copy an item into a folder of the same or another company of the firm.
   *
   * A copy, and a move to another company, copy their objects first, outside any transaction
   * (copyObjects): copied inside it, the item and the destination's folders stayed held and a pooled
   * connection taken for as long as the copies took (sixteen at a time, each up to 10 s and its
   * retries), so a large folder's copy kept every upload, new folder, move or delete there waiting until
   * it failed (504), and a few at once took the replica's connections. The transaction then finds and
   * checks everything again, holds it, and writes the rows only if what it holds is what was copied
   * (writeCopies); otherwise it answers 409 and the copies are deleted.
   */
  async move(actor: Actor, req: MoveItemRequest) {
    const toOtherCompany = Boolean(req.newCompanyId) && req.newCompanyId !== req.companyId;
    // Choosing another company is the advisors' (the file manager offers it to them only): a client
    // with two entities keeps each one's files with it.
    if (toOtherCompany) assertAdvisor(actor);
    const source = await this.access.company(actor, req.companyId);
    assertDocumentsView(actor, source);
    const target = toOtherCompany ? await this.access.company(actor, req.newCompanyId) : source;
    const moving = req.deleteOldPath;
    const request: MoveRequest = {
      actor,
      source,
      target,
      askedOldPath: requestPath(req.oldPath),
      askedDestination: requestPath(req.newPath),
      moving,
    };
    const sameCompany = target.companyId === source.companyId;
    const scope = firmScope(actor.firm_id);
    const created: string[] = [];
    const obsolete: string[] = [];
    try {
      // A move within its company changes rows only; everything else writes objects under new keys.
      const copied = moving && sameCompany ? undefined : await this.copyObjects(request, created);
      const row = await this.repo.transaction(scope, async (tx) => {
        // A copy holds its source as a writer does ('share'): not deleted or moved while it is read.
        const { item, destination } = await this.checkedMove(tx, request, moving ? 'update' : 'share');
        const oldPath = fullPathOf(item);
        if (moving && sameCompany && item.folder === destination) return item;
        const name = moving
          ? item.name
          : (
              await new FreeNames((names) =>
                this.repo.takenAmong(tx, scope, target.companyId, destination, names),
              ).next(item.name)
            ).name;
        if (moving && (await this.repo.findLive(tx, scope, target.companyId, joinPath(destination, name))))
          throw nameTaken();
        const newFull = joinPath(destination, name);
        // Nor does an item become one (a folder named _portico moved to the root before the company's
        // first listing has made the real one).
        if (isSystemPath(newFull)) throw systemFolder();
        await this.assertFits(tx, item, newFull);
        if (moving && sameCompany) {
          const moved = await this.repo.update(tx, scope, item.id, { folder: destination, name });
          if (item.type === 'folder')
            await this.repo.moveSubtree(tx, scope, item.companyId, oldPath, newFull);
          await recordItemEvent(tx, 'moved', actor, item, { newPath: newFull });
          return moved;
        }
        // Copies, and moves to another company: new rows for the objects copied, under the target's keys.
        const copies = await this.writeCopies(tx, actor, item, copied as CopiedObjects, {
          companyId: target.companyId,
          destination,
          name,
          // A folder's contents held as the folder is (see writeCopies): a file in it deleted, renamed
          // or moved out meanwhile stayed live in the target too (or under its old name).
          lock: moving ? 'update' : 'share',
        });
        if (moving) {
          // The files and previews of the rows removed, and no others: a file deleted or moved out of the
          // folder before its contents were read was not copied, and keeps its row here and so its
          // object. Nothing points at these once their rows are gone.
          obsolete.push(...(await this.repo.removeMoved(tx, scope, item)));
          await this.uploads.discardStoredAt(tx, scope, obsolete);
          await recordItemEvent(tx, 'moved', actor, item, {
            newPath: newFull,
            newCompanyId: target.companyId,
          });
        } else {
          await recordItemEvent(tx, 'copied', actor, item, {
            newPath: newFull,
            newCompanyId: target.companyId,
          });
        }
        return copies;
      });
      await deleteObjects(this.store, obsolete, this.log);
      return { document: toDocumentItem(row, isClient(actor)), message: Messages.updated };
    } catch (err) {
      await deleteObjects(this.store, created, this.log);
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  /**
   * The item a move or copy takes and the destination folder as stored, checked (404, 403 and 400 as
   * the request deserves). With `lock`, the item is held so and each folder of the destination 'share'
   * (RowLock) until the transaction ends; unheld, it is the check a copy makes before it copies anything.
   */
  private async checkedMove(tx: DocTx, request: MoveRequest, lock?: RowLock) {
    const { actor, source, target, askedOldPath, askedDestination, moving } = request;
    const item = await this.liveOrThrow(tx, actor, source.companyId, askedOldPath, lock);
    // As stored: the asked path may differ from it in case.
    const oldPath = fullPathOf(item);
    // The system folders stay where they are, and nothing goes into them by hand (spec 3 s.9).
    if (item.isSystem || isSystemPath(oldPath) || isInSystemFolder(askedDestination)) throw systemFolder();
    if (moving) assertCanChange(actor, source, kindOf(item), oldPath);
    assertCanChange(actor, target, kindOf(item), joinPath(askedDestination, item.name));
    const destination = await this.existingFolder(tx, actor, target.companyId, askedDestination, !!lock);
    // Again as stored: a segment matched by its sanitised name can be the system folder or a blocked one.
    if (isInSystemFolder(destination)) throw systemFolder();
    assertCanChange(actor, target, kindOf(item), joinPath(destination, item.name));
    const sameCompany = target.companyId === source.companyId;
    if (item.type === 'folder' && sameCompany && isWithin(destination, oldPath))
      throw badRequest(moving ? Messages.intoItself : Messages.copyIntoItself);
    // A move to where it is already changes nothing.
    if (!(moving && sameCompany && item.folder === destination))
      await this.assertCanCarryContents(tx, actor, item, source, {
        access: target,
        path: joinPath(destination, item.name),
      });
    return { item, destination };
  }

  /**
   * What a copy (or a move to another company) takes, copied before its transaction: the request checked
   * and the item and its contents read in a short transaction that holds nothing, then each object copied
   * to a key of the target company under a new id, a few at a time (each copy is a round trip to the
   * store), each key noted in `created` before its copy so that a failure deletes whatever was made; no
   * copy is started once the caller has stopped waiting.
   */
  private async copyObjects(request: MoveRequest, created: string[]): Promise<CopiedObjects> {
    const { actor, target, moving } = request;
    const scope = firmScope(actor.firm_id);
    const { item, read } = await this.repo.transaction(scope, async (tx) => {
      const { item, destination } = await this.checkedMove(tx, request);
      // Refused before anything is copied, as the transaction would refuse it: a move onto a name
      // taken, a path too long (a copy's number, added later, is checked there).
      const full = joinPath(destination, item.name);
      if (moving && (await this.repo.findLive(tx, scope, target.companyId, full))) throw nameTaken();
      if (moving && isSystemPath(full)) throw systemFolder();
      await this.assertFits(tx, item, full);
      return { item, read: await this.contentsOf(tx, item) };
    });
    const ids = read.map(() => randomUUID());
    const keys = await mapLimited(read, COPY_CONCURRENCY, async (r, i) => {
      if (!r.storageKey) return null;
      assertBeforeDeadline();
      const storageKey = StorageKeys.file(scope.firmId, target.companyId, ids[i] as string);
      created.push(storageKey);
      await this.store.copy(r.storageKey, storageKey);
      return storageKey;
    });
    return { itemId: item.id, read, ids, keys };
  }

  /**
   * What a copy takes: the item and, for a folder, what is live inside it, held by `lock` until the
   * transaction ends. A split's hidden source is not copied: its parts are, and a copy would show it
   * again beside them.
   */
  private async contentsOf(tx: DocTx, item: ItemRow, lock?: RowLock): Promise<SubtreeRow[]> {
    if (item.type !== 'folder') return [item];
    const inside = await this.repo.subtree(
      tx,
      firmScope(item.firmId),
      item.companyId,
      fullPathOf(item),
      'live',
      lock,
    );
    return [item, ...inside.filter((r) => !r.hidden)];
  }

  /**
   * Writes the rows of what `copied` copied, `item` at `destination` in `companyId` under `name` and a
   * folder's contents below it; the contents held by `lock` until the transaction ends. The objects were
   * copied from the contents read unheld (held, every change of a file inside, an edit, a delete, the
   * preview's record, waited for the copies, up to the request's limit, and failed on its statement
   * timeout). Held now, item and contents must still be the files copied, each with its object; the
   * names, folders and details are taken as they are now (a rename or an edit meanwhile is kept).
   * Otherwise the call answers 409 and the caller deletes its copies: a file gone meanwhile would need
   * its copy taken back, one come in (uploaded, split) a copy not made, and one answer for both writes
   * nothing half-way. It is rare: a copy is sent again.
   */
  private async writeCopies(
    tx: DocTx,
    actor: Actor,
    item: ItemRow,
    copied: CopiedObjects,
    to: { companyId: string; destination: string; name: string; lock: RowLock },
  ): Promise<ItemRow> {
    const { companyId, destination, name } = to;
    // Another item of that name since (the one read moved away or deleted, another put in its place).
    if (item.id !== copied.itemId) throw folderChanged();
    const rows = await this.contentsOf(tx, item, to.lock);
    const keyOf = new Map(copied.read.map((r) => [r.id, r.storageKey]));
    if (rows.length !== keyOf.size || rows.some((r) => !keyOf.has(r.id) || keyOf.get(r.id) !== r.storageKey))
      throw folderChanged();
    const oldFull = fullPathOf(item);
    const newFull = joinPath(destination, name);
    // Each row with the id and key its object was copied to.
    const at = new Map(copied.read.map((r, i) => [r.id, i]));
    const inserted = await this.repo.insertMany(
      tx,
      rows.map((r) => {
        const i = at.get(r.id) as number;
        // The item itself is the first row; the rest keep their place below it.
        const isTop = r.id === item.id;
        return {
          id: copied.ids[i] as string,
          firmId: item.firmId,
          companyId,
          folder: isTop ? destination : newFull + r.folder.slice(oldFull.length),
          name: isTop ? name : r.name,
          type: r.type,
          storageKey: copied.keys[i] ?? null,
          size: r.size,
          contentType: r.contentType,
          description: r.description,
          tags: r.tags,
          isProtected: r.isProtected,
          uploadType: r.uploadType,
          createdBy: actor.user_id,
        };
      }),
    );
    const top = inserted.find((row) => row.id === copied.ids[0]);
    return top as ItemRow;
  }

  async update(actor: Actor, req: UpdateItemRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, req.companyId);
    if (req.updateTags && !access.preferences?.documentTagsEnabled)
      throw new AppError('forbidden', 'tags_disabled', Messages.tagsDisabled);
    const path = requestPath(req.link);
    const scope = firmScope(actor.firm_id);
    const changes = {
      ...(req.description !== undefined ? { description: req.description.trim().slice(0, 1_000) } : {}),
      ...(req.updateTags ? { tags: [...new Set(req.tags.map((t) => t.trim()).filter(Boolean))] } : {}),
    };
    const row = await this.repo.transaction(scope, async (tx) => {
      // Held as a delete holds it, so an item deleted or moved away meanwhile is not found (404).
      const item = await this.liveOrThrow(tx, actor, access.companyId, path, 'update');
      assertCanChange(actor, access, 'file_edit', fullPathOf(item));
      const updated = await this.repo.update(tx, scope, item.id, changes);
      // Its extracted document shows the same description and tags, as update_description and
      // update_tags keep them: it showed the old ones after an edit in the tree.
      if (item.extractedDocumentId) await this.extracted.update(tx, scope, item.extractedDocumentId, changes);
      await recordItemEvent(tx, 'updated', actor, item);
      return updated;
    });
    return { document: toDocumentItem(row, isClient(actor)), message: Messages.updated };
  }

  /**
   * delete_document: a name in a folder. An empty name would leave the folder's own path (and delete the
   * folder), and a name never holds '/', so a name with one names nothing here.
   */
  deleteDocument(actor: Actor, req: DeleteDocumentRequest) {
    const folder = requestPath(req.path);
    const name = req.documentName.trim();
    if (!name) throw badRequest(Messages.nameRequired, { documentName: Messages.nameRequired });
    if (name.includes('/')) throw notFound();
    return this.deletePath(actor, req.companyId, joinPath(folder, name));
  }

  /** delete_path: a full path. Soft delete; a folder takes its contents with it. */
  async deletePath(actor: Actor, companyId: string, path: string) {
    const access = await this.access.company(actor, companyId);
    const full = requestPath(path);
    const scope = firmScope(actor.firm_id);
    await this.repo.transaction(scope, async (tx) => {
      const item = await this.liveOrThrow(tx, actor, access.companyId, full, 'update');
      if (item.isSystem || isSystemPath(fullPathOf(item))) throw systemFolder();
      // A questionnaire removes its own uploads by path (spec 2), also with the Documents view hidden.
      assertCanRemoveWithoutDocumentsView(actor, access, item);
      // As stored, as rename and move check it: '/Tax  Returns' typed finds the blocked '/Tax Returns'.
      assertCanChange(actor, access, kindOf(item), fullPathOf(item));
      await this.assertCanCarryContents(tx, actor, item, access);
      await this.repo.softDelete(tx, scope, item);
      await recordItemEvent(tx, 'deleted', actor, item);
    });
    return { message: Messages.deleted };
  }

  /** Restore is offered on deleted items, which only advisors see. */
  async restore(actor: Actor, req: RestoreDocumentRequest) {
    assertAdvisor(actor);
    const access = await this.access.company(actor, req.companyId);
    const full = requestPath(req.path);
    // An id that is not a UUID names no item (and the query could not take it).
    if (req.id && !isUuid(req.id)) throw notFound();
    const scope = firmScope(actor.firm_id);
    try {
      const row = await this.repo.transaction(scope, async (tx) => {
        const item = await this.repo.findDeleted(tx, scope, access.companyId, full, req.id || undefined);
        if (!item) {
          if (await this.repo.findLive(tx, scope, access.companyId, full))
            throw badRequest(Messages.notDeleted);
          throw notFound();
        }
        assertCanChange(actor, access, kindOf(item), fullPathOf(item));
        if (await this.repo.findLive(tx, scope, access.companyId, fullPathOf(item)))
          throw new AppError('conflict', 'restore_conflict', Messages.restoreConflict);
        // Into the folders as they are now: one recreated since under another case keeps its spelling.
        const parent = (await this.storedFolder(tx, actor.firm_id, access.companyId, item.folder, 'share'))
          .path;
        if (!(await this.ensureFolders(tx, actor, actor.firm_id, access.companyId, parent)))
          throw new AppError('conflict', 'restore_conflict', Messages.restoreConflict);
        // Two restores at once both found it deleted: the second waited for the first's row and restored
        // nothing, and answers as it would after it (nothing written, nothing announced).
        if (!(await this.repo.restore(tx, scope, item))) throw badRequest(Messages.notDeleted);
        if (parent !== item.folder) {
          await this.repo.update(tx, scope, item.id, { folder: parent });
          if (item.type === 'folder')
            await this.repo.moveSubtree(
              tx,
              scope,
              item.companyId,
              fullPathOf(item),
              joinPath(parent, item.name),
            );
        }
        const restored = { ...item, folder: parent, deletedAt: null };
        await recordItemEvent(tx, 'restored', actor, restored);
        return restored;
      });
      return { document: toDocumentItem(row, isClient(actor)), message: Messages.restored };
    } catch (err) {
      if (isUniqueViolation(err))
        throw new AppError('conflict', 'restore_conflict', Messages.restoreConflict);
      throw err;
    }
  }

  /**
   * The live item at a path, or 404; `lock` 'update' for a delete, rename or move (see RowLock). A
   * client is held to the stored path of what was found: a path typed otherwise ('(STAFF  ONLY)') finds
   * the same item.
   */
  async liveOrThrow(
    tx: DocTx,
    actor: Actor,
    companyId: string,
    full: string,
    lock?: RowLock,
  ): Promise<ItemRow> {
    assertVisiblePath(actor, full);
    const item = await this.repo.findLive(tx, firmScope(actor.firm_id), companyId, full, lock);
    if (!item || item.hidden) throw notFound();
    assertVisiblePath(actor, fullPathOf(item));
    return item;
  }

  /** 400 when `item` at `newFull` would give it, or the deepest of its contents, too long a path. */
  private async assertFits(tx: DocTx, item: ItemRow, newFull: string) {
    const below =
      item.type === 'folder'
        ? await this.repo.deepestBelow(tx, firmScope(item.firmId), item.companyId, fullPathOf(item))
        : 0;
    if (!pathsFit([newFull], below)) throw pathTooLong();
  }

  /**
   * The folder a listing reads, as stored: a path asked in another case lists the folder it names. With
   * deleted items shown (advisors), a deleted folder opens too, so what is in it can be restored one by
   * one, also when a folder of the same name in another case was made since. The root makes sure the
   * system folders exist (on the first page).
   */
  private async listedFolder(
    tx: DocTx,
    actor: Actor,
    companyId: string,
    asked: string,
    options: { after: ListCursor | undefined; withDeleted: boolean },
  ): Promise<string> {
    if (!asked) {
      if (!options.after) await this.ensureSystemFolders(tx, actor.firm_id, companyId);
      return asked;
    }
    const scope = firmScope(actor.firm_id);
    const live = await this.repo.findLive(tx, scope, companyId, asked);
    // With deleted items shown, a deleted folder spelled exactly as asked wins over a live one whose name
    // differs only in case (made again after the delete): each opens on its own items.
    const deleted =
      options.withDeleted && (!live || fullPathOf(live) !== asked)
        ? await this.repo.findDeleted(tx, scope, companyId, asked)
        : undefined;
    const folder = deleted && (!live || fullPathOf(deleted) === asked) ? deleted : live;
    if (folder?.type !== 'folder') throw notFound(Messages.folderNotFound);
    // As stored: a folder typed otherwise ('(STAFF  ONLY)') is found too, and a client's lean page leaves
    // out only the items whose own names are STAFF ONLY.
    assertVisiblePath(actor, fullPathOf(folder));
    return fullPathOf(folder);
  }

  /** For other modules: the company access or 404. */
  companyAccess(actor: Actor, companyId: string): Promise<CompanyAccess> {
    return this.access.company(actor, companyId);
  }
}

const SYSTEM_FOLDERS = [SIGNATURE_REQUESTS_FOLDER, TAX_RETURN_DELIVERY_FOLDER];
const nameTaken = () => new AppError('conflict', 'name_taken', Messages.nameTaken);
/** 409: what a copy holds is not what it copied (see writeCopies). */
const folderChanged = () => new AppError('conflict', 'folder_changed', Messages.folderChangedWhileCopied);

/** A move or copy as asked, its companies' access known. */
type MoveRequest = {
  actor: Actor;
  source: CompanyAccess;
  target: CompanyAccess;
  askedOldPath: string;
  askedDestination: string;
  moving: boolean;
};

/**
 * What a copy copied before its transaction: the item's id, the item and its contents as read (in that
 * order), and for each the new item's id and the key its object was copied to (null for a folder).
 */
type CopiedObjects = {
  itemId: string;
  read: SubtreeRow[];
  ids: string[];
  keys: (string | null)[];
};
/** 403: the system folder and what is in it are the product's. */
export const systemFolder = () => new AppError('forbidden', 'system_folder', Messages.systemFolder);
