import { crumbs } from '../rules/names.js';
import { uploadResult } from './UploadProgressList.js';
import type { UploadBatch } from './upload-queue.js';

export const TRAY_TEXT = {
  title: 'Uploads',
  allUploads: 'All uploads',
  hide: 'Hide files',
  show: 'Show files',
  dismissAll: 'Dismiss all',
  /** Under a finished batch's disabled Retry while another upload to its entity runs. */
  retryWaits: (entity: string) => `Another upload to ${entity} is running: try again once it has ended.`,
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
 * What is announced of a batch (politely): that a run started, with the files it sends (a retry only
 * the failed ones), then what became of the whole batch. Not its progress, which with hundreds of
 * files would say something every moment.
 */
export function batchAnnouncement(batch: UploadBatch): string {
  if (!batch.running) return `Upload to ${destination(batch)} ended: ${uploadResult(batch.files)}.`;
  const sent = files(batch.runFiles.length);
  return batch.retry
    ? `Uploading ${sent} again to ${destination(batch)}.`
    : `Uploading ${sent} to ${destination(batch)}.`;
}

/** The files of a batch's run under way, else of its last: all of them, or those sent again. */
export const filesOfRun = (batch: UploadBatch) => batch.runFiles.flatMap((i) => batch.files[i] ?? []);

/** Over the tray's bar for everything running: '40% of 2 files'. */
export const overallLabel = (pct: number, count: number) => `${pct}% of ${files(count)}`;
