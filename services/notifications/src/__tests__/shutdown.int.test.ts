import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@portico/platform/testing';
import { Notifications } from '@portico/proto';
import { Harness } from './harness.js';

/** An SMS provider that holds its answer to the first message until `release()`, and takes the others. */
async function startProvider() {
  const calls: string[] = [];
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      calls.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string }).to);
      const answer = () => res.writeHead(202).end();
      if (calls.length === 1) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1/messages`,
    calls,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a replica that stops', () => {
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startProvider>>;

  beforeAll(async () => {
    provider = await startProvider();
    h = await Harness.create();
  });
  afterAll(async () => {
    provider.release();
    await h.stop();
    await provider.close();
  });

  it('claims nothing from the moment it begins to stop, and records the attempt it had under way', async () => {
    const service = await h.start({
      SMS_PROVIDER: 'http',
      SMS_API_URL: provider.url,
      DELIVERY_POLL_MS: '20',
    });
    const send = (to: string, idempotencyKey = '') =>
      h.bus.request(Notifications.sendSms, {
        to,
        text: 'Your code is 123456',
        kind: 'sign_in_code',
        idempotencyKey,
      });

    // An attempt under way when the stop begins: the provider has not answered yet.
    const underWay = await send('5550100200');
    await waitFor(async () => provider.calls.length === 1, 5_000, 'the attempt to reach the provider');

    // A request that the stop's drain waits for: its insert waits on this uncommitted row of the same key.
    const holder = await h.pool.connect();
    await holder.query('begin');
    await holder.query(
      `insert into outbound_messages (channel, recipient, text, kind, status, idempotency_key)
       values ('sms', '5550100300', 'Held', 'test', 'kept', 'held-request')`,
    );
    const held = send('5550100300', 'held-request');
    await waitFor(
      async () => {
        const { rows } = await h.pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return (rows[0]?.n ?? 0) > 0;
      },
      5_000,
      'the request to wait on the held row',
    );

    const stopping = service.stop();
    // Stored (and the worker woken) while NATS drains, the longest part of a stop.
    await holder.query('rollback');
    holder.release();
    const stored = await held;
    expect(stored.status).toBe('queued');
    provider.release();
    await stopping;

    // Left to the other replicas, whose polls find it.
    expect(await h.row(stored.id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await h.row(underWay.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(provider.calls).toEqual(['+15550100200']);
  });
});
