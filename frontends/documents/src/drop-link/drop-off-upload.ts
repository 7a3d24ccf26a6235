import type { DocumentsApi, Uploader, UploadLink } from '../api/documents-api.js';
import {
  emptyOutcome,
  type FileProgress,
  type FilingRecord,
  fileLanded,
  fileMeta,
  recordFiles,
  refusalText,
  sendFiles,
  transfersTo,
  type UploadOutcome,
} from '../upload/upload.js';

export interface DropOffOptions {
  api: Pick<DocumentsApi, 'dropOffLinks' | 'processDropOff'>;
  dropLinkId: string;
  files: File[];
  uploader: Uploader;
  /** Called with every change of a file's progress or state; keys are the files' indexes. */
  onChange?: (index: number, change: Partial<FileProgress>) => void;
  makeXhr?: () => XMLHttpRequest;
  /** Cancels the drop-off: nothing not yet sent to the firm is sent (see `sendFiles`). */
  signal?: AbortSignal;
}

/**
 * A drop-off through the firm drop link, the same three steps as an upload: temporary upload links,
 * a direct PUT of every file with its progress, then process, which validates the files, keeps them
 * for the firm and notifies the chosen firm users. Nobody is signed in.
 */
export async function dropOffFiles(options: DropOffOptions): Promise<UploadOutcome> {
  const { api, dropLinkId, files, uploader, signal, onChange = () => {} } = options;
  const outcome = emptyOutcome();
  const nameOf = (i: number) => files[i]?.name ?? '';
  const record: FilingRecord = { outcome, nameOf, onChange };
  const all = files.map((_, i) => i);

  let links: UploadLink[];
  try {
    ({ links } = await api.dropOffLinks(dropLinkId, files.map(fileMeta)));
  } catch (err) {
    recordFiles(all, 'failed', record);
    outcome.errors.push(refusalText(err));
    return outcome;
  }

  const { sent, failed, cancelled } = await sendFiles(transfersTo(all, files, links, Date.now()), {
    signal,
    onChange,
    makeXhr: options.makeXhr,
    relink: async (again) => (await api.dropOffLinks(dropLinkId, again.map(fileMeta))).links,
  });
  outcome.failed.push(...failed.map(nameOf));
  outcome.cancelled.push(...cancelled.map(nameOf));
  // Cancelled: the firm is sent nothing of this drop-off (one process call, one notification, at the end).
  if (signal?.aborted) {
    recordFiles(
      sent.map(({ index }) => index),
      'cancelled',
      record,
    );
    return outcome;
  }
  if (sent.length)
    await fileLanded(sent, (uploadIds) => api.processDropOff(dropLinkId, uploadIds, uploader), record);
  return outcome;
}
