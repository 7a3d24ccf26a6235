// The local stack: PostgreSQL (embedded, data kept in .data/), nats-server with JetStream, every
// service and the gateway as child processes, the built frontends, and the demo data, seeded once.
// Point it at external servers with PORTICO_PG_ADMIN_URL (a superuser URL) and NATS_URL.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  createServiceDatabase,
  startEmbeddedPostgres,
  startNatsServer,
  startS3Server,
  waitFor,
} from '@portico/platform/testing';

const root = resolve(import.meta.dirname, '../..');
const dataDir = join(root, '.data');
const env = process.env;
const ports = {
  gateway: Number(env.PORTICO_GATEWAY_PORT ?? 3000),
  shell: Number(env.PORTICO_SHELL_PORT ?? 8080),
  identityHealth: 3101,
  documentsHealth: 3103,
  notificationsHealth: 3106,
};
const publicUrl = env.PUBLIC_URL ?? `http://localhost:${ports.shell}`;
const children = [];
const stoppers = [];
let stopping = false;

function log(message) {
  process.stdout.write(`\x1b[36m[portico]\x1b[0m ${message}\n`);
}

/** Child output, one line at a time, with the structured JSON reduced to level and message. */
function pipe(name, stream) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let text = line;
      try {
        const entry = JSON.parse(line);
        // A browser's error report: what and on which page, on one line.
        const browser = entry.client_error
          ? ` ${entry.client_error.kind} on ${entry.client_error.page}: ${String(entry.client_error.message).split('\n')[0]}`
          : '';
        text = `${entry.level ?? ''} ${entry.msg ?? ''}${browser}${entry.err ? ` ${entry.err.message ?? ''}` : ''}${entry.trace_id ? ` trace=${entry.trace_id}` : ''}`;
      } catch {}
      process.stdout.write(`\x1b[90m[${name}]\x1b[0m ${text}\n`);
    }
  });
}

function run(name, args, childEnv) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipe(name, child.stdout);
  pipe(name, child.stderr);
  child.on('exit', (code) => {
    if (!stopping) {
      log(`${name} exited with code ${code}; stopping the stack`);
      void shutdown(1);
    }
  });
  children.push({ name, child });
  return child;
}

function runOnce(name, args, childEnv) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...env, ...childEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipe(name, child.stdout);
    pipe(name, child.stderr);
    child.on('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${name} failed with code ${code}`)),
    );
  });
}

