import type { DocItem } from '../api/documents-api.js';
import { type Capabilities, capabilitiesAt } from './capabilities.js';
import { isDeleted } from './names.js';

export const MIXED_SELECTION = 'Bulk actions are not available on a mix of deleted and non-deleted items.';
export const FOLDERS_NOT_DOWNLOADABLE = 'Downloading folders is not supported. Please select files only.';

export interface BulkActions {
  /** Deleted and live items together: no bulk action at all (spec 1 s.4.3). */
  mixed: boolean;
  download: boolean;
  move: boolean;
  copy: boolean;
  delete: boolean;
  restore: boolean;
  /** Why a shown action is disabled, keyed by action. */
  reasons: Partial<Record<'download' | 'move' | 'copy' | 'delete' | 'restore', string>>;
}

const none = (mixed: boolean): BulkActions => ({
  mixed,
  download: false,
  move: false,
  copy: false,
  delete: false,
  restore: false,
  reasons: {},
});

/** The bulk action bar for a selection (search results may come from several folders). */
export function bulkActions(all: Capabilities, selected: DocItem[]): BulkActions {
  const blockedItem = selected.find((i) => all.blockedAt(i.link));
  const caps = blockedItem ? capabilitiesAt(all, blockedItem.link) : all;
  if (selected.length === 0) return none(false);
  const deleted = selected.filter(isDeleted).length;
  if (deleted > 0 && deleted < selected.length) return none(true);
  if (deleted === selected.length) {
    return { ...none(false), restore: caps.restore.visible && caps.restore.enabled };
  }
  const hasFolders = selected.some((i) => i.type === 'folder');
  const hasFiles = selected.some((i) => i.type !== 'folder');
  const hasSystem = selected.some((i) => i.is_system);
  const editOk =
    (!hasFolders || caps.folderEdit.enabled) && (!hasFiles || caps.fileEdit.enabled) && !hasSystem;
  const editReason = hasSystem
    ? 'System folder'
    : (hasFolders && caps.folderEdit.reason) || (hasFiles && caps.fileEdit.reason) || undefined;
  const reasons: BulkActions['reasons'] = {};
  if (hasFolders) reasons.download = FOLDERS_NOT_DOWNLOADABLE;
  if (!editOk && editReason) {
    reasons.move = editReason;
    reasons.copy = editReason;
    reasons.delete = editReason;
  }
  return {
    mixed: false,
    download: !hasFolders,
    move: editOk,
    copy: editOk,
    delete: editOk,
    restore: false,
    reasons,
  };
}
