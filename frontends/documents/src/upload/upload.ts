import { isApiError } from '@portico/kit';
import type { DocumentsApi, ProcessedFile, UploadLink } from '../api/documents-api.js';
import { inParallel } from '../rules/in-parallel.js';
import { joinPath, normalizePath } from '../rules/names.js';
import { Filer, type Landed } from './filing.js';

/** Spec 1 s.9: 'Max size 150 MB' per file, up to 999 files in one upload. */
export const MAX_FILE_BYTES = 150 * 1024 * 1024;
export const MAX_FILES = 999;
export const PARALLEL_PUTS = 4;
/** Files filed in one process call while the rest of an upload is still being sent (see `Filer`). */
export const FILE_BATCH = 20;

export const UPLOAD_MESSAGES = {
  success: 'Document(s) uploaded successfully',
  invalid:
    'We were unable to process some of uploaded files as they appear to be INVALID. Kindly check those files and try uploading them again.',
  duplicate: (file: string) => `${file} was already uploaded`,
  /** After the first few duplicates, the rest in one line (the spec names each, for a few files). */
  moreDuplicates: (count: number) => `${count} more file${count === 1 ? ' was' : 's were'} already uploaded`,
  nothing: 'Could not upload those files. Try uploading them one at a time.',
  failed: 'File upload failed, please try again.',
  tooLarge: (file: string) => `${file} is larger than the maximum size of 150 MB`,
  tooMany: `You can upload up to ${MAX_FILES} files at a time`,
  foldersDisabled: 'Uploading folders is disabled by firm. Please upload files only.',
  cancelled: 'Upload cancelled. The files not yet uploaded were not saved.',
  /** A file's own outcome, beside its progress bar (spec 1 s.8). */
  fileDone: 'Upload successful',
  fileFailed: 'Upload failed',
} as const;

/** A file to upload with the folder it goes to, relative to the current folder ('' = here). */
export interface UploadEntry {
  file: File;
  /** Sub-folder of a dropped folder, e.g. 'Receipts/2024'; '' for a plain file. */
  dir: string;
}

export type FileState =
  | 'waiting'
  | 'uploading'
  | 'processing'
  | 'done'
  | 'failed'
  | 'invalid'
  | 'duplicate'
  | 'cancelled';

export interface FileProgress {
  key: string;
  name: string;
  /** 0 to 1 of the bytes sent to storage. */
  progress: number;
  /** The file's size in bytes, which weighs its progress in the whole upload's. */
  size?: number;
  state: FileState;
  /** Why the file failed, as the service said it (a PUT that failed has no message). */
  message?: string;
}

export interface UploadOutcome {
  uploaded: string[];
  duplicates: string[];
  invalid: string[];
  failed: string[];
  /** Files not filed because the upload was cancelled before they were. */
  cancelled: string[];
  /** Server messages of refused calls (e.g. 'Disabled by firm'). */
  errors: string[];
  /** Files of a process call that answered no files at all (spec 1 s.5.5: 'Could not upload those files…'). */
  unanswered: string[];
}

export const emptyOutcome = (): UploadOutcome => ({
  uploaded: [],
  duplicates: [],
  invalid: [],
  failed: [],
  cancelled: [],
  errors: [],
  unanswered: [],
});

export type Toast = { kind: 'success' | 'error' | 'info'; message: string };

/**
 * The relative folder of a dropped file: react-dropzone and the file input give './Folder/sub/a.pdf',
 * '/Folder/sub/a.pdf' or webkitRelativePath 'Folder/sub/a.pdf'.
 */
