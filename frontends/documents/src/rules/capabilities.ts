import type { DocItem } from '../api/documents-api.js';
import { blockedPrefixes, isInBlockedFolder } from './blocked-folders.js';
import { isStaffOnly, isSystemFolderPath } from './names.js';

export const DISABLED_BY_FIRM = 'Disabled by firm';
export const ACCOUNT_READ_ONLY = 'This account is read-only';
export const ENTITY_READ_ONLY = 'This entity is read-only';
/** The documents service's refusal of any change in the system folder (/_portico and below). */
export const SYSTEM_FOLDER_RESERVED = 'This folder is reserved and cannot be changed';

export type Role = 'advisor' | 'client';

/** What decides the file manager's capabilities: the role, the read-only flags, the firm preferences. */
export interface CapabilityInput {
  role: Role;
  /** The advisor's firm access: partner, admin, full or group. */
  firmAccess?: string;
  userReadOnly?: boolean;
  entityReadOnly?: boolean;
  entityInactive?: boolean;
  /** Firm preferences: disable_folder_action, disable_file_edit_action, document_tags_enabled, drop_link_enabled. */
  preferences?: Record<string, unknown>;
  /** The company setting folders_where_client_actions_disabled. */
  blockedFolders?: readonly string[];
}

/** An action is shown or not; a shown action may be refused, with the reason it is shown with. */
export interface Verdict {
  visible: boolean;
  enabled: boolean;
  reason?: string;
}

const hidden: Verdict = { visible: false, enabled: false };
const allowed: Verdict = { visible: true, enabled: true };
const blocked = (reason: string): Verdict => ({ visible: true, enabled: false, reason });

export interface Capabilities {
  role: Role;
  isAdvisor: boolean;
  /** Advisor only: the Include deleted files toggle and restore. */
  includeDeleted: boolean;
  /** Spec 1 s.2.7 (advisor and client): a link to the folder on the copier's own documents page. */
  copyFolderUrl: boolean;
  /** Advisor only (spec 1 s.6): a link to a file as the client sees it. */
  copyClientFileUrl: boolean;
  folderDownload: boolean;
  /** The description and tag columns (advisor only). */
  descriptionColumn: boolean;
  tagsColumn: boolean;
  editDescription: Verdict;
  editTags: Verdict;
  upload: Verdict;
  /** Uploading a folder creates folders: held by disable_folder_action like Add Folder. */
  folderUpload: Verdict;
  createFolder: Verdict;
  /** Rename, move, copy and delete of folders. */
  folderEdit: Verdict;
  /** Rename, move, copy and delete of files. */
  fileEdit: Verdict;
  restore: Verdict;
  /** Moving or copying to another company of the firm (advisor only). */
  otherCompanies: boolean;
  /** The drop-link dialog: partners, admins and full users, when the firm has the drop link on. */
  dropLink: boolean;
  /** Whether the company blocks a client's changes at this path (never for advisors). */
  blockedAt: (path: string) => boolean;
}

/** Drop Link is for partners, admins and full users (spec 1 s.2.2, s.6). */
export const DROP_LINK_ACCESS = ['partner', 'admin', 'full'];

/** The role-based capabilities of spec 1 s.2.7, s.4.3 and s.6; the service enforces the same rules. */
export function capabilitiesFor(input: CapabilityInput): Capabilities {
  const isAdvisor = input.role === 'advisor';
  const prefs = input.preferences ?? {};
  const readOnly = input.userReadOnly
    ? ACCOUNT_READ_ONLY
    : input.entityReadOnly || input.entityInactive
      ? ENTITY_READ_ONLY
      : undefined;
  const change = (firmBlocks: boolean): Verdict =>
    readOnly ? blocked(readOnly) : !isAdvisor && firmBlocks ? blocked(DISABLED_BY_FIRM) : allowed;
  const advisorChange = (extra = true): Verdict =>
    !isAdvisor || !extra ? hidden : readOnly ? blocked(readOnly) : allowed;
  return {
    role: input.role,
    isAdvisor,
    includeDeleted: isAdvisor,
    copyFolderUrl: true,
    copyClientFileUrl: isAdvisor,
    folderDownload: isAdvisor,
    descriptionColumn: isAdvisor,
    tagsColumn: isAdvisor,
    editDescription: advisorChange(),
    editTags: advisorChange(prefs.document_tags_enabled === true),
    upload: change(false),
    folderUpload: change(prefs.disable_folder_action === true),
    createFolder: change(prefs.disable_folder_action === true),
    folderEdit: change(prefs.disable_folder_action === true),
    fileEdit: change(prefs.disable_file_edit_action === true),
    restore: advisorChange(),
    otherCompanies: isAdvisor,
    dropLink:
      isAdvisor && DROP_LINK_ACCESS.includes(input.firmAccess ?? '') && prefs.drop_link_enabled === true,
    blockedAt: blockedAtFor(isAdvisor ? [] : (input.blockedFolders ?? [])),
  };
}

