import { crumbs } from '../rules/names.js';
import { uploadResult } from './UploadProgressList.js';
import type { UploadBatch } from './upload-queue.js';

export const TRAY_TEXT = {
  title: 'Uploads',
  allUploads: 'All uploads',
  hide: 'Hide files',
  show: 'Show files',
  dismissAll: 'Dismiss all',
} as const;

/** A folder as the breadcrumbs name it: 'All Files / 2024 / Receipts'. */
export const folderLabel = (path: string) =>
  crumbs(path)
    .map((crumb) => crumb.name)
    .join(' / ');

/** Where a batch goes, as a name for its group and its bar: 'Anders Design LLC, All Files / 2024'. */
export const destination = (batch: Pick<UploadBatch, 'companyName' | 'path'>) =>
  `${batch.companyName}, ${folderLabel(batch.path)}`;

const files = (n: number) => `${n.toLocaleString()} file${n === 1 ? '' : 's'}`;

/**
 * What is announced of a batch (politely): that it started, then what became of it. Not its progress,
 * which with hundreds of files would say something every moment.
 */
export function batchAnnouncement(batch: UploadBatch): string {
  return batch.running
    ? `Uploading ${files(batch.files.length)} to ${destination(batch)}.`
    : `Upload to ${destination(batch)} ended: ${uploadResult(batch.files)}.`;
}