export function entryOf(file: File & { path?: string; relativePath?: string }): UploadEntry {
  const rel = file.relativePath || file.webkitRelativePath || file.path || '';
  const parts = rel
    .replace(/^\.?\//, '')
    .split('/')
    .filter(Boolean);
  parts.pop();
  return { file, dir: parts.join('/') };
}

/**
 * Splits an upload into the plain files and the files of dropped or chosen folders (which create
 * folders, so the firm's disable_folder_action holds them for clients).
 */
export function splitFolders(entries: UploadEntry[]): { files: UploadEntry[]; inFolders: UploadEntry[] } {
  return {
    files: entries.filter((e) => !e.dir),
    inFolders: entries.filter((e) => e.dir),
  };
}

/** Checks before any call: size and count. Returns the error message or undefined. */
export function checkUpload(entries: UploadEntry[]): string | undefined {
  if (entries.length > MAX_FILES) return UPLOAD_MESSAGES.tooMany;
  const big = entries.find((e) => e.file.size > MAX_FILE_BYTES);
  return big ? UPLOAD_MESSAGES.tooLarge(big.file.name) : undefined;
}

/** The service's refusal of a call as a user reads it: its message for a 4xx, else the failure text. */
export function refusalText(err: unknown): string {
  return isApiError(err) && err.status < 500 && err.message ? err.message : UPLOAD_MESSAGES.failed;
}

/** Duplicates named one toast each; past them, one toast says how many more. */
export const DUPLICATES_NAMED = 3;

/** The toasts of spec 1 s.5.5 and s.8 for an upload's outcome. */
export function uploadToasts(outcome: UploadOutcome): Toast[] {
  const toasts: Toast[] = [];
  const anything =
    outcome.uploaded.length +
    outcome.duplicates.length +
    outcome.invalid.length +
    outcome.failed.length +
    outcome.unanswered.length;
  const cancelled: Toast[] = outcome.cancelled.length
    ? [{ kind: 'info', message: UPLOAD_MESSAGES.cancelled }]
    : [];
  if (anything === 0)
    return cancelled.length ? cancelled : [{ kind: 'error', message: UPLOAD_MESSAGES.nothing }];
  // Errors first: a folder uploaded again gave one toast per file, and a failure among them showed only
  // after all of those (five at a time, four seconds each) had gone.
  if (outcome.invalid.length) toasts.push({ kind: 'error', message: UPLOAD_MESSAGES.invalid });
  const errors = [...new Set(outcome.errors)];
  for (const message of errors) toasts.push({ kind: 'error', message });
  if (outcome.unanswered.length) toasts.push({ kind: 'error', message: UPLOAD_MESSAGES.nothing });
  if (outcome.failed.length && !errors.length)
    toasts.push({ kind: 'error', message: UPLOAD_MESSAGES.failed });
  if (outcome.uploaded.length) toasts.push({ kind: 'success', message: UPLOAD_MESSAGES.success });
  const named = outcome.duplicates.slice(0, DUPLICATES_NAMED);
  for (const name of named) toasts.push({ kind: 'info', message: UPLOAD_MESSAGES.duplicate(name) });
  const unnamed = outcome.duplicates.length - named.length;
  if (unnamed) toasts.push({ kind: 'info', message: UPLOAD_MESSAGES.moreDuplicates(unnamed) });
  return [...toasts, ...cancelled];
}

/**
 * How long a PUT may go without sending a byte or being answered before it is given up as failed (and
 * can be tried again): storage that stopped answering must not leave a file 'Uploading' for ever. Not a
 * limit on the whole upload, which for 150 MB on a slow line takes minutes.
 */
export const STALLED_UPLOAD_MS = 60_000;

/**
 * PUT of one file to its presigned link, reporting upload progress (XMLHttpRequest, not fetch). Aborting
 * `signal` stops the transfer.
 */
export function putFile(
  link: Pick<UploadLink, 'url' | 'method' | 'headers'>,
  file: Blob,
  onProgress: (fraction: number) => void,
  makeXhr: () => XMLHttpRequest = () => new XMLHttpRequest(),
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('upload cancelled'));
    const xhr = makeXhr();
    const cancel = () => xhr.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    let stalled: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(stalled);
      stalled = setTimeout(() => xhr.abort(), STALLED_UPLOAD_MS);
    };
    const settle = (done: () => void) => {
      clearTimeout(stalled);
      signal?.removeEventListener('abort', cancel);
      done();
    };
    xhr.open(link.method || 'PUT', link.url);
    for (const [k, v] of Object.entries(link.headers ?? {})) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e: ProgressEvent) => {
      watch();
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () =>
      settle(() => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve();
        } else reject(new Error(`upload failed: ${xhr.status}`));
      });
    xhr.onerror = () => settle(() => reject(new Error('upload failed')));
    xhr.onabort = () =>
      settle(() => reject(new Error(signal?.aborted ? 'upload cancelled' : 'upload aborted')));
    xhr.send(file);
    watch();
  });
}

/** What upload_links is told of a file. */
export const fileMeta = (f: File) => ({
  name: f.name,
  size: f.size,
  contentType: f.type || 'application/octet-stream',
});

/** One file to send to storage: its index in the caller's list and the link it goes to. */
export interface Transfer {
  index: number;
  file: File;
  link: UploadLink | undefined;
  /** When, by this browser's clock, the link is renewed before its PUT starts (see `renewalTime`). */
  renewAt?: number;
}

/**
 * When a link is renewed, by this browser's clock: its lifetime as the service gives it, counted from
 * when its answer arrived (not its expiry time, as the browser's clock may be set wrong), less a margin
 * (a minute, or a quarter of a short lifetime). A PUT that started in time may run on past the expiry.
 */
