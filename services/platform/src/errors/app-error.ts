/**
 * The one error model of Portico. A service throws an AppError with the spec's user-facing message;
 * it crosses NATS as a plain object (`WireError`) and the gateway answers with its status.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'locked'
  | 'too_many_requests'
  | 'internal'
  | 'unavailable'
  | 'timeout';

export const STATUS_OF: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  locked: 423,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
};

export interface WireError {
  kind: ErrorKind;
  /** A stable machine code, e.g. `invalid_password`. */
  code: string;
  /** The user-facing message, verbatim from the spec where it names one. */
  message: string;
  /** Field-level messages for validation failures. */
  fields?: Record<string, string>;
  retry_after_seconds?: number;
  trace_id?: string;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: { fields?: Record<string, string>; retryAfterSeconds?: number; traceId?: string } = {},
  ) {
    super(message);
  }

  get status(): number {
    return STATUS_OF[this.kind];
  }

  toWire(traceId?: string): WireError {
    return {
      kind: this.kind,
      code: this.code,
      message: this.message,
      ...(this.extra.fields ? { fields: this.extra.fields } : {}),
      ...(this.extra.retryAfterSeconds ? { retry_after_seconds: this.extra.retryAfterSeconds } : {}),
      ...(traceId ? { trace_id: traceId } : {}),
    };
  }

  static fromWire(wire: WireError): AppError {
    const err = new AppError(wire.kind, wire.code, wire.message, {
      fields: wire.fields,
      retryAfterSeconds: wire.retry_after_seconds,
      traceId: wire.trace_id,
    });
    return err;
  }

  static isWire(value: unknown): value is WireError {
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as WireError).kind === 'string' &&
      (value as WireError).kind in STATUS_OF &&
      typeof (value as WireError).message === 'string'
    );
  }
}

/** The message shown for any failure the spec does not name (spec 1 section 8, toast defaults). */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong';

export const notFound = (what = 'Not found') => new AppError('not_found', 'not_found', what);
export const forbidden = (message = 'You do not have permission to do that') =>
  new AppError('forbidden', 'forbidden', message);
/** A client asked for what only the firm's staff may do (the same words from the gateway and services). */
export const ADVISOR_ONLY_MESSAGE = 'Only your firm can do that';
export const advisorOnly = () => new AppError('forbidden', 'advisor_only', ADVISOR_ONLY_MESSAGE);
export const badRequest = (message: string, fields?: Record<string, string>, code = 'invalid_input') =>
  new AppError('bad_request', code, message, { fields });
