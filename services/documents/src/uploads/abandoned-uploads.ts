import { type Logger, startRepeating } from '@portico/platform';
import { mapLimited } from '../jobs/map-limited.js';
import type { ObjectStore } from '../storage/object-store.js';
import { PROCESS_GRACE_MS } from './upload-expiry.rules.js';
import type { UploadsRepository } from './uploads.repository.js';

const HOUR_MS = 60 * 60 * 1000;
const BATCH = 200;
const DELETE_CONCURRENCY = 8;

export interface AbandonedUploadsOptions {
  /** How long after its link expires an upload may still be processed (default PROCESS_GRACE_MS). */
  graceMs?: number;
  /** How long processed uploads are remembered before their rows are forgotten. */
  keepConsumedMs?: number;
  sweepEveryMs?: number;
}

/**
 * One sweep: the objects and rows of uploads never processed, an hour past their link's expiry, batch by
 * batch; then the rows of uploads processed more than a day ago. Several replicas may sweep at once: rows
 * are claimed with skip locked and deleting an object twice is harmless.
 */
export async function sweepAbandonedUploads(
  repo: UploadsRepository,
  store: ObjectStore,
  options: AbandonedUploadsOptions = {},
  now = new Date(),
): Promise<{ removed: number; forgotten: number }> {
  const cutoff = new Date(now.getTime() - (options.graceMs ?? PROCESS_GRACE_MS));
  const deleteAll = async (keys: string[]) => {
    await mapLimited(keys, DELETE_CONCURRENCY, (key) => store.delete(key));
  };
  let removed = 0;
  for (;;) {
    const n = await repo.removeAbandoned(cutoff, BATCH, deleteAll);
    removed += n;
    if (n < BATCH) break;
  }
  const forgotten = await repo.forgetConsumed(
    new Date(now.getTime() - (options.keepConsumedMs ?? 24 * HOUR_MS)),
  );
  return { removed, forgotten };
}

/**
 * Files uploaded through a link and never processed (a closed tab, a failed process call) would otherwise
 * stay in storage for ever, unseen by anyone. Sweeps at start and every hour; a failed sweep is logged and
 * tried again at the next.
 */
export function startAbandonedUploadsSweep(
  repo: UploadsRepository,
  store: ObjectStore,
  log: Logger,
  options: AbandonedUploadsOptions = {},
): { stop: () => Promise<void> } {
  const sweep = () =>
    sweepAbandonedUploads(repo, store, options)
      .then(
        (done) =>
          (done.removed || done.forgotten) &&
          log.info(done, 'Abandoned uploads removed, processed ones forgotten'),
      )
      .catch((err) => log.warn({ err }, 'Sweeping abandoned uploads failed; will retry'));
  return startRepeating(sweep, options.sweepEveryMs ?? HOUR_MS);
}