function blockedAtFor(entries: readonly string[]): (path: string) => boolean {
  const prefixes = blockedPrefixes(entries);
  return prefixes.length ? (path) => isInBlockedFolder(path, prefixes) : () => false;
}

/** A verdict refused for `reason` unless it is refused already (a read-only reason shows first). */
const heldFor =
  (reason: string) =>
  (v: Verdict): Verdict =>
    v.enabled ? blocked(reason) : v;

/**
 * The capabilities at a path: in the system folder nothing is uploaded or created, by anyone (its files
 * can still be renamed, moved, copied or deleted); where the company blocks clients' actions, every
 * change a client could make there is disabled by firm. A read-only reason, when there is one, still
 * shows first. The service refuses the same.
 */
export function capabilitiesAt(caps: Capabilities, path: string): Capabilities {
  let here = caps;
  if (isSystemFolderPath(path)) {
    const held = heldFor(SYSTEM_FOLDER_RESERVED);
    here = {
      ...here,
      upload: held(here.upload),
      folderUpload: held(here.folderUpload),
      createFolder: held(here.createFolder),
    };
  }
  if (caps.blockedAt(path)) {
    const held = heldFor(DISABLED_BY_FIRM);
    here = {
      ...here,
      upload: held(here.upload),
      folderUpload: held(here.folderUpload),
      createFolder: held(here.createFolder),
      folderEdit: held(here.folderEdit),
      fileEdit: held(here.fileEdit),
    };
  }
  return here;
}

export interface ItemActions {
  open: Verdict;
  download: Verdict;
  rename: Verdict;
  move: Verdict;
  copy: Verdict;
  delete: Verdict;
  restore: Verdict;
  editDescription: Verdict;
  editTags: Verdict;
  copyUrl: Verdict;
  /** A link for the client to this file (spec 1 s.6 'Copy client file URL'). */
  copyClientUrl: Verdict;
}

const SYSTEM_FOLDER = 'System folder';

/** The actions of one row's menu. */
export function itemActions(all: Capabilities, item: DocItem): ItemActions {
  const caps = capabilitiesAt(all, item.link);
  const deleted = Boolean(item.deleted_at);
  const folder = item.type === 'folder';
  const edit = folder ? caps.folderEdit : caps.fileEdit;
  const structural = item.is_system ? blocked(SYSTEM_FOLDER) : edit;
  if (deleted) {
    return {
      open: hidden,
      download: hidden,
      rename: hidden,
      move: hidden,
      copy: hidden,
      delete: hidden,
      restore: caps.restore,
      editDescription: hidden,
      editTags: hidden,
      copyUrl: hidden,
      copyClientUrl: hidden,
    };
  }
  return {
    open: allowed,
    download: folder ? (caps.folderDownload ? allowed : hidden) : allowed,
    rename: structural,
    move: structural,
    copy: item.is_system ? blocked(SYSTEM_FOLDER) : edit,
    delete: structural,
    restore: hidden,
    editDescription: folder ? hidden : caps.editDescription,
    editTags: folder ? hidden : caps.editTags,
    copyUrl: folder && caps.copyFolderUrl ? allowed : hidden,
    // Not for a file the client cannot see (STAFF ONLY, or in such a folder).
    copyClientUrl: !folder && caps.copyClientFileUrl && !isStaffOnly(item) ? allowed : hidden,
  };
}

/** Clients never see STAFF ONLY folders (the service hides them as well). */
export function visibleItems(caps: Capabilities, items: DocItem[]): DocItem[] {
  return caps.isAdvisor ? items : items.filter((i) => !(i.type === 'folder' && isStaffOnly(i)));
}
