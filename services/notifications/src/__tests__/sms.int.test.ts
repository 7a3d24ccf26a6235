import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notifications } from '@portico/proto';
import { Harness } from './harness.js';

interface ProviderCall {
  headers: IncomingHttpHeaders;
  body: { to: string; text: string };
}

/**
 * A small SMS provider on a free loopback port. The number decides the answer: ...0200 accepted,
 * ...0400 refused, ...0500 always failing, ...0503 unavailable twice and then accepted.
 */
async function startProvider() {
  const calls: ProviderCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProviderCall['body'];
      calls.push({ headers: req.headers, body });
      const seen = calls.filter((c) => c.body.to === body.to).length;
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/messages') return answer(404, { error: 'not found' });
      if (body.to.endsWith('0400')) return answer(400, { error: 'unroutable number' });
      if (body.to.endsWith('0500')) return answer(500, { error: 'provider error' });
      if (body.to.endsWith('0503') && seen <= 2) return answer(503, { error: 'try later' });
      // The key refused until an operator puts the right one in.
      if (body.to.endsWith('0401') && seen <= 1) return answer(401, { error: 'invalid api key' });
      answer(202, { id: `sms-${calls.length}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1/messages`,
    calls,
    callsTo: (to: string) => calls.filter((c) => c.body.to === to),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMS delivery through the HTTP provider', () => {
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startProvider>>;

  const send = (to: string, text = 'Your code is 123456') =>
    h.bus.request(Notifications.sendSms, { to, text, kind: 'sign_in_code' });

  beforeAll(async () => {
    provider = await startProvider();
    h = await Harness.create();
    await h.start({
      SMS_PROVIDER: 'http',
      SMS_API_URL: provider.url,
      SMS_API_KEY: 'provider-key',
      DELIVERY_POLL_MS: '20',
      DELIVERY_RETRY_BASE_MS: '25',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
  });

  afterAll(async () => {
    await h.stop();
    await provider.close();
  });

  it('posts {to, text} with the key and the message id, and marks the message sent on a 2xx', async () => {
    const reply = await send('555-010-0200');
    expect(reply.status).toBe('queued');
    const row = await h.until(reply.id, 'sent');
    expect(row).toMatchObject({ attempts: 1, last_error: null, recipient: '5550100200' });

    const calls = provider.callsTo('+15550100200');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ to: '+15550100200', text: 'Your code is 123456' });
    expect(calls[0]?.headers.authorization).toBe('Bearer provider-key');
    expect(calls[0]?.headers['content-type']).toBe('application/json');
    expect(calls[0]?.headers['idempotency-key']).toBe(reply.id);
  });

  it('fails for good on a 4xx without retrying', async () => {
    const reply = await send('5550100400');
    const row = await h.until(reply.id, 'failed');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/400/);
    expect(row.last_error).toContain('unroutable number');
    expect(provider.callsTo('+15550100400')).toHaveLength(1);
  });

  it('retries a refused key (an operator fixes it) rather than failing the message for good', async () => {
    const reply = await send('5550100401');
    const row = await h.until(reply.id, 'sent');
    expect(row.attempts).toBe(2);
    expect(provider.callsTo('+15550100401')).toHaveLength(2);
  });

  it('retries a 5xx and sends once the provider recovers', async () => {
    const reply = await send('5550100503');
    const row = await h.until(reply.id, 'sent');
    expect(row.attempts).toBe(3);
    expect(row.last_error).toBeNull();
    expect(provider.callsTo('+15550100503')).toHaveLength(3);
  });

  it('gives up after the last attempt when the provider keeps failing', async () => {
    const reply = await send('5550100500');
    const row = await h.until(reply.id, 'failed');
    expect(row.attempts).toBe(3);
    expect(row.last_error).toMatch(/500/);
    expect(provider.callsTo('+15550100500')).toHaveLength(3);
  });
});

describe('a channel without a provider in production', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.create();
    // Production settings with email sent through a server but no SMS provider.
    await h.start({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:9', SMS_PROVIDER: 'outbox' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses a text message with 503 and keeps nothing, so the caller does not tell its user it was sent', async () => {
    await expect(
      h.bus.request(Notifications.sendSms, {
        to: '4155550123',
        text: 'Your code is 123456',
        kind: 'sign_in_code',
      }),
    ).rejects.toMatchObject({
      status: 503,
      message: 'Text messages cannot be sent: no SMS provider is configured.',
    });
    const { rows } = await h.pool.query('select count(*)::int as n from outbound_messages');
    expect(rows[0].n).toBe(0);
  });
});