export function renewalTime(link: UploadLink, receivedAt: number): number | undefined {
  const lifetime = (link.expires_in_seconds ?? 0) * 1000;
  if (lifetime <= 0) return undefined;
  return receivedAt + lifetime - Math.min(60_000, lifetime / 4);
}

/** Transfers of `files` (with their indexes) to the links of one answer that arrived at `receivedAt`. */
export function transfersTo(
  indexes: number[],
  files: File[],
  links: UploadLink[],
  receivedAt: number,
): Transfer[] {
  return indexes.map((index, k) => {
    const link = links[k];
    return { index, file: files[k] as File, link, renewAt: link && renewalTime(link, receivedAt) };
  });
}

/**
 * PUTs files to their links, PARALLEL_PUTS at a time, reporting each file's progress and state, and each
 * file that reaches storage to `onSent` as it lands. A long upload outlives its links: with `relink`, a
 * link due for renewal is replaced before its PUT starts, together with those of every file not started
 * yet (one call), so a file sent an hour after the first still goes. Once `signal` is aborted, the transfers in flight
 * stop and the ones not started are not started: those files are 'cancelled'. What reached storage is the
 * caller's to file or not (what stays unprocessed is removed by the service's sweep of abandoned
 * uploads). Answers the files that reached storage, and the indexes of the others.
 */
export async function sendFiles(
  transfers: Transfer[],
  options: {
    signal?: AbortSignal;
    onChange: (index: number, change: Partial<FileProgress>) => void;
    onSent?: (landed: Landed) => void;
    /** New links for these files, in their order (upload_links again). */
    relink?: (files: File[]) => Promise<UploadLink[]>;
    makeXhr?: () => XMLHttpRequest;
  },
) {
  const { signal, onChange, relink } = options;
  const sent: Landed[] = [];
  const failed: number[] = [];
  const cancelled: number[] = [];
  const started = new Set<Transfer>();
  let renewing: Promise<void> | undefined;
  const renew = () =>
    (renewing ??= (async () => {
      const rest = transfers.filter((t) => !started.has(t));
      try {
        const fresh = (await relink?.(rest.map((t) => t.file))) ?? [];
        const receivedAt = Date.now();
        rest.forEach((t, k) => {
          t.link = fresh[k];
          t.renewAt = t.link && renewalTime(t.link, receivedAt);
        });
      } catch {
        // The links stay as they were, and are not asked for again: a PUT on an expired one fails, and
        // the failed files can be sent again.
        for (const t of rest) t.renewAt = undefined;
      } finally {
        renewing = undefined;
      }
    })());
  const stop = (index: number) => {
    const state = signal?.aborted ? 'cancelled' : 'failed';
    onChange(index, { state });
    (state === 'cancelled' ? cancelled : failed).push(index);
  };
  await inParallel(transfers, PARALLEL_PUTS, async (transfer) => {
    if (relink && transfer.renewAt !== undefined && Date.now() >= transfer.renewAt) await renew();
    started.add(transfer);
    const { index, file, link } = transfer;
    if (!link || signal?.aborted) return stop(index);
    onChange(index, { state: 'uploading', progress: 0 });
    try {
      await putFile(link, file, (progress) => onChange(index, { progress }), options.makeXhr, signal);
    } catch {
      return stop(index);
    }
    onChange(index, { state: 'processing', progress: 1 });
    const landed = { index, uploadId: link.upload_id };
    sent.push(landed);
    options.onSent?.(landed);
  });
  return { sent, failed, cancelled };
}

export interface UploadOptions {
  api: DocumentsApi;
  companyId: string;
  /** The folder the upload goes to. */
  path: string;
  entries: UploadEntry[];
  /** Called with every change of a file's progress or state; keys are the entries' indexes. */
  onChange?: (index: number, change: Partial<FileProgress>) => void;
  makeXhr?: () => XMLHttpRequest;
  /** Cancels the upload: nothing not yet sent to be filed is filed (see `sendFiles`). */
  signal?: AbortSignal;
}

/** Where the outcome of filing goes: the outcome's lists, each file's name and each file's state. */
export interface FilingRecord {
  outcome: UploadOutcome;
  nameOf: (index: number) => string;
  onChange: (index: number, change: Partial<FileProgress>) => void;
}

/**
 * Records each of these files as `state`, on its line (with the service's `message`, if any) and in
 * the outcome's list of that name.
 */
