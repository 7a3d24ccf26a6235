import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { extractTraceContext, type Logger } from '@portico/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const TRACE_ID_HEADER = 'x-trace-id';
const spans = new WeakMap<FastifyRequest, { span: Span; owned: boolean }>();

function headerValue(request: FastifyRequest, key: string): string | undefined {
  const value = request.headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A server span per request, continuing the caller's W3C traceparent. When the HTTP instrumentation of
 * the telemetry preload already opened one, that span is used. The request (its body events included)
 * runs in the span's context, so log lines and NATS requests carry the trace; the trace id is echoed in
 * `x-trace-id`.
 */
export function registerRequestTracing(app: FastifyInstance, log: Logger): void {
  const tracer = trace.getTracer('portico-gateway');
  app.addHook('onRequest', (request, reply, done) => {
    const active = trace.getSpan(context.active());
    const owned = !active?.isRecording();
    const parent = owned ? extractTraceContext((key) => headerValue(request, key)) : context.active();
    const span = owned
      ? tracer.startSpan(
          `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
          { kind: SpanKind.SERVER },
          parent,
        )
      : (active as Span);
    span.setAttribute('http.route', request.routeOptions.url ?? '');
    spans.set(request, { span, owned });
    const ctx = trace.setSpan(parent, span);
    context.bind(ctx, request.raw);
    context.bind(ctx, reply.raw);
    const traceId = span.spanContext().traceId;
    if (traceId && !/^0+$/.test(traceId)) reply.header(TRACE_ID_HEADER, traceId);
    context.with(ctx, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const entry = spans.get(request);
    const status = reply.statusCode;
    const line = {
      method: request.method,
      route: request.routeOptions.url,
      status,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (status >= 500) log.error(line, 'request failed');
    else log.debug(line, 'request');
    if (entry) {
      entry.span.setAttribute('http.response.status_code', status);
      if (status >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      if (entry.owned) entry.span.end();
    }
    done();
  });
}
