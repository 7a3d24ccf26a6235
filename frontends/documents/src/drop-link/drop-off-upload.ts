import { isApiError } from '@portico/kit';
import type { DocumentsApi, DropOffProcessResponse, Uploader, UploadLink } from '../api/documents-api.js';
import {
  emptyOutcome,
  type FileProgress,
  type FileState,
  fileMeta,
  sendFiles,
  transfersTo,
  UPLOAD_MESSAGES,
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

const refusal = (err: unknown) =>
  isApiError(err) && err.status < 500 && err.message ? err.message : UPLOAD_MESSAGES.failed;

/**
 * A drop-off through the firm drop link, the same three steps as an upload: temporary upload links,
 * a direct PUT of every file with its progress, then process, which validates the files, keeps them
 * for the firm and notifies the chosen firm users. Nobody is signed in.
 */
export async function dropOffFiles(options: DropOffOptions): Promise<UploadOutcome> {
  const { api, dropLinkId, files, uploader, signal, onChange = () => {} } = options;
  const outcome = emptyOutcome();
  const fail = (indexes: number[], state: FileState = 'failed') => {
    for (const i of indexes) onChange(i, { state });
    const names = indexes.map((i) => files[i]?.name ?? '');
    if (state === 'invalid') outcome.invalid.push(...names);
    else outcome.failed.push(...names);
  };
  const all = files.map((_, i) => i);

  let links: UploadLink[];
  try {
    ({ links } = await api.dropOffLinks(dropLinkId, files.map(fileMeta)));
  } catch (err) {
    fail(all);
    outcome.errors.push(refusal(err));
    return outcome;
  }

  const { sent, failed, cancelled } = await sendFiles(transfersTo(all, files, links, Date.now()), {
    signal,
    onChange,
    makeXhr: options.makeXhr,
    relink: async (again) => (await api.dropOffLinks(dropLinkId, again.map(fileMeta))).links,
  });
  outcome.failed.push(...failed.map((i) => files[i]?.name ?? ''));
  outcome.cancelled.push(...cancelled.map((i) => files[i]?.name ?? ''));
  // Cancelled: the firm is sent nothing of this drop-off (one process call, one notification, at the end).
  if (signal?.aborted) {
    for (const { index } of sent) onChange(index, { state: 'cancelled' });
    outcome.cancelled.push(...sent.map(({ index }) => files[index]?.name ?? ''));
    return outcome;
  }
  if (!sent.length) return outcome;

  let processed: DropOffProcessResponse;
  try {
    processed = await api.processDropOff(
      dropLinkId,
      sent.map((s) => s.uploadId),
      uploader,
    );
  } catch (err) {
    // Every file invalid answers 400 with the INVALID message.
    const message = refusal(err);
    const invalid = message === UPLOAD_MESSAGES.invalid;
    if (!invalid) outcome.errors.push(message);
    fail(
      sent.map((s) => s.index),
      invalid ? 'invalid' : 'failed',
    );
    return outcome;
  }
  for (const s of sent) {
    const result = processed.files?.find((f) => f.upload_id === s.uploadId);
    if (!result) fail([s.index]);
    else if (result.invalid) fail([s.index], 'invalid');
    else {
      onChange(s.index, { state: 'done' });
      outcome.uploaded.push(result.document_name || (files[s.index]?.name ?? ''));
    }
  }
  return outcome;
}
