import { isApiError } from '@portico/kit';
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
  type Transfer,
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

  const transfers = transfersTo(all, files, links, Date.now());
  // The files whose transfer has begun (`sendFiles` reports each one from its start): a renewal is for
  // the others, in order.
  const begun = new Set<number>();
  const { sent, failed, cancelled } = await sendFiles(transfers, {
    signal,
    onChange: (index, change) => {
      begun.add(index);
      onChange(index, change);
    },
    makeXhr: options.makeXhr,
    relink: (again) =>
      renewLinks(
        api,
        dropLinkId,
        transfers.filter((t) => !begun.has(t.index)),
        again,
      ).catch((err) => {
        // The files left then fail; the visitor is told why (the firm's day used up, say), once.
        const reason = refusalText(err);
        if (!outcome.errors.includes(reason)) outcome.errors.push(reason);
        throw err;
      }),
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

/**
 * New links for the files of `again` (those not started yet, `waiting`, in their order), whose links
 * expire before they are sent: the same uploads signed again (`renewUploadIds`), so the firm's drop link
 * counts each file once. Asking new uploads for them counted every file again against this visitor's
 * share of the firm's day, and a large drop-off was refused 429 half-way. A file without an upload yet
 * gets a new one.
 */
async function renewLinks(
  api: DropOffOptions['api'],
  dropLinkId: string,
  waiting: readonly Transfer[],
  again: readonly File[],
): Promise<UploadLink[]> {
  const renewIds = again.map((file, k) =>
    waiting[k]?.file === file ? (waiting[k]?.link?.upload_id ?? '') : '',
  );
  const renewing = renewIds.filter(Boolean);
  const fresh = again.filter((_, k) => !renewIds[k]);
  let links: UploadLink[];
  try {
    ({ links } = await api.dropOffLinks(dropLinkId, fresh.map(fileMeta), renewing));
  } catch (err) {
    // Uploads the firm no longer renews for this visitor (their address changed on the way, a laptop
    // that slept past the uploads' hours): new ones for every file, as before renewals, rather than
    // failing the rest of the drop-off. A refusal of those (the day's budget) fails them as it says.
    if (!renewing.length || !isApiError(err) || err.status !== 404) throw err;
    return (await api.dropOffLinks(dropLinkId, again.map(fileMeta))).links;
  }
  // The renewed links come first, in the order asked, then one per new file.
  const renewed = new Map(links.slice(0, renewing.length).map((link) => [link.upload_id, link]));
  const made = links.slice(renewing.length);
  let next = 0;
  return renewIds.map((id) => (id ? renewed.get(id) : made[next++]) as UploadLink);
}
