import '@portico/platform/telemetry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '@portico/platform';
import { Identity } from '@portico/proto';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { type RunningGateway, runGateway } from '../run-gateway.js';
import { clientClaims, createTestKey, type TestKey } from './support/keys.js';
import { ok, respond } from './support/responders.js';

type Line = Record<string, unknown> & { msg: string; level: string };

describe('gateway: errors of the portal pages reported by the browser (POST /client_errors)', () => {
  let nc: NatsConnection;
  let gateway: RunningGateway;
  let key: TestKey;
  let lines: Line[] = [];
  const stops: Array<() => void> = [];
  const reports = () => lines.filter((l) => l.msg === 'Error in a browser');

  const report = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/client_errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'TestBrowser/1.0', ...headers },
      body: JSON.stringify(body),
    });
  const crash = {
    kind: 'render',
    message: 'ChunkLoadError: Loading chunk 100 failed.\n(error: https://portal.test/js/100.js)',
    stack: 'TypeError: Cannot read properties of undefined\n    at Table (main.js:1:200)',
    component_stack: 'at Table\n    at FileManager',
    page: '/documents/abc?token=secret#top',
    area: 'documents',
  };

  beforeAll(async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    nc = await connect({ servers: natsUrl });
    key = await createTestKey('key-1');
    stops.push(respond(nc, Identity.jwks, () => ok({ keys: [key.publicJwk] })).stop);
    const config = loadGatewayConfig({
      NATS_URL: natsUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      RATE_LIMIT_CLIENT_ERRORS_IP_MAX: '12',
    });
    const log = createLogger('gateway', 'info', {
      write: (chunk: string) => {
        lines.push(JSON.parse(chunk) as Line);
      },
    });
    gateway = await runGateway(config, log);
  });

  beforeEach(() => {
    lines = [];
  });

  afterAll(async () => {
    await gateway?.stop();
    for (const stop of stops) stop();
    await nc.drain();
  });

  it("logs a signed-in user's crash as an error, with its trace id and without the query of the page", async () => {
    const res = await report(crash, { authorization: `Bearer ${await key.sign(clientClaims)}` });
    expect(res.status).toBe(204);
    const traceId = res.headers.get('x-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reports()).toEqual([
      expect.objectContaining({
        level: 'error',
        trace_id: traceId,
        user_agent: 'TestBrowser/1.0',
        user_id: 'user-client',
        client_error: { ...crash, page: '/documents/abc' },
      }),
    ]);
  });

  it('logs no query or fragment value quoted in the message or the stacks', async () => {
    const res = await report({
      kind: 'promise',
      message:
        'Failed to load https://portal.test/signin?firm=demo#token=SECRET1 (Minified React error #418)',
      stack: 'Error: at /profile?email_token=SECRET2\n    at main.js:1:2',
      component_stack: 'at Link (/signin?token=SECRET3)',
      page: '/signin',
    });
    expect(res.status).toBe(204);
    const [line] = reports();
    expect(JSON.stringify(line)).not.toMatch(/SECRET|firm=/);
    expect(line?.client_error).toMatchObject({
      message: 'Failed to load https://portal.test/signin (Minified React error #418)',
      stack: 'Error: at /profile\n    at main.js:1:2',
      component_stack: 'at Link (/signin)',
    });
  });

  it('logs an anonymous crash as a warning, as anyone can send one', async () => {
    const res = await report(crash);
    expect(res.status).toBe(204);
    expect(reports()).toEqual([
      expect.objectContaining({
        level: 'warn',
        trace_id: res.headers.get('x-trace-id'),
        client_error: { ...crash, page: '/documents/abc' },
      }),
    ]);
    expect(reports()[0]).not.toHaveProperty('user_id');
  });

  it('names the signed-in user from a valid token, and still logs with an expired or forged one', async () => {
    await report(crash, { authorization: `Bearer ${await key.sign(clientClaims)}` });
    const expired = await key.sign(clientClaims, { expiresIn: -60 });
    const forged = await (await createTestKey('key-1')).sign(clientClaims);
    for (const token of [expired, forged, 'not-a-jwt'])
      expect((await report(crash, { authorization: `Bearer ${token}` })).status).toBe(204);
    const logged = reports();
    expect(logged).toHaveLength(4);
    expect(logged[0]).toMatchObject({
      level: 'error',
      user_id: 'user-client',
      firm_id: 'firm-1',
      role: 'client',
    });
    // Without a user they are anonymous reports: warnings.
    for (const line of logged.slice(1)) {
      expect(line).not.toHaveProperty('user_id');
      expect(line.level).toBe('warn');
    }
  });

  it('logs an error no screen caught as a warning (it may come from a browser extension)', async () => {
    const res = await report({ kind: 'promise', message: 'Failed to fetch', page: '/signin' });
    expect(res.status).toBe(204);
    expect(reports()).toEqual([expect.objectContaining({ level: 'warn' })]);
  });

  it('refuses a report it cannot read, with the fields at fault, and logs nothing of it', async () => {
    const res = await report({
      kind: 'boom',
      message: ' ',
      page: '/x',
      area: '../etc',
      stack: 'x'.repeat(9_000),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fields: Record<string, string> };
    expect(body.fields).toEqual({
      kind: 'Kind must be one of render, remote, script, promise',
      message: 'Message is missing',
      area: 'Area must be a remote name',
      stack: 'Must be at most 8000 characters',
    });
    expect(reports()).toEqual([]);
  });

  it('refuses a report over 32 KB with 413 (the gateway takes 1 MB elsewhere), and logs nothing of it', async () => {
    const res = await report({ ...crash, stack: 'x'.repeat(33 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
    expect(reports()).toEqual([]);
  });

  it('answers 429 once an address has sent too many reports in the window', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await report({ ...crash, message: `crash ${i}` })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(reports().length).toBe(statuses.filter((s) => s === 204).length);
  });
});
