import type { Exception, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { messageWithoutValues, stackWithoutValues } from '../logging/logger.js';

/**
 * Spans that keep of a failure what the logger keeps (logging/logger.ts, `messageWithoutValues`): the
 * PostgreSQL instrumentation sets a failed query's span status to the error's message as it is, and a
 * refusal of a value quotes it ('invalid input syntax for type uuid: "jane@example.com"'); exported, that
 * is the address the log line left out. The status message and the exceptions recorded on these spans
 * lose the values a failed query carried, as the log does.
 *
 * Given to the instrumentations (register.ts) rather than registered as a span processor: the SDK builds
 * the exporters from OTEL_* only while it is given no span processors of ours. The platform's own spans
 * (`inSpan`) record an error's name and code, never its message.
 */
export function cleaningTracerProvider(inner: TracerProvider): TracerProvider {
  return {
    getTracer: (name, version, options) => cleaningTracer(inner.getTracer(name, version, options)),
  };
}

function cleaningTracer(inner: Tracer): Tracer {
  const startActiveSpan = (...args: unknown[]) => {
    const work = args.pop() as (span: Span) => unknown;
    return (inner.startActiveSpan as (...all: unknown[]) => unknown)(...args, (span: Span) =>
      work(cleaningSpan(span)),
    );
  };
  return {
    startSpan: (name, options, context) => cleaningSpan(inner.startSpan(name, options, context)),
    startActiveSpan: startActiveSpan as Tracer['startActiveSpan'],
  };
}

/** The SQLSTATE in the exception the PostgreSQL instrumentation records before it sets the status. */
const RECORDED_CODE = /\(code: ([0-9A-Z]{5})\)/;

/**
 * `span`, made to clean what it is told of a failure before it keeps it. The SQLSTATE decides, as in the
 * log, whether a message quotes a refused value: the pg instrumentation records the failure as a text
 * naming the code just before it sets the status to the error's message, so that code goes with the next
 * status; an error recorded whole lends its code to a status that repeats its message. With no code known,
 * a message shaped as a refusal loses its quoted value all the same (`messageWithoutValues`).
 */
export function cleaningSpan(span: Span): Span {
  let recordedCode: string | undefined;
  const codeOfMessage = new Map<string, string>();
  const setStatus = span.setStatus.bind(span);
  const recordException = span.recordException.bind(span);
  span.recordException = (exception, time) => {
    if (typeof exception === 'string') {
      recordedCode = RECORDED_CODE.exec(exception)?.[1];
      return recordException(messageWithoutValues(exception), time);
    }
    const { code, message } = exception as { code?: unknown; message?: unknown };
    const own = typeof code === 'string' ? code : undefined;
    if (own && typeof message === 'string') codeOfMessage.set(message, own);
    return recordException(exceptionWithoutValues(exception, own), time);
  };
  span.setStatus = (status) => {
    if (status.message === undefined) return setStatus(status);
    const code = codeOfMessage.get(status.message) ?? recordedCode;
    return setStatus({ ...status, message: messageWithoutValues(status.message, code) });
  };
  return span;
}

/** What the SDK reads of a recorded exception (name, code, message, stack), each cleaned. */
function exceptionWithoutValues(exception: Exception, code: string | undefined): Exception {
  const { name, message, stack } = exception as { name?: unknown; message?: unknown; stack?: unknown };
  const cleaned: { name?: string; code?: string; message?: string; stack?: string } = {};
  if (typeof name === 'string') cleaned.name = name;
  if (code) cleaned.code = code;
  if (typeof message === 'string') cleaned.message = messageWithoutValues(message, code);
  // The stack opens with the message: that copy goes as the message does, and the params tail with it.
  if (typeof stack === 'string')
    cleaned.stack = stackWithoutValues(
      typeof message === 'string' && message ? stack.split(message).join(cleaned.message) : stack,
    );
  return cleaned as Exception;
}
