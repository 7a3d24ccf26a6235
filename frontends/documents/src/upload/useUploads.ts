import { toast } from '@portico/kit';
import { useCallback, useRef, useState } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import { warnBeforeLeaving } from './leave-warning.js';
import {
  checkUpload,
  type FileProgress,
  type UploadEntry,
  type UploadOutcome,
  uploadFiles,
  uploadToasts,
} from './upload.js';

/**
 * Runs uploads into a folder, keeps one progress entry per file and shows the spec's toasts. The files
 * of the last run that failed (a lost connection, a slow service; not the invalid or duplicate ones)
 * can be sent again with `retryFailed`, into the same folder of the same company. `cancel` stops the run
 * in flight; until it ends, leaving the page asks first, even once the file manager is left for another
 * page of the portal (the upload goes on, and its toasts still say how it ended). `onDone` is told the
 * company the run filed into, which is not always the one shown by the time it ends.
 */
export function useUploads(options: {
  api: DocumentsApi;
  companyId: string;
  onDone?: (outcome: UploadOutcome, companyId: string) => void;
  makeXhr?: () => XMLHttpRequest;
}) {
  const [files, setFiles] = useState<FileProgress[]>([]);
  const [busy, setBusy] = useState(false);
  const batch = useRef(0);
  const running = useRef<AbortController>(undefined);
  const lastRun = useRef<{ companyId: string; path: string; entries: UploadEntry[] }>(undefined);
  const latest = useRef(options);
  latest.current = options;

  const run = useCallback(async (companyId: string, path: string, entries: UploadEntry[]) => {
    if (!entries.length) return;
    const problem = checkUpload(entries);
    if (problem) {
      toast.error(problem);
      return;
    }
    lastRun.current = { companyId, path, entries };
    const id = ++batch.current;
    setFiles(
      entries.map((e, i) => ({
        key: `${id}-${i}`,
        name: e.dir ? `${e.dir}/${e.file.name}` : e.file.name,
        progress: 0,
        size: e.file.size,
        state: 'waiting',
      })),
    );
    setBusy(true);
    const { api, makeXhr } = latest.current;
    const controller = new AbortController();
    running.current = controller;
    const leaving = warnBeforeLeaving();
    try {
      const outcome = await uploadFiles({
        api,
        companyId,
        path,
        entries,
        makeXhr,
        signal: controller.signal,
        onChange: (index, change) =>
          setFiles((list) => list.map((f, i) => (i === index ? { ...f, ...change } : f))),
      });
      for (const t of uploadToasts(outcome)) toast[t.kind](t.message);
      latest.current.onDone?.(outcome, companyId);
      return outcome;
    } finally {
      leaving();
      running.current = undefined;
      setBusy(false);
    }
  }, []);

  /** Uploads into `path` of the company given now. */
  const start = useCallback(
    (path: string, entries: UploadEntry[]) => run(latest.current.companyId, path, entries),
    [run],
  );
  const cancel = useCallback(() => running.current?.abort(), []);
  const clear = useCallback(() => setFiles([]), []);
  // Into the company and folder the failed files were meant for, whatever is shown now.
  const retryFailed = useCallback(() => {
    const last = lastRun.current;
    if (!last) return;
    const again = last.entries.filter((_, i) => files[i]?.state === 'failed');
    if (again.length) void run(last.companyId, last.path, again);
  }, [files, run]);
  return { files, busy, start, cancel, clear, retryFailed };
}
