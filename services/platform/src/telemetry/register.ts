// Loaded with `node --import @portico/platform/telemetry` so instrumentation patches pg and http
// before they are imported. The exporter comes from OTEL_* variables; without one, spans are still
// recorded (trace ids reach logs and NATS headers) but exported nowhere.
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace';

const exporterConfigured =
  (process.env.OTEL_TRACES_EXPORTER ?? 'none') !== 'none' || !!process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'portico',
  instrumentations: [new HttpInstrumentation(), new PgInstrumentation()],
  ...(exporterConfigured ? {} : { spanProcessors: [new NoopSpanProcessor()] }),
});
sdk.start();

process.once('beforeExit', () => {
  void sdk.shutdown();
});
