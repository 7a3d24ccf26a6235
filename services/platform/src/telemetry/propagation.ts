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
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
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
