import { DOWNLOAD_MESSAGES } from './download-link.js';

/** Documents search waits for typing to pause (spec 1 s.9: a shared debounce). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Calls a bulk action (delete, restore, move, copy) keeps in flight at once. */
export const BULK_PARALLEL_CALLS = 6;

export const MESSAGES = {
  deleted: 'Deleted successfully',
  deleteFailed: 'Deleted Failed',
  updateFailed: 'Failed to update document or folder',
  updated: 'Updated successfully',
  restored: 'Undo was successful',
  linkCopied: 'Link copied to clipboard',
  documentDownloadFailed: DOWNLOAD_MESSAGES.documentDownloadFailed,
  folderDownloadFailed: 'There was a problem downloading the folder. Please refresh and try again.',
  zipPending: 'You will receive a notification when the zip file is ready for download.',
  zipReady: (fileName: string) => `Your zip file is ready: ${fileName}`,
  noLink: DOWNLOAD_MESSAGES.noLink,
  tagsFailed: 'Issue saving selected tags, please try again later.',
  /** A link to a file that is not in its folder any more (the spec has no text for it). */
  linkedFileGone: (name: string) =>
    `${name} is not in this folder any more: it may have been moved, renamed or deleted.`,
} as const;
