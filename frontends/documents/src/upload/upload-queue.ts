import { toast } from '@portico/kit';
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

/** What the queue hears from the shell's session: a sign-out, or another user signed in in another tab. */
export interface SessionEvents {
  onSignedOut(listener: () => void): () => void;
  onUserChanged(listener: () => void): () => void;
}

/** One upload (the files of one choice or drop) into a folder of an entity, as the upload tray shows it. */
export interface UploadBatch {
  id: number;
  companyId: string;
  companyName: string;
  /** The folder the files go to; a dropped folder's files go into its sub-folders there. */
  path: string;
  /** One line per file, in the order they were chosen. */
  files: readonly FileProgress[];
  /** A run of the batch (its first, or a retry of its failed files) is under way. */
  running: boolean;
  /** The files (their indexes in `files`) of the run under way, else of the last one: all, or the retried. */
  runFiles: readonly number[];
  /** That run sends failed files again. */
  retry: boolean;
}

export interface UploadRequest {
  api: DocumentsApi;
  company: { id: string; name: string };
  path: string;
  entries: UploadEntry[];
  /** The session the upload belongs to: its sign-out cancels the upload and forgets it. */
  session?: SessionEvents;
  makeXhr?: () => XMLHttpRequest;
  /** Told when a run ends, with the company it filed into (not always the one shown by then). */
  onDone?: (outcome: UploadOutcome, companyId: string) => void;
}

/** What the queue keeps of a batch besides what it shows. */
interface BatchWork {
  request: UploadRequest;
  controller?: AbortController;
  stopWatching: () => void;
  /**
   * Ends the run's leave warning. Called first when the session ends: the shell reloads the page for
   * another user at once, while the cancelled upload settles (and would end its warning) only later.
   */
  stopWarning?: () => void;
}

const waitingLine = (entry: UploadEntry, key: string): FileProgress => ({
  key,
  name: entry.dir ? `${entry.dir}/${entry.file.name}` : entry.file.name,
  progress: 0,
  size: entry.file.size,
  state: 'waiting',
});

