import type { LoggerService } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { type DestinationStream, type Logger, pino } from 'pino';

/** Adds the active trace and span ids to every line, so a log line leads to its trace. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * An error as logged, without the values a failed query carried: the database layer writes a query's
 * parameters into its error (`params`, and a 'params:' tail of the message and stack), and PostgreSQL's
 * `detail` quotes the row ('Key (email)=(…) already exists'). Those are people's addresses, sign-in codes
 * and message bodies, which have no place in logs; the query text, the error code and the stack stay,
 * and the error's cause is logged with it (scrubbed alike), where it was left out. PostgreSQL's refusal
 * of a value it cannot read as its type quotes that value in the message itself (`REJECTED_VALUE_CODES`):
 * there the value is replaced, in the message and the stack.
 */
export function errorWithoutValues(err: unknown): unknown {
  return scrub(pino.stdSerializers.errWithCause(err as Error));
}

const PARAMS_TAIL = /\nparams: [\s\S]*?(?=\n {4}at |$)/;
const NOT_LOGGED = '[not logged]';

/**
 * SQLSTATEs whose message quotes the value refused: invalid text representation (22P02: a uuid, number,
 * boolean, array or enum value), invalid datetime format (22007) and datetime field overflow (22008).
 * Their `where` may quote it too ('JSON data, line 1: …').
 */
const REJECTED_VALUE_CODES = new Set(['22P02', '22007', '22008']);

/** 'invalid value "…" for "YYYY"' (a date format's field). */
const FORMAT_FIELD_VALUE = /^(invalid value )"[\s\S]*"( for "[^"]*")$/;
/** '…: "value"', the value last (it may hold quotes itself, so up to the message's last one). */
const QUOTED_VALUE_LAST = /^([\s\S]*?: )"[\s\S]*"$/;

/** `message` with the value PostgreSQL quoted in it replaced; any other quoted text goes too. */
export function withoutRejectedValue(message: string): string {
  if (FORMAT_FIELD_VALUE.test(message)) return message.replace(FORMAT_FIELD_VALUE, `$1"${NOT_LOGGED}"$2`);
  if (QUOTED_VALUE_LAST.test(message)) return message.replace(QUOTED_VALUE_LAST, `$1"${NOT_LOGGED}"`);
  return message.replace(/"[\s\S]*"/, `"${NOT_LOGGED}"`);
}

/**
 * An error's message (or any text about a failure: a span's status) as `scrub` leaves it: without a
 * failed query's 'params:' tail, and without the value PostgreSQL quoted where `code` is one of
 * REJECTED_VALUE_CODES. Where the code is not known (undefined), a message shaped as such a refusal
 * ('…: "value"', 'invalid value "…" for "…"') loses its quoted value all the same.
 */
export function messageWithoutValues(message: string, code?: string): string {
  const withoutParams = message.replace(PARAMS_TAIL, `\nparams: ${NOT_LOGGED}`);
  const refusal =
    code === undefined
      ? FORMAT_FIELD_VALUE.test(withoutParams) || QUOTED_VALUE_LAST.test(withoutParams)
      : REJECTED_VALUE_CODES.has(code);
  return refusal ? withoutRejectedValue(withoutParams) : withoutParams;
}

/** A stack as `scrub` leaves it, for one given apart from its error (Nest's `trace` argument). */
export function stackWithoutValues(stack: string): string {
  return stack.replace(PARAMS_TAIL, `\nparams: ${NOT_LOGGED}`);
}

function scrub(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 5) return value;
  // `input`: what a parser refused, whole (a URL with its password, for ERR_INVALID_URL).
  const { params: _params, detail: _detail, input: _input, ...rest } = value as Record<string, unknown>;
  for (const key of ['message', 'stack'] as const)
    if (typeof rest[key] === 'string')
      rest[key] = (rest[key] as string).replace(PARAMS_TAIL, `\nparams: ${NOT_LOGGED}`);
  if (typeof rest.code === 'string' && REJECTED_VALUE_CODES.has(rest.code)) {
    delete rest.where;
    if (typeof rest.message === 'string') {
      const refused = rest.message;
      rest.message = withoutRejectedValue(refused);
      // The stack opens with the message; every copy of it goes.
      if (typeof rest.stack === 'string') rest.stack = rest.stack.split(refused).join(rest.message as string);
    }
  }
  if (rest.cause) rest.cause = scrub(rest.cause, depth + 1);
  return rest;
}

/** JSON lines on stdout, or on `destination` (a test reading what was logged). */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: traceFields,
    serializers: { err: errorWithoutValues },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Routes NestJS's own logging through the structured logger. */
export class JsonNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  /**
   * Nest passes the error itself where it has one (a reply it could not publish, an exception at start,
   * a server's failure): logged as `err`, through the same cleaning as every other, with its stack.
   */
  error(message: unknown, trace?: string, context?: string) {
    if (message instanceof Error) {
      const { message: text } = errorWithoutValues(message) as { message: string };
      this.logger.error({ err: message, context }, text);
      return;
    }
    const stack = typeof trace === 'string' ? stackWithoutValues(trace) : trace;
    this.logger.error({ context, stack }, stackWithoutValues(String(message)));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export type { Logger };
