/** The gateway's error body: `{ error, message, code, fields?, trace_id? }`. */
export interface ErrorBody {
  error: string;
  message?: string;
  code?: string;
  fields?: Record<string, string>;
  trace_id?: string;
}

/**
 * A failed call: a non-2xx status, a 2xx body carrying an `error` field, or a body that is not JSON (a
 * proxy's page: `code` 'invalid_response', and the generic message, never the page's markup).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly error?: string;
  readonly fields?: Record<string, string>;
  /** The trace the gateway logged the failure under: a reference for the user to quote. */
  readonly traceId?: string;

  constructor(status: number, body: Partial<ErrorBody> | undefined, fallback = 'Something went wrong') {
    super(body?.message || body?.error || fallback);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.code;
    this.error = body?.error;
    this.fields = body?.fields;
    this.traceId = body?.trace_id;
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/** How many times a failed read is tried again (react-query's `retry`). */
const READ_RETRIES = 1;

/**
 * Whether a failed read is worth trying again: a dropped connection or a 5xx may pass, a 4xx answers
 * the same the next time (a record that is not there, a refused role), so it is shown at once. A 504
 * too: the gateway has already waited its whole timeout for the service, and a second wait would keep
 * the user on a spinner twice as long before the screen says so and offers to try again; a call the
 * client timed out likewise.
 */
export function shouldRetryRead(failureCount: number, err: unknown): boolean {
  if (isApiError(err) && ((err.status >= 400 && err.status < 500) || err.status === 504)) return false;
  // Nor a call the client gave up on after waiting its whole limit (REQUEST_TIMEOUT_MS).
  if (err instanceof DOMException && err.name === 'TimeoutError') return false;
  return failureCount < READ_RETRIES;
}

/**
 * The text to show for a failed call: 429 always shows the server's message (spec 1 s.8), a listed
 * message wins otherwise, then the server's message, then the generic one.
 */
export function errorMessage(err: unknown, listed?: string): string {
  if (isApiError(err)) {
    if (err.status === 429) return err.message;
    return listed ?? err.message;
  }
  return listed ?? 'Something went wrong';
}
