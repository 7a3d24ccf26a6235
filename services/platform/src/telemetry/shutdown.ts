/**
 * The telemetry SDK is started by `--import @portico/platform/telemetry` (register.ts), before the
 * service's own modules; it leaves its shutdown here for the service's stop to call. A process ended by
 * process.exit never emits `beforeExit`, so without this the spans of the last requests (those finished
 * while draining) would be dropped on every rollout.
 */
const SHUTDOWN = Symbol.for('portico.telemetry.shutdown');

type Holder = { [SHUTDOWN]?: () => Promise<void> };

export function registerTelemetryShutdown(shutdown: () => Promise<void>): void {
  (globalThis as Holder)[SHUTDOWN] = shutdown;
}

/** Exports what is buffered and stops the SDK, within `timeoutMs`; nothing when none was started. */
export async function shutdownTelemetry(timeoutMs = 5_000): Promise<void> {
  const shutdown = (globalThis as Holder)[SHUTDOWN];
  if (!shutdown) return;
  delete (globalThis as Holder)[SHUTDOWN];
  await Promise.race([
    shutdown().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
  ]);
}
