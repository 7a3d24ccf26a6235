import type { UploadRow } from '../schema.js';

/**
 * How long after its link expires an upload may still be processed (a PUT begun just in time). The sweep
 * of uploads never processed waits as long before it deletes one.
 */
export const PROCESS_GRACE_MS = 60 * 60 * 1000;

/** Whether an upload's link expired longer ago than the grace: processing it answers 410. */
export const tooLateToProcess = (upload: Pick<UploadRow, 'expiresAt'>, now = Date.now()) =>
  upload.expiresAt.getTime() < now - PROCESS_GRACE_MS;

/**
 * How long after a drop-off upload was first handed out its link may be signed again. A drop-off that
 * outlives its links has them renewed, the same uploads counted once against the drop link's day: 8
 * hours carries 10 GB (a caller's share of the day) over a line of 3 Mbit/s. With no end, a caller
 * renewing unused links every hour held the firm's budget for the whole day, and could not be given
 * new ones afterwards only because its share was spent.
 */
export const DROP_OFF_RENEWABLE_MS = 8 * 60 * 60 * 1000;
