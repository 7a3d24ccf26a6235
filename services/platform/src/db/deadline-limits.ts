import type pg from 'pg';
import { DEADLINE_PASSED, deadlinePassed, remainingMs } from '../bus/deadline.js';
import { AppError } from '../errors/app-error.js';
import { causeChain, postgresCode } from '../errors/postgres-errors.js';

/** The statement timeout a pool gives its connections (`statement_timeout`), if it sets one. */
function poolStatementTimeoutMs(pool: pg.Pool | undefined): number | undefined {
  const value = (pool as unknown as { options?: { statement_timeout?: unknown } } | undefined)?.options
    ?.statement_timeout;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/**
 * A pooled connection, waited for no longer than the current request's caller still waits: a request
 * that gave up waiting for the pool frees its handler slot at its deadline (504) instead of holding it
 * for the pool's own wait (5 s). A connection that comes after that goes straight back to the pool.
 */
export async function connectWithinDeadline(pool: pg.Pool): Promise<pg.PoolClient> {
  const left = remainingMs();
  if (left === undefined) return pool.connect();
  if (left <= 0) throw deadlinePassed();
  const connecting = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'gave up'>((resolve) => {
    timer = setTimeout(() => resolve('gave up'), left);
  });
  try {
    const client = await Promise.race([connecting, gaveUp]);
    if (client !== 'gave up') return client;
  } finally {
    clearTimeout(timer);
  }
  connecting.then(
    (client) => client.release(),
    () => undefined,
  );
  throw deadlinePassed();
}

/**
 * The statement timeout (ms) for work done under the current request's deadline: the time it has left,
 * when that is shorter than the pool's own timeout. Undefined when the pool's own is the shorter, or
 * outside a request with a deadline; throws the deadline's 504 when no time is left. It bounds each
 * statement (a lock wait included), so a statement no longer runs for seconds after its caller gave up.
 */
export function statementTimeoutWithinDeadline(pool: pg.Pool | undefined): number | undefined {
  const left = remainingMs();
  if (left === undefined) return undefined;
  if (left <= 0) throw deadlinePassed();
  const poolTimeout = poolStatementTimeoutMs(pool);
  if (poolTimeout !== undefined && poolTimeout <= left) return undefined;
  return Math.max(1, Math.ceil(left));
}

/**
 * `, set_config(...)` of a transaction-local statement timeout, to append to the statement setting the
 * scope; nothing without a timeout.
 */
export const localStatementTimeoutSql = (timeoutMs: number | undefined): string =>
  timeoutMs === undefined ? '' : `, set_config('statement_timeout', '${Math.trunc(timeoutMs)}', true)`;

/**
 * A statement cancelled by the timeout taken from the request's deadline is the deadline's 504, not an
 * unexpected failure (500): the caller has stopped waiting. Any other error is returned as it is.
 */
export function deadlineErrorOf(err: unknown, deadlineTimeoutMs: number | undefined): unknown {
  if (deadlineTimeoutMs === undefined || postgresCode(err) !== '57014') return err;
  const gaveUp = deadlinePassed();
  (gaveUp as Error & { cause?: unknown }).cause = err;
  return gaveUp;
}

/**
 * The deadline's 504 when a query builder wrapped it (it wraps whatever its client threw as the `cause`
 * of a 'Failed query' error); any other error as it is.
 */
export function unwrapDeadlinePassed(err: unknown): unknown {
  for (const wrapped of causeChain(err))
    if (wrapped instanceof AppError && wrapped.code === DEADLINE_PASSED) return wrapped;
  return err;
}
