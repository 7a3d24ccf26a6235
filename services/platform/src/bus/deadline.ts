import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../errors/app-error.js';

/**
 * How long the caller of a request waits for its reply, in milliseconds, sent with every request. A
 * duration rather than a point in time, so the clocks of two pods need not agree (as gRPC's timeout).
 */
export const TIMEOUT_HEADER = 'portico-timeout-ms';

/** What the caller's user reads when a service is slow or away; which service it was goes to the log. */
export const SERVICE_TIMEOUT_MESSAGE = 'The service did not answer in time. Please try again.';
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is not available right now. Please try again.';

/** The code of a request given up because its caller no longer waits for it. */
export const DEADLINE_PASSED = 'deadline_passed';

const deadlines = new AsyncLocalStorage<number>();

/**
 * The part of a caller's timeout kept back for the reply's way back and the commit itself: a change is
 * committed only while the caller will still hear of it. 5% of the timeout, within 50 ms and 1 s.
 */
export function replyAllowanceMs(timeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.round(timeoutMs / 20)));
}

/** The time (epoch ms) by which a request received at `receivedAt` must be done; none without a header. */
export function deadlineOf(timeoutHeader: string | undefined, receivedAt = Date.now()): number | undefined {
  const timeoutMs = Number(timeoutHeader);
  if (!timeoutHeader || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return undefined;
  return receivedAt + timeoutMs - replyAllowanceMs(timeoutMs);
}

/** Runs `work` (and everything it starts) under `deadline`; as it is without one. */
export function withDeadline<T>(deadline: number | undefined, work: () => T): T {
  return deadline === undefined ? work() : deadlines.run(deadline, work);
}

/** Milliseconds left of the current request's deadline; undefined outside a request that has one. */
export function remainingMs(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : deadline - Date.now();
}

/**
 * Runs `work` (and everything it starts) outside any request's deadline: background work a request
 * starts, such as a preview to convert, outlives the request and must still commit when it finishes.
 */
export function detached<T>(work: () => T): T {
  return deadlines.exit(work);
}

export const deadlinePassed = () => new AppError('timeout', DEADLINE_PASSED, SERVICE_TIMEOUT_MESSAGE);

/**
 * 504 once the current request's caller has stopped waiting: its work is given up rather than done
 * unseen (the caller has already told its user to try again). Checked when a request gets its turn, and
 * before each commit, so a change the caller was told failed is not made behind its back.
 */
export function assertBeforeDeadline(): void {
  const left = remainingMs();
  if (left !== undefined && left <= 0) throw deadlinePassed();
}
