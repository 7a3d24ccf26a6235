import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  badRequest,
  type FirmScope,
  firmScope,
  hasControlCharacters,
  hasHiddenCharacters,
  isUuid,
  type Logger,
} from '@portico/platform';
import type {
  DeleteDropOffsRequest,
  DropOffLinksRequest,
  DropOffProcessRequest,
  ListDropOffsRequest,
} from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import { notFound } from '../access/access.rules.js';
import type { DocumentsConfig } from '../config.js';
import { mapLimited } from '../jobs/map-limited.js';
import { Messages } from '../messages.js';
import type { dropOffs, UploadRow } from '../schema.js';
import { deleteObjects, type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { CONFIG, LOG, OBJECT_STORE } from '../tokens.js';
import { MAX_FILES_PER_UPLOAD } from '../uploads/file-type.rules.js';
import { type Checked, UploadValidator } from '../uploads/upload-validator.js';
import { distinctUploadIds, UploadsRepository } from '../uploads/uploads.repository.js';
import {
  assertUploadFiles,
  invalidFileResult,
  storedName,
  UploadsService,
  VALIDATE_CONCURRENCY,
  withClaimedUploads,
} from '../uploads/uploads.service.js';
import { callerOf } from './caller-address.rules.js';
import { decodeDropLinkId, encodeDropLinkId } from './drop-link-id.rules.js';
import { DROP_LINK_MANAGERS, dropLinkManagers } from './drop-link-recipients.rules.js';
import { DropLinksRepository } from './drop-links.repository.js';
import { decodeDropOffPage, encodeDropOffPage } from './drop-off-page.rules.js';

const DAY_MS = 24 * 3600_000;

/** Drop Link is for partners, admins and full users (spec 1 s.6). */
function assertDropLinkManager(actor: Actor): void {
  if (actor.role !== 'advisor' || !DROP_LINK_MANAGERS.includes(actor.firm_access ?? ''))
    throw new AppError('forbidden', 'drop_link_forbidden', 'You do not have permission to do that');
}

const invalidLink = () => new AppError('not_found', 'drop_link_invalid', Messages.dropLinkInvalid);

/** A public page's firm must have its drop link on. */
function dropLinkOn<F extends { preferences?: { dropLinkEnabled?: boolean } }>(firm: F): F {
  if (!firm.preferences?.dropLinkEnabled)
    throw new AppError('not_found', 'drop_link_disabled', Messages.dropLinkDisabled);
  return firm;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

/** Received files listed per page, and at most per page or per delete. */
export const DROP_OFF_PAGE = 100;
export const MAX_DROP_OFF_PAGE = 500;
const PAGE_INVALID = 'This page of received files is not valid';
const NOTHING_SELECTED = 'Choose the files to delete';
const TOO_MANY_SELECTED = `Delete at most ${MAX_DROP_OFF_PAGE} files at once`;

const UPLOADER_NAME_MISSING = 'Please enter your name';
const UPLOADER_NAME_CHARACTERS = 'Your name contains characters that are not allowed';
const UPLOADER_NAME_ADDRESS = 'Your name cannot contain a web address';
const WEB_ADDRESS = /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i;
const NOTE_CHARACTERS = 'The note contains characters that are not allowed';

/** The firm drop link (spec 1 s.5.4, s.9): settings, and public uploads that notify the chosen advisors. */
@Injectable()
export class DropLinksService {
  constructor(
    private readonly repo: DropLinksRepository,
    private readonly uploads: UploadsRepository,
    private readonly uploadLinks: UploadsService,
    private readonly validator: UploadValidator,
    private readonly access: AccessClient,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CONFIG) private readonly config: DocumentsConfig,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /**
   * The Drop Link page is offered to partners, admins and full users "when drop link is enabled" (spec 1
   * s.2.2), so its calls are too: with the switch off they answer 403 and change nothing. What was
   * received before is kept, and is there again once the switch is back on.
   */
  private async managedFirm(actor: Actor) {
    assertDropLinkManager(actor);
    const firm = await this.access.firmContacts({ firmId: actor.firm_id, userIds: [] });
    if (!firm.preferences?.dropLinkEnabled)
      throw new AppError('forbidden', 'drop_link_disabled', Messages.dropLinkDisabled);
    return firm;
  }

  /**
   * The settings page: the users offered to be told of drop-offs are those who may open Drop Link
   * (partners, admins, full users), who can download what they are told of; the saved list as it stands
   * among them (a user chosen before who lost the access is not offered, nor saved again).
   */
  async get(actor: Actor) {
    const firm = await this.managedFirm(actor);
    const offered = dropLinkManagers(firm.users);
    const saved = new Set(firm.preferences?.firmUserIdsToReceiveDropLinkNotification ?? []);
    return {
      id: this.dropLinkIdOf(firm),
      firmName: firm.name,
      firmSlug: firm.theme?.slug ?? '',
      notifyUserIds: offered.filter((u) => saved.has(u.id)).map((u) => u.id),
      enabled: !!firm.preferences?.dropLinkEnabled,
      firmUsers: offered.map((u) => ({ id: u.id, fullName: u.fullName, email: u.email })),
    };
  }

  /**
   * Who is emailed of drop-offs: the firm preference firm_user_ids_to_receive_drop_link_notification,
   * which identity owns and checks (at least one of the firm's partners, admins and full users: 'Please
   * select at least one user to receive notifications', 'Choose firm users from the list').
   */
  async save(actor: Actor, userIds: string[]) {
    await this.managedFirm(actor);
    await this.access.setDropLinkRecipients(actor, userIds).catch((err) => {
      // The same refusal, on this API's field.
      if (err instanceof AppError && err.status === 400)
        throw badRequest(err.message, { notifyUserIds: err.message });
      throw err;
    });
    return this.get(actor);
  }

  /**
   * The public page's header: which firm this link drops to. /drop-link names the firm by its drop link
   * id; /secure-upload by the firm's slug (the portal's own firm), and is answered with the id to upload
   * through, as long as the firm has its drop link on.
   */
  async info(req: { dropLinkId: string; firmSlug: string }) {
    const firm = req.dropLinkId ? await this.firmOf(req.dropLinkId) : await this.firmBySlug(req.firmSlug);
    return {
      firmName: firm.name,
      firmSlug: firm.theme?.slug ?? '',
      logoUrl: firm.theme?.logoUrl ?? '',
      primary: firm.theme?.primary ?? '',
      hideSignInButton: firm.preferences?.hideSignInButtonOnDropLink ?? false,
      dropLinkId: this.dropLinkIdOf(firm),
    };
  }

  /**
   * Upload links for an anonymous uploader, within the drop link's day (UploadsRepository.create): the
   * firm's budget, and the caller's share of it, the caller known by the address the gateway saw
   * (`ip`, grouped as the gateway groups addresses and kept only hashed). `renewUploadIds`: uploads this
   * caller was handed before and has not processed, whose links a long drop-off outlives; they are signed
   * again (the same upload, key, size and type, a fresh expiry), answered first in that order, and count
   * nothing new: asking new links for them made new uploads, counted again against the caller's share,
   * and a drop-off of many files was refused (429) half-way. When any of them is not such an upload
   * (unknown, another firm's or caller's, processed, swept), the call answers 404 and changes nothing.
   */
  async createLinks(req: DropOffLinksRequest, ip?: string) {
    const firm = await this.firmOf(req.dropLinkId);
    const renew = distinctUploadIds(req.renewUploadIds);
    if (req.files.length || !renew.length) assertUploadFiles(req.files);
    if (req.files.length + renew.length > MAX_FILES_PER_UPLOAD)
      throw badRequest(Messages.tooManyFiles, { files: Messages.tooManyFiles });
    const scope = firmScope(firm.firmId);
    const caller = callerOf(scope.firmId, ip);
    const renewed = await this.uploadLinks.renewedDropOffLinks(scope, renew, caller);
    if (!renewed) throw notFound();
    if (!req.files.length) return { links: renewed };
    const links = await this.uploadLinks.presignedLinks(
      scope,
      req.files,
      (id) => ({ companyId: null, storageKey: StorageKeys.dropOff(scope.firmId, id), caller }),
      {
        files: this.config.DROP_OFF_DAILY_FILES,
        bytes: this.config.DROP_OFF_DAILY_GB * 1024 ** 3,
        since: new Date(Date.now() - DAY_MS),
        caller,
        callerShare: this.config.DROP_OFF_ADDRESS_SHARE,
      },
    );
    return { links: [...renewed, ...links] };
  }

  /**
   * Claims the uploads, checks every one, then consumes them all and files the valid ones in one
   * transaction: a failed write leaves the uploads pending, so the uploader can send the same ids again.
   */
  async process(req: DropOffProcessRequest) {
    const firm = await this.firmOf(req.dropLinkId);
    const name = req.uploaderName.trim().slice(0, 200);
    const email = req.uploaderEmail.trim().toLowerCase();
    const note = req.note.trim().slice(0, 2_000);
    // The firm is told who left the files (the gateway refuses a blank name too).
    if (!name) throw badRequest(UPLOADER_NAME_MISSING, { uploaderName: UPLOADER_NAME_MISSING });
    if (!EMAIL.test(email))
      throw badRequest(Messages.uploaderEmail, { uploaderEmail: Messages.uploaderEmail });
    // The name goes into the firm's email: nothing that hides or reorders text, and no web address.
    if (hasControlCharacters(name) || hasHiddenCharacters(name))
      throw badRequest(UPLOADER_NAME_CHARACTERS, { uploaderName: UPLOADER_NAME_CHARACTERS });
    if (WEB_ADDRESS.test(name))
      throw badRequest(UPLOADER_NAME_ADDRESS, { uploaderName: UPLOADER_NAME_ADDRESS });
    if (hasControlCharacters(note, { typed: true }))
      throw badRequest(NOTE_CHARACTERS, { note: NOTE_CHARACTERS });
    const scope = firmScope(firm.firmId);
    const ids = distinctUploadIds(req.uploadIds);
    if (!ids.length) throw badRequest(Messages.noFiles);
    if (ids.length > MAX_FILES_PER_UPLOAD) throw badRequest(Messages.tooManyFiles);
    // The chosen firm users are emailed from the event recorded with the drop-offs (DropOffNotifier).
    const { files, invalid } = await withClaimedUploads(
      this.uploads,
      scope,
      ids,
      { companyId: null },
      async (pending) => {
        const checks = await mapLimited(pending, VALIDATE_CONCURRENCY, (upload) =>
          this.validator.check(upload, storedName(upload.fileName), { neverWhole: true }),
        );
        return this.fileDropOffs(scope, ids, pending, checks, { name, email, note });
      },
    );
    return {
      files,
      message: invalid.length ? Messages.invalidFiles : Messages.uploaded,
      invalidFiles: invalid,
    };
  }

  /**
   * Consumes the checked uploads and files the valid ones as drop-offs in one transaction; the objects
   * of invalid files are deleted once it has committed. 400 when none was valid.
   */
  private async fileDropOffs(
    scope: FirmScope,
    ids: string[],
    pending: UploadRow[],
    checks: Checked[],
    who: { name: string; email: string; note: string },
  ) {
    const files = [];
    const invalid: string[] = [];
    const unfiled: UploadRow[] = [];
    const good: (typeof dropOffs.$inferInsert)[] = [];
    for (const [i, upload] of pending.entries()) {
      const fileName = storedName(upload.fileName);
      const checked = checks[i] as Checked;
      if (!checked.valid) {
        invalid.push(upload.fileName);
        unfiled.push(upload);
        files.push(invalidFileResult(upload.id, fileName));
        continue;
      }
      good.push({
        id: upload.id,
        firmId: scope.firmId,
        storageKey: upload.storageKey,
        name: fileName,
        size: checked.size,
        contentType: checked.contentType,
        uploaderName: who.name,
        uploaderEmail: who.email,
        note: who.note,
      });
      files.push({
        uploadId: upload.id,
        documentName: fileName,
        isProtected: checked.isProtected,
        message: Messages.uploaded,
      });
    }
    await this.repo.transaction(scope, async (tx) => {
      const consumed = await this.uploads.consumeAll(tx, scope, ids);
      // Another call took some of them first: that call files them.
      if (consumed.size !== ids.length) throw notFound();
      await this.uploads.markDiscarded(
        tx,
        scope,
        unfiled.map((u) => u.id),
      );
      return good.length ? this.repo.addDropOffs(tx, scope, good, who) : [];
    });
    await deleteObjects(
      this.store,
      unfiled.map((u) => u.storageKey),
      this.log,
    );
    if (!good.length) throw badRequest(Messages.invalidFiles, undefined, 'invalid_files');
    return { files, invalid };
  }

  /** The received files, newest first, a page at a time (`page` from the page before). */
  async list(actor: Actor, req: ListDropOffsRequest) {
    await this.managedFirm(actor);
    const limit = Math.min(req.limit || DROP_OFF_PAGE, MAX_DROP_OFF_PAGE);
    const after = req.page ? decodeDropOffPage(req.page) : undefined;
    if (req.page && !after) throw badRequest(PAGE_INVALID, { page: PAGE_INVALID });
    // One more than asked tells whether another page follows.
    const rows = await this.repo.list(firmScope(actor.firm_id), limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      dropOffs: page.map(({ row: r }) => ({
        id: r.id,
        name: r.name,
        size: BigInt(r.size),
        uploaderName: r.uploaderName,
        uploaderEmail: r.uploaderEmail,
        note: r.note,
        createdAt: r.createdAt.toISOString(),
      })),
      nextPage: rows.length > limit && last ? encodeDropOffPage({ at: last.at, id: last.row.id }) : '',
    };
  }

  /**
   * Deletes received files for good, rows and objects (a visitor's spam, files already filed where they
   * belong). Ids of another firm, or unknown, are passed over; the objects go once the rows have.
   */
  async delete(actor: Actor, req: DeleteDropOffsRequest) {
    await this.managedFirm(actor);
    const ids = [...new Set(req.ids.map((id) => id.trim().toLowerCase()))];
    if (!ids.length) throw badRequest(NOTHING_SELECTED, { ids: NOTHING_SELECTED });
    if (ids.length > MAX_DROP_OFF_PAGE) throw badRequest(TOO_MANY_SELECTED, { ids: TOO_MANY_SELECTED });
    if (!ids.every(isUuid)) throw notFound();
    const scope = firmScope(actor.firm_id);
    const keys = await this.repo.transaction(scope, async (tx) => {
      const deleted = await this.repo.deleteMany(tx, scope, ids);
      await this.uploads.discardStoredAt(tx, scope, deleted);
      return deleted;
    });
    if (!keys.length) throw notFound();
    await deleteObjects(this.store, keys, this.log);
    return { deleted: keys.length, message: Messages.deleted };
  }

  async download(actor: Actor, id: string) {
    await this.managedFirm(actor);
    const row = isUuid(id) ? await this.repo.get(firmScope(actor.firm_id), id) : undefined;
    if (!row) throw notFound();
    const ttl = this.config.DOWNLOAD_LINK_TTL_SECONDS;
    const link = await this.store.presignGet(row.storageKey, ttl, row.name);
    return {
      document: {
        data: { link, fileName: row.name, expiresAt: new Date(Date.now() + ttl * 1000).toISOString() },
      },
    };
  }

  /** The decoded firm, which must exist under that name with the drop link on. */
  private async firmOf(dropLinkId: string) {
    const decoded = decodeDropLinkId(dropLinkId, this.config.DROP_LINK_KEY);
    if (!decoded) throw invalidLink();
    const firm = await this.dropOffFirm({ firmId: decoded.firmId });
    if (firm.name !== decoded.firmName) throw invalidLink();
    return dropLinkOn(firm);
  }

  /** The firm of a slug, which must have its drop link on; an unknown slug is an invalid link. */
  private async firmBySlug(slug: string) {
    const wanted = slug.trim().toLowerCase();
    if (!wanted || wanted.length > 200) throw invalidLink();
    return dropLinkOn(await this.dropOffFirm({ slug: wanted }));
  }

  /** The firm a public page names, by id or slug; one identity does not know is an invalid link. */
  private dropOffFirm(lookup: { firmId: string } | { slug: string }) {
    return this.access.firmContacts({ ...lookup, userIds: [] }).catch((err) => {
      if (err instanceof AppError && err.status === 404) throw invalidLink();
      throw err;
    });
  }

  private dropLinkIdOf(firm: { firmId: string; name: string }): string {
    return encodeDropLinkId(firm.firmId, firm.name, this.config.DROP_LINK_KEY);
  }
}
