/** An error and the errors it wraps as its `cause` (a query builder wraps the driver's), five at most. */
export function* causeChain(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let current = err, depth = 0; current && depth < 5; depth++) {
    yield current as { code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/** The SQLSTATE of a PostgreSQL error, also when a query builder wrapped it as the `cause`. */
export function postgresCode(err: unknown): string | undefined {
  for (const { code } of causeChain(err))
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  return undefined;
}

/** Another row already holds a unique value (23505). */
export const isUniqueViolation = (err: unknown): boolean => postgresCode(err) === '23505';

/**
 * The transaction was chosen to end so another could go on (a deadlock, 40P01, or a serialization
 * failure, 40001): nothing of it was written, and the same request sent again normally passes.
 */
export const isTransactionConflict = (err: unknown): boolean => {
  const code = postgresCode(err);
  return code === '40P01' || code === '40001';
};

/**
 * Text PostgreSQL cannot store: NUL (22021, "invalid byte sequence") or a character the database's
 * encoding lacks (22P05). The caller sent it, so it is their error, not the service's.
 */
export const isUnstorableText = (err: unknown): boolean => {
  const code = postgresCode(err);
  return code === '22021' || code === '22P05';
};

/** Node's codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * The process's own pool had no connection free in time (pg-pool's wait, 5 s): every connection is
 * busy with other requests of this replica. The database answers; this replica is overloaded.
 */
export function isConnectionPoolBusy(err: unknown): boolean {
  for (const { message } of causeChain(err))
    if (typeof message === 'string' && /^timeout exceeded when trying to connect/.test(message)) return true;
  return false;
}

/**
 * The client gave up waiting for a query's answer (the pool's query_timeout: the server would have ended
 * the statement by then, so its connection is taken for lost). The connection cannot be used again.
 */
export function isQueryReadTimeout(err: unknown): boolean {
  for (const { message } of causeChain(err))
    if (typeof message === 'string' && /^Query read timeout/.test(message)) return true;
  return false;
}

/**
 * The database away or full rather than the request wrong: the pool found no connection in time, the
 * server refused or dropped it, or is shutting down, starting up, or out of connections (SQLSTATE class
 * 08, 57P01-57P03, 53300), or a query's answer never came (`isQueryReadTimeout`). The caller is told the service is unavailable (503), as when it is down. A
 * wait for the pool's own connections (`isConnectionPoolBusy`) is among them, but is this replica being
 * busy, not an outage: the RPC layer tells it apart and logs it as overload.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isConnectionPoolBusy(err) || isQueryReadTimeout(err)) return true;
  for (const { code, message } of causeChain(err)) {
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (typeof message === 'string' && /^Connection terminated/.test(message)) return true;
  }
  const sqlState = postgresCode(err);
  return !!sqlState && (sqlState.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(sqlState));
}