export function recordFiles(
  indexes: number[],
  state: 'failed' | 'invalid' | 'cancelled',
  { outcome, nameOf, onChange }: FilingRecord,
  /** The service's reason for a failure. */
  message?: string,
) {
  for (const i of indexes) onChange(i, message ? { state, message } : { state });
  outcome[state].push(...indexes.map(nameOf));
}

/**
 * Files a batch of files that landed, with `process` (an upload's or a drop-off's process call), and
 * records each file's outcome. A refusal of the whole call makes every file INVALID (400 with that
 * message) or failed with the service's reason. Never throws.
 */
export async function fileLanded(
  batch: Landed[],
  process: (uploadIds: string[]) => Promise<{ files?: ProcessedFile[] }>,
  record: FilingRecord,
) {
  const { outcome, nameOf, onChange } = record;
  let processed: { files?: ProcessedFile[] };
  try {
    processed = await process(batch.map((s) => s.uploadId));
  } catch (err) {
    const message = refusalText(err);
    const invalid = /INVALID/.test(message);
    if (!invalid) outcome.errors.push(message);
    recordFiles(
      batch.map((s) => s.index),
      invalid ? 'invalid' : 'failed',
      record,
      // An INVALID refusal says so once for the whole upload, not under every file.
      invalid ? undefined : message,
    );
    return;
  }
  if (!processed.files?.length) {
    for (const s of batch) onChange(s.index, { state: 'failed', message: UPLOAD_MESSAGES.nothing });
    outcome.unanswered.push(...batch.map((s) => nameOf(s.index)));
    return;
  }
  for (const s of batch) {
    const name = nameOf(s.index);
    const result = processed.files.find((f) => f.upload_id === s.uploadId);
    if (!result) {
      onChange(s.index, { state: 'failed' });
      outcome.failed.push(name);
    } else if (result.invalid) {
      onChange(s.index, { state: 'invalid' });
      outcome.invalid.push(name);
    } else if (result.is_duplicate) {
      onChange(s.index, { state: 'duplicate' });
      outcome.duplicates.push(result.document_name || name);
    } else {
      onChange(s.index, { state: 'done' });
      outcome.uploaded.push(result.document_name || name);
    }
  }
}

/**
 * Presigned upload (spec 1 s.7.6): upload links per folder, a direct PUT of every file with its
 * progress, and process_document, which validates and files them: in batches as they land (`Filer`), so
 * filing overlaps sending and a large upload is not all filed only after its last byte.
 */
export async function uploadFiles(options: UploadOptions): Promise<UploadOutcome> {
  const { api, companyId, entries, signal, onChange = () => {} } = options;
  const outcome = emptyOutcome();
  const nameOf = (i: number) => entries[i]?.file.name ?? '';
  const record: FilingRecord = { outcome, nameOf, onChange };
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const list = groups.get(e.dir) ?? [];
    list.push(i);
    groups.set(e.dir, list);
  });
  for (const [dir, indexes] of groups) {
    if (signal?.aborted) {
      recordFiles(indexes, 'cancelled', record);
      continue;
    }
    const folder = dir
      ? dir.split('/').reduce(joinPath, normalizePath(options.path))
      : normalizePath(options.path);
    const files = indexes.map((i) => entries[i]?.file as File);
    let links: UploadLink[];
    try {
      ({ links } = await api.uploadLinks(companyId, folder, files.map(fileMeta)));
    } catch (err) {
      const message = refusalText(err);
      recordFiles(indexes, 'failed', record, message);
      outcome.errors.push(message);
      continue;
    }
    const receivedAt = Date.now();
    // Each batch of files that landed is filed while the rest are still being sent.
    const filer = new Filer(
      (batch) => fileLanded(batch, (uploadIds) => api.process(companyId, folder, uploadIds), record),
      FILE_BATCH,
    );
    // Cancelled, no filing call starts from then on, not even while the PUTs in flight are stopping.
    const stopFiling = () => filer.cancel();
    signal?.addEventListener('abort', stopFiling, { once: true });
    const { failed, cancelled } = await sendFiles(transfersTo(indexes, files, links, receivedAt), {
      signal,
      onChange,
      makeXhr: options.makeXhr,
      onSent: (landed) => filer.add(landed),
      relink: async (again) => (await api.uploadLinks(companyId, folder, again.map(fileMeta))).links,
    });
    outcome.failed.push(...failed.map(nameOf));
    outcome.cancelled.push(...cancelled.map(nameOf));
    // Cancelled: what landed and is not filed yet stays unfiled.
    const unfiled = await filer.finish(Boolean(signal?.aborted));
    signal?.removeEventListener('abort', stopFiling);
    recordFiles(
      unfiled.map((l) => l.index),
      'cancelled',
      record,
    );
  }
  return outcome;
}
