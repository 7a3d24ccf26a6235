import { type Actor, AppError, advisorOnly } from '@portico/platform';
import type { CompanyAccess } from '@portico/proto';
import type { CarryPlace } from '../items/items.repository.js';
import {
  clientActionsDisabledIn,
  clientBlockedPrefixes,
  isInSystemFolder,
  isStaffOnly,
  isWithin,
  sanitisedPath,
} from '../items/paths.rules.js';
import { Messages } from '../messages.js';

/** What a change touches, for the firm's client-action preferences (spec 1 s.4.3). */
export type ChangeKind = 'upload' | 'folder' | 'file_edit';

export const notFound = (message: string = Messages.notFound) =>
  new AppError('not_found', 'document_not_found', message);
export const disabledByFirm = () => new AppError('forbidden', 'disabled_by_firm', Messages.disabledByFirm);
export const isClient = (actor: Actor) => actor.role === 'client';

/**
 * The firm's hide_documents_view_from_clients (spec 1 s.2.2) hides the client's Documents view. Hiding
 * its navigation item alone left the tree open to clients through the API, so what only that view offers
 * is refused here too, with the spec's firm-disabled message.
 */
const documentsViewHidden = (actor: Actor, access: CompanyAccess) =>
  isClient(actor) && !!access.preferences?.hideDocumentsViewFromClients;

const documentsViewDisabled = () =>
  new AppError('forbidden', 'documents_view_hidden', Messages.disabledByFirm);

/** Listing, searching and changing the tree, and zips: the Documents view's alone. */
export function assertDocumentsView(actor: Actor, access: CompanyAccess): void {
  if (documentsViewHidden(actor, access)) throw documentsViewDisabled();
}

type TreeFile = { type: string; folder: string; questionnaireId: string };

/**
 * A file a client opens from elsewhere than the Documents view: one uploaded to a questionnaire (its
 * questionnaire previews and downloads it, spec 2) or one the product filed in the system folder (tax
 * return delivery, signature requests). Other files are opened from the tree only.
 */
export function assertCanOpenWithoutDocumentsView(actor: Actor, access: CompanyAccess, item: TreeFile): void {
  const elsewhere = item.type === 'file' && (!!item.questionnaireId || isInSystemFolder(item.folder));
  if (!elsewhere && documentsViewHidden(actor, access)) throw documentsViewDisabled();
}

/** A file a client removes from elsewhere than the Documents view: their upload to a questionnaire. */
export function assertCanRemoveWithoutDocumentsView(
  actor: Actor,
  access: CompanyAccess,
  item: TreeFile,
): void {
  const elsewhere = item.type === 'file' && !!item.questionnaireId;
  if (!elsewhere && documentsViewHidden(actor, access)) throw documentsViewDisabled();
}

/** Advisor-only actions (spec 1 s.6): include deleted, folder download, descriptions, tags, attach. */
export function assertAdvisor(actor: Actor): void {
  if (actor.role !== 'advisor') throw advisorOnly();
}

/**
 * A client never sees a STAFF ONLY folder or what is in it: to them it does not exist. A path as a
 * request types it is read as the lookup reads it too (its segments sanitised); the calls check the
 * stored path of what they found again, which is what decides.
 */
export function assertVisiblePath(actor: Actor, path: string): void {
  if (isClient(actor) && (isStaffOnly(path) || isStaffOnly(sanitisedPath(path)))) throw notFound();
}

/**
 * A file the tree hides (the source of a split, whose parts are shown in its place) does not exist for a
 * client: its parts may have gone where the client cannot follow (a STAFF ONLY folder), and the source
 * has every page of them.
 */
export const hiddenFrom = (actor: Actor, item: { hidden: boolean }) => isClient(actor) && item.hidden;

/**
 * Whether the actor may change anything in `folder` of this company: inactive entities, read-only users
 * and read-only entities change nothing (any role); clients are also held by the firm's
 * disable_folder_action / disable_file_edit_action and the company's folders_where_client_actions_disabled
 * (a typed path also as the lookup reads it; the stored path of what was found is checked again).
 */
export function assertCanChange(actor: Actor, access: CompanyAccess, kind: ChangeKind, folder: string): void {
  if (access.inactive) throw new AppError('forbidden', 'entity_inactive', Messages.entityInactive);
  if (actor.readonly_access || access.actorReadonly)
    throw new AppError('forbidden', 'account_read_only', Messages.accountReadOnly);
  if (access.readonlyAccess) throw new AppError('forbidden', 'entity_read_only', Messages.entityReadOnly);
  if (!isClient(actor)) return;
  assertVisiblePath(actor, folder);
  const prefs = access.preferences;
  if (kind === 'folder' && prefs?.disableFolderAction) throw disabledByFirm();
  if (kind === 'file_edit' && prefs?.disableFileEditAction) throw disabledByFirm();
  const blocked = access.foldersWhereClientActionsDisabled;
  if (clientActionsDisabledIn(folder, blocked) || clientActionsDisabledIn(sanitisedPath(folder), blocked))
    throw disabledByFirm();
}

/**
 * A folder's rename, move, copy or delete carries everything inside it: a client may not carry anything
 * STAFF ONLY (hidden from them) or anything in a folder the company blocks for clients, where it is or
 * where it would land. The place of a folder at `root` in a company, for ItemsRepository.holdsRestricted:
 * the blocked prefixes that can hold something under `root` (those above it hold all of it, those below
 * it some), and `root` itself when it is STAFF ONLY, since then all of it would be.
 */
export function carryPlace(root: string, access: CompanyAccess): CarryPlace {
  const blocked = clientBlockedPrefixes(access.foldersWhereClientActionsDisabled).filter(
    (prefix) => isWithin(root, prefix) || isWithin(prefix, root),
  );
  return { root, blocked: isStaffOnly(root) ? [...blocked, root] : blocked };
}

/**
 * Making folders is a folder action: with the firm's disable_folder_action on, a client's upload may
 * only go into folders that exist already.
 */
export function assertCanCreateFolders(
  actor: Actor,
  access: CompanyAccess,
  missing: readonly string[],
): void {
  if (missing.length && isClient(actor) && access.preferences?.disableFolderAction) throw disabledByFirm();
}
