// GET /current_user through gateway -> NATS -> identity -> PostgreSQL, against a bare Fastify + pg
// endpoint running the same query, in the same run: requests/s, p50 and p99 at 50 connections.
// Usage: npm run bench -- gateway  (after npm run build). BENCH_SECONDS shortens the runs.
import { join, resolve } from 'node:path';
import {
  createServiceDatabase,
  freePort,
  startEmbeddedPostgres,
  startNatsServer,
} from '@portico/platform/testing';
import { cpuTable, load, spawnNode, stopChild, table, waitUntilOk } from '../lib.mjs';

const root = resolve(import.meta.dirname, '../../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// BENCH_PROFILE=<dir> writes CPU profiles of identity and the gateway there.
const profile = process.env.BENCH_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  : [];

const pg = await startEmbeddedPostgres();
const nats = await startNatsServer();
const children = [];
try {
  const databaseUrl = await createServiceDatabase(pg.adminUrl, 'identity');
  const { KeyRing } = await import('@portico/identity/keys');
  const keys = JSON.stringify([await KeyRing.generateConfig('bench')]);
  const common = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    NATS_URL: nats.url,
    OTEL_TRACES_EXPORTER: 'none',
  };
  const identityHealth = await freePort();
  const gatewayPort = await freePort();
  const baselinePort = await freePort();

  // Migrate and seed the demo firm, then start identity and the gateway as their own processes.
  await new Promise((ok, fail) => {
    const seed = spawnNode('seed', [join(root, 'services/identity/dist/seed/seed-main.js')], {
      ...common,
      DATABASE_URL: databaseUrl,
      JWT_SIGNING_KEYS: keys,
    });
    seed.on('exit', (code) => (code === 0 ? ok() : fail(new Error('seed failed'))));
  });
  children.push(
    spawnNode(
      'identity',
      [...profile, '--import', '@portico/platform/telemetry', join(root, 'services/identity/dist/main.js')],
      {
        ...common,
        DATABASE_URL: databaseUrl,
        HEALTH_PORT: String(identityHealth),
        JWT_SIGNING_KEYS: keys,
      },
    ),
  );
  children.push(
    spawnNode(
      'gateway',
      [...profile, '--import', '@portico/platform/telemetry', join(root, 'gateway/dist/main.js')],
      {
        ...common,
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        RATE_LIMIT_IP_MAX: '1000000',
      },
    ),
  );
  children.push(
    spawnNode('baseline', [join(import.meta.dirname, 'baseline-server.mjs')], {
      DATABASE_URL: databaseUrl,
      PORT: String(baselinePort),
    }),
  );
  await waitUntilOk(`http://127.0.0.1:${identityHealth}/health/ready`);
  await waitUntilOk(`http://127.0.0.1:${gatewayPort}/health/ready`);
  await waitUntilOk(`http://127.0.0.1:${baselinePort}/health`);

  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const post = async (path, body) =>
    (
      await fetch(`${gateway}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
  const step = await post('/sessions/verify_password', {
    email: 'partner@demo-cpa.test',
    password: 'Portico-Demo-2026!',
  });
  const session = await post('/sessions/exchange_token', { auth_token: step.auth_token });
  const auth = { authorization: `Bearer ${session.access_token}` };
  const probe = await fetch(`${gateway}/current_user`, { headers: auth });
  if (!probe.ok)
    throw new Error(
      `current_user answered ${probe.status}: ${await probe.text()} (sign-in: ${JSON.stringify(step)})`,
    );

  const cpuLabels = new Map(children.map((child) => [child.pid, child.label]));
  const baseline = await load(`http://127.0.0.1:${baselinePort}/current_user`, {
    cpuLabels,
    connections,
    seconds,
    headers: {
      'x-user-id': session.user_id,
      'x-firm-id': JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url')).firm_id,
    },
  });
  const portico = await load(`${gateway}/current_user`, { cpuLabels, connections, seconds, headers: auth });

  console.log(`GET /current_user, ${connections} connections, ${seconds} s each\n`);
  console.log(
    table([
      ['baseline (Fastify + pg)', baseline],
      ['gateway -> NATS -> identity -> pg', portico],
    ]),
  );
  // CPU per request of every server process: steadier than req/s when the machine is not quiet.
  console.log(`\nCPU ms per request (servers, not the load generator)\n`);
  console.log(
    cpuTable([
      ['baseline', baseline.cpu],
      ['portico', portico.cpu],
    ]),
  );
  const ratio = portico.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`\nthroughput ratio (portico / baseline): ${ratio.toFixed(2)}   goal >= 0.50`);
  console.log(`p99 through the gateway: ${portico.p99.toFixed(1)} ms   goal < 25 ms`);
} finally {
  for (const child of children) await stopChild(child);
  await nats.stop();
  await pg.stop();
}
