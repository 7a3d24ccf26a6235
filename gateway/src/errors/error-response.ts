import { HttpException } from '@nestjs/common';
import { AppError, GENERIC_ERROR_MESSAGE } from '@portico/platform';

/** The failure body every route answers with; the browser treats any `error` field as a failure. */
export interface ErrorBody {
  error: string;
  message: string;
  code: string;
  fields?: Record<string, string>;
  trace_id?: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error was not expected and must be logged with its details. */
  unexpected: boolean;
}

/** Messages for the HTTP errors the framework raises before a route runs. */
const HTTP_MESSAGES: Record<number, { code: string; message: string }> = {
  400: { code: 'invalid_input', message: 'The request is not valid JSON' },
  401: { code: 'unauthenticated', message: 'Unauthorized' },
  403: { code: 'forbidden', message: 'You do not have permission to do that' },
  404: { code: 'not_found', message: 'Not found' },
  405: { code: 'method_not_allowed', message: 'Method not allowed' },
  413: { code: 'payload_too_large', message: 'The request is too large' },
  415: { code: 'unsupported_media_type', message: 'The request must be JSON' },
  429: { code: 'too_many_requests', message: 'Too many requests. Please try again later.' },
  503: { code: 'service_unavailable', message: 'The service is unavailable' },
};

/**
 * Maps anything a route can throw to its status and body. An AppError keeps its user-facing message,
 * except an internal one: whatever a service put in it (a query, a path, a stack) stays in the log, and
 * the caller gets the generic 500 with the trace id, as for an unknown error.
 */
export function toErrorResponse(err: unknown, traceId?: string): ErrorResponse {
  const withTrace = (body: ErrorBody): ErrorBody => (traceId ? { ...body, trace_id: traceId } : body);
  if (err instanceof AppError && err.kind === 'internal') {
    return {
      status: err.status,
      headers: {},
      unexpected: true,
      body: withTrace({
        error: GENERIC_ERROR_MESSAGE,
        message: GENERIC_ERROR_MESSAGE,
        code: 'internal',
        ...(err.extra.traceId && !traceId ? { trace_id: err.extra.traceId } : {}),
      }),
    };
  }
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (err.kind === 'too_many_requests') headers['retry-after'] = String(err.extra.retryAfterSeconds ?? 60);
    return {
      status: err.status,
      headers,
      unexpected: false,
      body: withTrace({
        error: err.message,
        message: err.message,
        code: err.code,
        ...(err.extra.fields ? { fields: err.extra.fields } : {}),
      }),
    };
  }
  if (err instanceof HttpException && err.getStatus() < 500) {
    const status = err.getStatus();
    const known = HTTP_MESSAGES[status] ?? {
      code: 'bad_request',
      message: 'The request could not be processed',
    };
    return {
      status,
      headers: {},
      unexpected: false,
      body: withTrace({ error: known.message, message: known.message, code: known.code }),
    };
  }
  return {
    status: 500,
    headers: {},
    unexpected: true,
    body: withTrace({ error: GENERIC_ERROR_MESSAGE, message: GENERIC_ERROR_MESSAGE, code: 'internal' }),
  };
}

/**
 * Fastify's own refusals of an address it cannot route (a malformed percent-escape, a path parameter
 * past its length limit), which happen before any hook or route: the same body shape as every other
 * error, not Fastify's.
 */
export function frameworkErrorResponse(err: { code?: string }): { status: number; body: ErrorBody } {
  const body = (code: string, message: string): ErrorBody => ({ error: message, message, code });
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return { status: 414, body: body('uri_too_long', 'The address is too long') };
  return { status: 400, body: body('invalid_url', 'The address is not valid') };
}
