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
 * can be sent again with `retryFailed`, into the same folder. `cancel` stops the run in flight; until it
 * ends, leaving the page asks first, even once the file manager is left for another page of the portal
 * (the upload goes on, and its toasts still say how it ended).
 */
export function useUploads(options: {
  api: DocumentsApi;
  companyId: string;
  onDone?: (outcome: UploadOutcome) => void;
  makeXhr?: () => XMLHttpRequest;
}) {
  const [files, setFiles] = useState<FileProgress[]>([]);
  const [busy, setBusy] = useState(false);
  const batch = useRef(0);
  const running = useRef<AbortController>(undefined);
  const lastRun = useRef<{ path: string; entries: UploadEntry[] }>(undefined);
  const latest = useRef(options);
  latest.current = options;

  const start = useCallback(async (path: string, entries: UploadEntry[]) => {
    if (!entries.length) return;
    const problem = checkUpload(entries);
    if (problem) {
      toast.error(problem);
      return;
    }
    lastRun.current = { path, entries };
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
    const { api, companyId, makeXhr } = latest.current;
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
      latest.current.onDone?.(outcome);
      return outcome;
    } finally {
      leaving();
      running.current = undefined;
      setBusy(false);
    }
  }, []);

  const cancel = useCallback(() => running.current?.abort(), []);
  const clear = useCallback(() => setFiles([]), []);
  const retryFailed = useCallback(() => {
    const run = lastRun.current;
    if (!run) return;
    const again = run.entries.filter((_, i) => files[i]?.state === 'failed');
    if (again.length) void start(run.path, again);
  }, [files, start]);
  return { files, busy, start, cancel, clear, retryFailed };
}