async function healthy(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** The JWT signing key is made once and kept, so sessions survive a restart of the stack. */
async function signingKeys() {
  if (env.JWT_SIGNING_KEYS) return env.JWT_SIGNING_KEYS;
  const file = join(dataDir, 'keys', 'jwt-signing-keys.json');
  if (!existsSync(file)) {
    const { KeyRing } = await import('@portico/identity/keys');
    mkdirSync(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify([await KeyRing.generateConfig('local-1')]), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8');
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  log('Stopping…');
  for (const { child } of children.reverse()) child.kill('SIGTERM');
  await Promise.all(
    children.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null)),
  );
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  // Operator scripts must not find a stack that is gone.
  rmSync(join(dataDir, 'stack.json'), { force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

async function main() {
  mkdirSync(dataDir, { recursive: true });
  let pgAdminUrl = env.PORTICO_PG_ADMIN_URL;
  if (!pgAdminUrl) {
    log('Starting PostgreSQL (embedded, data in .data/postgres)…');
    const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres') });
    stoppers.push(pg.stop);
    pgAdminUrl = pg.adminUrl;
  }
  let natsUrl = env.NATS_URL;
  if (!natsUrl) {
    log('Starting nats-server with JetStream (data in .data/nats)…');
    mkdirSync(join(dataDir, 'nats'), { recursive: true });
    const nats = await startNatsServer({ storeDir: join(dataDir, 'nats') });
    stoppers.push(nats.stop);
    natsUrl = nats.url;
  }
  let s3Env = {
    S3_ENDPOINT: env.S3_ENDPOINT,
    S3_BUCKET: env.S3_BUCKET,
    S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY,
    S3_REGION: env.S3_REGION ?? 'us-east-1',
  };
  if (!env.S3_BUCKET) {
    log('Starting the local S3-compatible server (s3rver, data in .data/s3)…');
    mkdirSync(join(dataDir, 's3'), { recursive: true });
    const s3 = await startS3Server({ directory: join(dataDir, 's3') });
    stoppers.push(s3.stop);
    s3Env = s3.env;
  }
  const common = {
    NODE_ENV: 'development',
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    NATS_URL: natsUrl,
    OTEL_TRACES_EXPORTER: env.OTEL_TRACES_EXPORTER ?? 'none',
  };
  const identityEnv = {
    ...common,
    OTEL_SERVICE_NAME: 'identity',
    DATABASE_URL: env.IDENTITY_DATABASE_URL ?? (await createServiceDatabase(pgAdminUrl, 'identity')),
    HEALTH_PORT: String(ports.identityHealth),
    JWT_SIGNING_KEYS: await signingKeys(),
    PUBLIC_URL: publicUrl,
  };
  const notificationsEnv = {
    ...common,
    OTEL_SERVICE_NAME: 'notifications',
    DATABASE_URL:
      env.NOTIFICATIONS_DATABASE_URL ?? (await createServiceDatabase(pgAdminUrl, 'notifications')),
    HEALTH_PORT: String(ports.notificationsHealth),
    DEV_OUTBOX_ENABLED: 'true',
  };

  const documentsEnv = {
    ...common,
    ...s3Env,
    OTEL_SERVICE_NAME: 'documents',
    DATABASE_URL: env.DOCUMENTS_DATABASE_URL ?? (await createServiceDatabase(pgAdminUrl, 'documents')),
    HEALTH_PORT: String(ports.documentsHealth),
    PUBLIC_URL: publicUrl,
  };

  log('Seeding the demo firm (once)…');
  await runOnce('seed', ['services/identity/dist/seed/seed-main.js'], identityEnv);

  const telemetry = ['--import', '@portico/platform/telemetry'];
  // As in k8s/base/{documents,gateway}/deployment.yaml: a larger first old-generation budget for the
  // services that pass megabytes around (listings, zips), see services/documents/README.md.
  const largePayloads = ['--initial-old-space-size=256', ...telemetry];
  run('notifications', [...telemetry, 'services/notifications/dist/main.js'], notificationsEnv);
  run('identity', [...telemetry, 'services/identity/dist/main.js'], identityEnv);
  run('documents', [...largePayloads, 'services/documents/dist/main.js'], documentsEnv);
  run('gateway', [...largePayloads, 'gateway/dist/main.js'], {
    ...common,
    OTEL_SERVICE_NAME: 'gateway',
    // This machine only, as the frontends: the dev outbox route below shows sign-in codes and links.
    HOST: '127.0.0.1',
    PORT: String(ports.gateway),
    DEV_ROUTES_ENABLED: 'true',
  });
  await waitFor(() => healthy(`http://127.0.0.1:${ports.identityHealth}/health/ready`), 30_000, 'identity');
  await waitFor(
    () => healthy(`http://127.0.0.1:${ports.notificationsHealth}/health/ready`),
    30_000,
    'notifications',
  );
  await waitFor(() => healthy(`http://127.0.0.1:${ports.gateway}/health/ready`), 30_000, 'the gateway');
  await waitFor(() => healthy(`http://127.0.0.1:${ports.documentsHealth}/health/ready`), 30_000, 'documents');
  log('Seeding demo documents (once)…');
  await runOnce('seed-documents', ['services/documents/dist/seed/seed-main.js'], common);

  // Operator scripts (npm run maintenance) find the running stack here.
  writeFileSync(
    join(dataDir, 'stack.json'),
    JSON.stringify({ natsUrl, gatewayUrl: `http://localhost:${ports.gateway}` }),
  );
  const frontends = await startFrontends();
  printWelcome(frontends);
}

/** Serves each built frontend (shell and remotes) on its own port, as they deploy separately. */
async function startFrontends() {
  const script = join(root, 'frontends', 'serve-static.mjs');
  const folder = join(root, 'frontends');
  if (!existsSync(script)) return [];
  const served = [];
  const ports_ = JSON.parse(readFileSync(join(folder, 'ports.json'), 'utf8'));
  for (const name of readdirSync(folder)) {
    const dist = join(folder, name, 'dist');
    if (!existsSync(join(dist, 'index.html')) && !existsSync(join(dist, 'mf-manifest.json'))) continue;
    // The shell on PORTICO_SHELL_PORT when set: the address emailed links point at.
    const port = name === 'shell' ? ports.shell : ports_[name];
    if (!port) continue;
    run(`web:${name}`, [script, dist, String(port)], {
      PORTICO_API_URL: `http://localhost:${ports.gateway}`,
      PORTICO_SPA: name === 'shell' ? '1' : '',
      PORTICO_FIRM_SLUG: 'demo-cpa',
    });
    served.push({ name, port });
  }
  for (const { port } of served)
    await waitFor(() => healthy(`http://127.0.0.1:${port}/`), 15_000, `frontend on ${port}`);
  return served;
}

function printWelcome(frontends) {
  const shell = frontends.find((f) => f.name === 'shell');
  const lines = [
    '',
    'Portico is running.',
    shell ? `  Portal:        http://localhost:${shell.port}` : '  Portal:        (no frontend built yet)',
    ...frontends
      .filter((f) => f.name !== 'shell')
      .map((f) => `  Remote ${f.name.padEnd(8)} http://localhost:${f.port}/mf-manifest.json`),
    `  API gateway:   http://localhost:${ports.gateway}   (OpenAPI: http://localhost:${ports.gateway}/docs)`,
    `  Dev outbox:    http://localhost:${ports.gateway}/dev/outbox   (sign-in codes and links land here)`,
    '',
    '  Demo logins, password Portico-Demo-2026! for all:',
    '    partner@demo-cpa.test  admin@demo-cpa.test  full@demo-cpa.test  group@demo-cpa.test',
    '    alice@client.test (three entities)  bob@client.test  carol@client.test (read-only user)',
    '    dan@client.test (one inactive entity)  erin@client.test (read-only entity)',
    '    gina@client.test (only an inactive entity)  frank@client.test (signs in with an emailed code)',
    '',
    'Ctrl-C stops everything; `npm run reset` wipes local data.',
    '',
  ];
  log(lines.join('\n'));
}

main().catch(async (err) => {
  log(`Could not start: ${err.stack ?? err}`);
  await shutdown(1);
});
