import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { inSpan, SpanKind } from '../telemetry/propagation.js';
import { cleaningTracerProvider } from '../telemetry/span-cleaning.js';

// Spans exported as they end, to read what a collector would receive.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterEach(() => exporter.reset());

/** What an exporter sends of a span: its name, status, attributes and events. */
const sent = (span: ReadableSpan) =>
  JSON.stringify({ name: span.name, status: span.status, attributes: span.attributes, events: span.events });

const exported = (): ReadableSpan => {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
};

/** A query refused by PostgreSQL for a value it could not read, as a query builder wraps it. */
function refusedQuery() {
  const cause = Object.assign(new Error('invalid input syntax for type uuid: "jane@example.com"'), {
    name: 'error',
    code: '22P02',
  });
  return Object.assign(
    new Error('Failed query: select "id" from "users" where "id" = $1\nparams: jane@example.com', { cause }),
    { name: 'DrizzleQueryError' },
  );
}

describe('spans of failures', () => {
  it('inSpan records the error name and code, not its message', async () => {
    await expect(
      inSpan('handle test', SpanKind.SERVER, context.active(), async () => {
        throw refusedQuery();
      }),
    ).rejects.toThrow('Failed query');
    const span = exported();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'DrizzleQueryError 22P02' });
    expect(sent(span)).not.toContain('jane');
  });

  it("keep no refused value in a failed query's status or exception, as the pg instrumentation records them", () => {
    const tracer = cleaningTracerProvider(provider).getTracer('@opentelemetry/instrumentation-pg');
    const span = tracer.startSpan('pg.query:SELECT portico');
    // What instrumentation-pg does with a failed query (its utils.patchCallback).
    span.recordException("PostgreSQL error of type 'error' occurred (code: 22P02)");
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: 'invalid input syntax for type uuid: "jane@example.com"',
    });
    span.end();
    const ended = exported();
    expect(ended.status.message).toBe('invalid input syntax for type uuid: "[not logged]"');
    expect(ended.events[0]?.attributes?.['exception.message']).toBe(
      "PostgreSQL error of type 'error' occurred (code: 22P02)",
    );
    expect(sent(ended)).not.toContain('jane');
  });

  it('clean an exception recorded whole, its params and the refused value in message and stack', () => {
    const tracer = cleaningTracerProvider(provider).getTracer('test');
    tracer.startActiveSpan('work', (span) => {
      const err = refusedQuery();
      span.recordException(err);
      span.recordException(err.cause as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      span.end();
    });
    const ended = exported();
    expect(ended.status.message).toBe(
      'Failed query: select "id" from "users" where "id" = $1\nparams: [not logged]',
    );
    expect(ended.events.map((e) => e.attributes?.['exception.message'])).toEqual([
      'Failed query: select "id" from "users" where "id" = $1\nparams: [not logged]',
      'invalid input syntax for type uuid: "[not logged]"',
    ]);
    expect(String(ended.events[1]?.attributes?.['exception.stacktrace'])).toMatch(
      /^error: invalid input syntax for type uuid: "\[not logged\]"\n {4}at /,
    );
    expect(sent(ended)).not.toContain('jane');
  });

  it('keep the quoted names of other failures', () => {
    const span = cleaningTracerProvider(provider).getTracer('test').startSpan('pg.query:SELECT');
    span.recordException("PostgreSQL error of type 'error' occurred (code: 42P01)");
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'relation "users" does not exist' });
    span.end();
    expect(exported().status.message).toBe('relation "users" does not exist');
  });
});
