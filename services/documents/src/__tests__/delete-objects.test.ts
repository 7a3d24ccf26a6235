import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { capturedLog } from '@portico/platform/testing';
import { deleteObjects, type ObjectStore } from '../storage/object-store.js';

/** A store whose deletes of the keys in `refused` fail as a key without DeleteObject is refused. */
function storeRefusing(refused: readonly string[]) {
  const deleted: string[] = [];
  const store = {
    delete: async (key: string) => {
      if (refused.includes(key))
        throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $fault: 'client' });
      deleted.push(key);
    },
  } as unknown as ObjectStore;
  return { store, deleted };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

/** Runs `work` inside a request's span, as the service's handlers do. */
const inSpan = <T>(work: () => Promise<T>) =>
  context.with(
    trace.setSpanContext(context.active(), { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 }),
    work,
  );

describe('deleting objects no row names any more', () => {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    manager.disable();
    context.disable();
  });

  it('deletes the others and logs one warning for the call: how many failed, the error, with the trace', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `firms/f/companies/c/files/${i}`);
    const refused = keys.filter((_, i) => i % 2 === 0);
    const { store, deleted } = storeRefusing(refused);
    const { lines, logger } = capturedLog('documents');
    await inSpan(() => deleteObjects(store, keys, logger));
    expect(deleted).toHaveLength(20);
    // Before, every failure was dropped: an object nothing names stayed for ever, unseen.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      failed: 20,
      of: 40,
      err: { message: 'Access Denied' },
      trace_id: TRACE_ID,
    });
    // The first keys only (ids, nothing a person typed), not a whole folder's.
    expect(lines[0]?.keys).toEqual(refused.slice(0, 20));
  });

  it('logs nothing when every object is deleted', async () => {
    const { store, deleted } = storeRefusing([]);
    const { lines, logger } = capturedLog('documents');
    await deleteObjects(store, ['a', 'b'], logger);
    expect(deleted).toEqual(['a', 'b']);
    expect(lines).toEqual([]);
  });
});