function watchSession(session: SessionEvents | undefined, end: () => void): () => void {
  if (!session) return () => {};
  const stops = [session.onSignedOut(end), session.onUserChanged(end)];
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * The documents remote's uploads, kept apart from the file manager, which is mounted afresh for each
 * entity: an upload started for one entity goes on, with its progress, cancel and outcome, while
 * another entity (or no file manager at all) is shown. Runs each batch with `uploadFiles` and says how
 * it ended with the spec's toasts. A sign-out cancels every batch and forgets them all.
 */
export class UploadQueue {
  private batches: readonly UploadBatch[] = [];
  private readonly work = new Map<number, BatchWork>();
  private readonly listeners = new Set<() => void>();
  private lastId = 0;

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The batches, oldest first; a new array whenever anything in them changes. */
  readonly getSnapshot = (): readonly UploadBatch[] => this.batches;

  /**
   * Checks the files (size, count: refused with a toast, nothing sent) and uploads them as a new batch.
   * Answers the first run's outcome, or undefined when nothing was sent.
   */
  start(request: UploadRequest): Promise<UploadOutcome | undefined> {
    const { entries, company } = request;
    if (!entries.length) return Promise.resolve(undefined);
    const problem = checkUpload(entries);
    if (problem) {
      toast.error(problem);
      return Promise.resolve(undefined);
    }
    const id = ++this.lastId;
    this.work.set(id, { request, stopWatching: watchSession(request.session, () => this.endSession()) });
    this.batches = [
      ...this.batches,
      {
        id,
        companyId: company.id,
        companyName: company.name,
        path: request.path,
        files: entries.map((entry, i) => waitingLine(entry, `${id}-${i}`)),
        running: true,
        runFiles: entries.map((_, i) => i),
        retry: false,
      },
    ];
    this.emit();
    return this.run(
      id,
      entries.map((_, i) => i),
      false,
    );
  }

  /** Stops what of the batch has not finished (see `sendFiles`: nothing not yet filed is filed). */
  cancel(id: number) {
    this.work.get(id)?.controller?.abort();
  }

  /**
   * Whether the batch's failed files can be sent again now: not while any upload to its company runs
   * (one at a time per entity, so a folder's names are decided in order, and the upload dialog shows
   * and cancels the one that runs).
   */
  canRetry(id: number): boolean {
    const batch = this.find(id);
    return batch !== undefined && !this.batches.some((b) => b.companyId === batch.companyId && b.running);
  }

  /** Sends the batch's failed files again (not the invalid or duplicate ones), into its own company and folder. */
  retryFailed(id: number) {
    const batch = this.find(id);
    if (!batch || !this.canRetry(id)) return;
    const failed = batch.files.flatMap((f, i) => (f.state === 'failed' ? [i] : []));
    if (failed.length) void this.run(id, failed, true);
  }

  /** Takes a finished batch away; a batch still running stays. */
  dismiss(id: number) {
    if (this.find(id)?.running) return;
    this.forget(id);
  }

  /** Takes every finished batch away. */
  dismissFinished() {
    for (const batch of this.batches) if (!batch.running) this.forget(batch.id);
  }

  /**
   * The session is over (a sign-out, or another user signed in): every upload is cancelled and every
   * batch forgotten, without a toast or a refresh, as the tray must not show the next user what the
   * last one sent.
   */
  endSession() {
    const ending = [...this.work.values()];
    this.work.clear();
    for (const w of ending) {
      w.stopWarning?.();
      w.stopWatching();
      w.controller?.abort();
    }
    this.batches = [];
    this.emit();
  }

  private async run(id: number, indexes: number[], retry: boolean): Promise<UploadOutcome | undefined> {
    const work = this.work.get(id);
    if (!work) return undefined;
    const { api, company, path, entries, makeXhr, onDone } = work.request;
    const controller = new AbortController();
    work.controller = controller;
    const again = new Set(indexes);
    this.update(id, (batch) => ({
      ...batch,
      running: true,
      runFiles: indexes,
      retry,
      files: batch.files.map((line, i) =>
        again.has(i) ? waitingLine(entries[i] as UploadEntry, line.key) : line,
      ),
    }));
    // Once the batch's work is gone (the session ended), leaving no longer asks, whatever is still settling.
    const stopWarning = warnBeforeLeaving(() => this.work.get(id) === work);
    work.stopWarning = stopWarning;
    try {
      const outcome = await uploadFiles({
        api,
        companyId: company.id,
        path,
        entries: indexes.map((i) => entries[i] as UploadEntry),
        makeXhr,
        signal: controller.signal,
        onChange: (k, change) => this.updateFile(id, indexes[k] as number, change),
      });
      // Ended with the session: nothing to say, nothing to refresh.
      if (this.work.get(id) !== work) return outcome;
      for (const t of uploadToasts(outcome)) toast[t.kind](t.message);
      onDone?.(outcome, company.id);
      return outcome;
    } finally {
      stopWarning();
      if (work.stopWarning === stopWarning) work.stopWarning = undefined;
      if (work.controller === controller) work.controller = undefined;
      this.update(id, (batch) => ({ ...batch, running: false }));
    }
  }

  private updateFile(id: number, index: number, change: Partial<FileProgress>) {
    this.update(id, (batch) => ({
      ...batch,
      files: batch.files.map((line, i) => (i === index ? { ...line, ...change } : line)),
    }));
  }

  private update(id: number, change: (batch: UploadBatch) => UploadBatch) {
    if (!this.find(id)) return;
    this.batches = this.batches.map((batch) => (batch.id === id ? change(batch) : batch));
    this.emit();
  }

  private find(id: number) {
    return this.batches.find((batch) => batch.id === id);
  }

  private forget(id: number) {
    this.work.get(id)?.stopWatching();
    this.work.delete(id);
    this.batches = this.batches.filter((batch) => batch.id !== id);
    this.emit();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

/** The remote's one queue: the module outlives every file manager, as the remote outlives its pages. */
export const uploadQueue = new UploadQueue();
