import { toast } from '@portico/kit';
import { useCallback, useRef, useState } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import {
  checkUpload,
  type FileProgress,
  type UploadEntry,
  type UploadOutcome,
  uploadFiles,
  uploadToasts,
} from './upload.js';

/** Runs uploads into a folder, keeps one progress entry per file and shows the spec's toasts. */
export function useUploads(options: {
  api: DocumentsApi;
  companyId: string;
  onDone?: (outcome: UploadOutcome) => void;
  makeXhr?: () => XMLHttpRequest;
}) {
  const [files, setFiles] = useState<FileProgress[]>([]);
  const [busy, setBusy] = useState(false);
  const batch = useRef(0);
  const latest = useRef(options);
  latest.current = options;

  const start = useCallback(async (path: string, entries: UploadEntry[]) => {
    if (!entries.length) return;
    const problem = checkUpload(entries);
    if (problem) {
      toast.error(problem);
      return;
    }
    const id = ++batch.current;
    setFiles(
      entries.map((e, i) => ({
        key: `${id}-${i}`,
        name: e.dir ? `${e.dir}/${e.file.name}` : e.file.name,
        progress: 0,
        state: 'waiting',
      })),
    );
    setBusy(true);
    const { api, companyId, makeXhr } = latest.current;
    try {
      const outcome = await uploadFiles({
        api,
        companyId,
        path,
        entries,
        makeXhr,
        onChange: (index, change) =>
          setFiles((list) => list.map((f, i) => (i === index ? { ...f, ...change } : f))),
      });
      for (const t of uploadToasts(outcome)) toast[t.kind](t.message);
      latest.current.onDone?.(outcome);
      return outcome;
    } finally {
      setBusy(false);
    }
  }, []);

  const clear = useCallback(() => setFiles([]), []);
  return { files, busy, start, clear };
}
