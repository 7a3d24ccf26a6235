import { useApi } from '@portico/kit';
import { useCallback, useRef } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import type { UploadEntry, UploadOutcome } from './upload.js';
import { uploadQueue } from './upload-queue.js';
import { useUploadBatches } from './useUploadBatches.js';

/**
 * A file manager's view of the remote's uploads (`uploadQueue`), for one company: `start` uploads into
 * a folder of it, and `files`, `busy`, `cancel`, `retryFailed` and `clear` are about its batch running
 * now, else its latest one. The batches live in the queue, not here: one goes on, with its progress in
 * the upload tray, once the file manager is left for another entity or another page of the portal,
 * and until it ends leaving the page asks first. `onDone` is told the company a run filed into.
 */
export function useUploads(options: {
  api: DocumentsApi;
  company: { id: string; name: string };
  onDone?: (outcome: UploadOutcome, companyId: string) => void;
  makeXhr?: () => XMLHttpRequest;
}) {
  const session = useApi().client.session;
  const latest = useRef({ ...options, session });
  latest.current = { ...options, session };
  const companyId = options.company.id;
  const own = useUploadBatches().filter((batch) => batch.companyId === companyId);
  // The newest running batch: the one its drop area and dialog wait for, and whose Cancel stops it.
  const shown = own.findLast((batch) => batch.running) ?? own.at(-1);
  const shownId = shown?.id;

  /** Uploads into `path` of the company given now. */
  const start = useCallback(
    (path: string, entries: UploadEntry[]) => uploadQueue.start({ ...latest.current, path, entries }),
    [],
  );
  const cancel = useCallback(() => shownId !== undefined && uploadQueue.cancel(shownId), [shownId]);
  // Into the company and folder the failed files were meant for, whatever is shown now.
  const retryFailed = useCallback(() => shownId !== undefined && uploadQueue.retryFailed(shownId), [shownId]);
  /** Takes the finished batch away (seen in the upload dialog, it need not stay in the tray). */
  const clear = useCallback(() => shownId !== undefined && uploadQueue.dismiss(shownId), [shownId]);
  return {
    files: shown?.files ?? [],
    busy: Boolean(shown?.running),
    start,
    cancel,
    clear,
    retryFailed,
  };
}
