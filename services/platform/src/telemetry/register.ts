// Loaded with `node --import @portico/platform/telemetry` so instrumentation patches pg and http
// before they are imported. Exporters come from OTEL_* variables. Without a trace exporter, spans are
// not recorded and pg and http are not patched, but every span still gets its ids: trace ids reach
// logs, error bodies and NATS headers.
import { trace } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { registerTelemetryShutdown, shutdownTelemetry } from './shutdown.js';
import { cleaningTracerProvider } from './span-cleaning.js';

const env = process.env;
const otlpEndpoint = !!env.OTEL_EXPORTER_OTLP_ENDPOINT;
const tracesExported = (env.OTEL_TRACES_EXPORTER ?? 'none') !== 'none' || otlpEndpoint;

// The SDK defaults metrics and logs to OTLP on localhost: with no collector named, that is a meter
// recorded on every request and an export failing every minute. Off unless asked for.
if (!otlpEndpoint) {
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
}

// The SDK registers a tracer provider only when it has a span processor, and `OTEL_TRACES_EXPORTER=none`
// leaves it none: every span would then carry the all-zero trace id. This processor does nothing, so
// the provider is registered and spans get real ids that are never exported.
const idsOnly: SpanProcessor = {
  onStart: () => {},
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

// HTTP and PostgreSQL spans only matter where spans go somewhere; the gateway's request hook and the
// RPC handlers open the spans that carry trace ids either way.
const instrumentations = tracesExported ? [new HttpInstrumentation(), new PgInstrumentation()] : [];

const sdk = new NodeSDK({
  serviceName: env.OTEL_SERVICE_NAME ?? 'portico',
  instrumentations,
  // An explicit OTEL_TRACES_SAMPLER (say parentbased_traceidratio in production) is the SDK's to apply.
  ...(tracesExported || env.OTEL_TRACES_SAMPLER ? {} : { sampler: new AlwaysOffSampler() }),
  ...(tracesExported ? {} : { spanProcessors: [idsOnly] }),
});
sdk.start();
// Their spans' status and exceptions lose the values a failed query carried, as the logs do: the pg
// instrumentation sets a failed query's status to the error's message, refused value and all.
for (const instrumentation of instrumentations)
  instrumentation.setTracerProvider(cleaningTracerProvider(trace.getTracerProvider()));

// stopOnSignals ends the process with process.exit, which `beforeExit` never sees: it calls this first.
registerTelemetryShutdown(() => sdk.shutdown());
process.once('beforeExit', () => {
  void shutdownTelemetry();
});
