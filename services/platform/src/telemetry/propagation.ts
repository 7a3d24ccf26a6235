import { type Context, context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** Writes the active W3C trace context (traceparent, tracestate) into a header carrier. */
export function injectTraceContext(carrier: Record<string, string>): Record<string, string> {
  propagation.inject(context.active(), carrier);
  return carrier;
}

export function extractTraceContext(get: (key: string) => string | undefined): Context {
  return propagation.extract(
    context.active(),
    {},
    {
      keys: () => ['traceparent', 'tracestate'],
      get: (_carrier, key) => get(key),
    },
  );
}

const tracer = () => trace.getTracer('portico');

/**
 * What a failed span's status says of the error: its name and code ('AppError not_found', 'Error 22P02'
 * for a query refused), never its message, which may quote what the request carried (a query's params,
 * a refused value). The code is the error's, else the one of the error it wraps (a query builder's).
 */
function failureStatus(err: unknown): string {
  const codeOf = (value: unknown) => {
    const code = (value as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
  };
  const name = err instanceof Error ? err.name : typeof err;
  const code = codeOf(err) ?? (err instanceof Error ? codeOf(err.cause) : undefined);
  return code ? `${name} ${code}` : name;
}

/** Runs `work` in a span that is a child of `parent`, recording failures on the span. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  parent: Context,
  work: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind }, parent, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failureStatus(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

export function currentTraceId(): string | undefined {
  const id = trace.getActiveSpan()?.spanContext().traceId;
  return id && !/^0+$/.test(id) ? id : undefined;
}

export { SpanKind };
