import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DocumentsSignals, type ZipProgress } from '@portico/proto';
import { BusClient } from '../bus/bus-client.js';
import { subscribeSignal } from '../bus/signals.js';
import { capturedLog } from '../testing/captured-log.js';

const progress = { userId: 'u-1', progressId: 'p-1', filesDone: 2, fileCount: 5 };

describe('signals on core NATS', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: process.env.TEST_NATS_SERVER_URL as string });
  });
  afterAll(async () => {
    await nc.drain();
  });

  it('reach every subscriber, skipping one that does not decode and logging it', async () => {
    const { lines, logger } = capturedLog();
    const heard: [string, ZipProgress][] = [];
    const subscriptions = ['a', 'b'].map((name) =>
      subscribeSignal(nc, DocumentsSignals.zipProgress, (s) => heard.push([name, s]), logger),
    );
    nc.publish(DocumentsSignals.zipProgress.subject, '{"files_done": "many"}');
    new BusClient(nc).signal(DocumentsSignals.zipProgress, progress);
    await nc.flush();
    for (const s of subscriptions) s.stop();
    expect(heard.map(([name]) => name).sort()).toEqual(['a', 'b']);
    for (const [, s] of heard) expect(s).toMatchObject(progress);
    expect(lines.filter((l) => l.msg === 'Signal skipped')).toHaveLength(2);

    // Stopped, nothing more is heard.
    new BusClient(nc).signal(DocumentsSignals.zipProgress, progress);
    await nc.flush();
    expect(heard).toHaveLength(2);
  });

  it('are dropped, not thrown, once the connection is closed', async () => {
    const closing = await connect({ servers: process.env.TEST_NATS_SERVER_URL as string });
    await closing.close();
    expect(() => new BusClient(closing).signal(DocumentsSignals.zipProgress, progress)).not.toThrow();
  });
});
