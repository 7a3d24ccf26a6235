import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createServiceDatabase,
  freePort,
  type RunningNats,
  startNatsServer,
  uniqueDatabaseName,
  waitFor,
} from '@portico/platform/testing';
import { outputOf, stopProcess } from '../lib/child-process.js';

// One request through the built gateway and identity processes, with the console span exporter on:
// the gateway's HTTP span, identity's handler span and the PostgreSQL query span share one trace id.
const root = resolve(import.meta.dirname, '../../..');

function startProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', '@portico/platform/telemetry', ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', OTEL_TRACES_EXPORTER: 'console', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, output: outputOf(child) };
}

/** Spans printed by the console exporter: each has a traceId, a name and its service. */
function spans(text: string): { traceId: string; name: string }[] {
  const found: { traceId: string; name: string }[] = [];
  const pattern = /traceId: '([0-9a-f]{32})'[\s\S]*?name: '([^']+)'/g;
  for (const match of text.matchAll(pattern))
    found.push({ traceId: match[1] as string, name: match[2] as string });
  return found;
}

describe('tracing across processes (needs npm run build)', () => {
  let nats: RunningNats;
  let identity: ReturnType<typeof startProcess>;
  let gateway: ReturnType<typeof startProcess>;
  let gatewayUrl: string;
  // The same gateway with no trace exporter, as the local stack runs it and as a deployment without a
  // collector would.
  let quietGateway: ReturnType<typeof startProcess>;
  let quietGatewayUrl: string;

  beforeAll(async () => {
    nats = await startNatsServer();
    const databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('tracing'),
    );
    const healthPort = await freePort();
    const port = await freePort();
    identity = startProcess([join('services/identity/dist/main.js')], {
      NATS_URL: nats.url,
      DATABASE_URL: databaseUrl,
      HEALTH_PORT: String(healthPort),
      OTEL_SERVICE_NAME: 'identity',
    });
    gateway = startProcess([join('gateway/dist/main.js')], {
      NATS_URL: nats.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      OTEL_SERVICE_NAME: 'gateway',
    });
    gatewayUrl = `http://127.0.0.1:${port}`;
    const quietPort = await freePort();
    quietGateway = startProcess([join('gateway/dist/main.js')], {
      NATS_URL: nats.url,
      PORT: String(quietPort),
      HOST: '127.0.0.1',
      OTEL_SERVICE_NAME: 'gateway',
      OTEL_TRACES_EXPORTER: 'none',
    });
    quietGatewayUrl = `http://127.0.0.1:${quietPort}`;
    const ok = async (url: string) => (await fetch(url).catch(() => undefined))?.ok ?? false;
    await waitFor(() => ok(`http://127.0.0.1:${healthPort}/health/ready`), 30_000, 'identity');
    await waitFor(() => ok(`${gatewayUrl}/health/ready`), 30_000, 'the gateway');
    await waitFor(() => ok(`${quietGatewayUrl}/health/ready`), 30_000, 'the gateway without an exporter');
  });

  afterAll(async () => {
    await Promise.all([
      stopProcess(gateway.child),
      stopProcess(quietGateway.child),
      stopProcess(identity.child),
    ]);
    await nats.stop();
  });

  it('one trace spans gateway -> identity -> PostgreSQL', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${gatewayUrl}/sessions/get_preferred_sign_in_method`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { trace_id: string }).trace_id).toBe(traceId);
    await waitFor(
      async () =>
        spans(identity.output.text).some((s) => s.traceId === traceId && /^(pg|select|SELECT)/.test(s.name)),
      10_000,
      'the database span in identity',
    );
    const inGateway = spans(gateway.output.text)
      .filter((s) => s.traceId === traceId)
      .map((s) => s.name);
    const inIdentity = spans(identity.output.text)
      .filter((s) => s.traceId === traceId)
      .map((s) => s.name);
    expect(inGateway).toContain('rpc identity.session.lookup_email.v1');
    expect(inIdentity).toContain('handle identity.session.lookup_email.v1');
    expect(inIdentity.some((name) => /^(pg|select|SELECT)/.test(name))).toBe(true);
  });

  it('gives every request a trace id when no trace exporter is set', async () => {
    const res = await fetch(`${quietGatewayUrl}/sessions/get_preferred_sign_in_method`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(res.status).toBe(404);
    const traceId = res.headers.get('x-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toMatch(/^0+$/);
    expect(((await res.json()) as { trace_id: string }).trace_id).toBe(traceId);
    // Nothing is exported: the console exporter of the other processes is not on here.
    expect(spans(quietGateway.output.text)).toEqual([]);
  });
});
