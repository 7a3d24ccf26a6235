import { describe, expect, it } from '@jest/globals';
import { isConnectionPoolBusy, isDatabaseUnavailable } from '../errors/postgres-errors.js';
import { NotReady, runChecks } from '../health/health-server.js';
import { registerTelemetryShutdown, shutdownTelemetry } from '../telemetry/shutdown.js';

describe('readiness checks', () => {
  it('say which check failed or timed out, not why (the log has that)', async () => {
    const results = await runChecks(
      {
        database: async () => {
          throw new Error('password authentication failed for user "documents" at pg-1.internal');
        },
        nats: () => new Promise(() => {}),
        storage: async () => undefined,
      },
      50,
    );
    expect(results).toEqual({ database: 'failed', nats: 'timed out', storage: 'ok' });
  });

  it('say a state the process reports itself, such as migrations it waits for', async () => {
    const results = await runChecks({
      migrations: async () => {
        throw new NotReady('pending');
      },
      database: async () => undefined,
    });
    expect(results).toEqual({ migrations: 'pending', database: 'ok' });
  });
});

describe('telemetry shutdown on stop', () => {
  it('runs the registered shutdown once, and gives up on one that never ends', async () => {
    let calls = 0;
    registerTelemetryShutdown(async () => {
      calls += 1;
    });
    await shutdownTelemetry();
    await shutdownTelemetry();
    expect(calls).toBe(1);
    registerTelemetryShutdown(() => new Promise(() => {}));
    const started = Date.now();
    await shutdownTelemetry(100);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('a database that cannot be reached', () => {
  it('is told from an error of the request', () => {
    const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(wrapped(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))),
    ).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('too many'), { code: '53300' })))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('shutting down'), { code: '57P01' })))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate'), { code: '23505' })))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });
});

describe('a pool with no connection free', () => {
  it('is told apart from a database that cannot be reached', () => {
    const poolWait = new Error('timeout exceeded when trying to connect');
    expect(isConnectionPoolBusy(poolWait)).toBe(true);
    expect(isConnectionPoolBusy(new Error('Failed query: select 1', { cause: poolWait }))).toBe(true);
    // A connection the pool was making that the server did not finish is the database's.
    const notMade = new Error('Connection terminated due to connection timeout');
    expect(isConnectionPoolBusy(notMade)).toBe(false);
    expect(isDatabaseUnavailable(notMade)).toBe(true);
    expect(isConnectionPoolBusy(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
