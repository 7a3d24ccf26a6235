import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createServiceDatabase,
  freePort,
  type RunningNats,
  type RunningS3,
  startNatsServer,
  startS3Server,
  uniqueDatabaseName,
  waitFor,
} from '@portico/platform/testing';
import { exportPKCS8, generateKeyPair } from 'jose';
import { parseDockerfile } from '../../packaging-tests/lib/dockerfile.js';
import { render } from '../../packaging-tests/lib/kustomize.js';
import { contract } from '../../packaging-tests/lib/repo.js';
import { completionOf, outputOf, stopProcess } from '../lib/child-process.js';
import { type ImageTree, imageRuntimeTree, unresolvedImports } from '../lib/image-tree.js';
import { workloadEnvironment } from '../lib/workload-env.js';

// Each built service started as the production overlay's Deployment starts it (needs npm run build and
// kubectl for kustomize): from its image's runtime tree (production dependencies only, see
// lib/image-tree.ts), with its command (or the image's CMD) and the environment of its ConfigMaps and
// Secrets, nothing else. Only the addresses of what it talks to are this run's servers, and the ports
// free ones. Production mode is on (NODE_ENV from the shared ConfigMap), the trace collector is absent.
// As in the runbook's deploy, a service's migration Job runs first: production's services do not
// apply migrations at start.
const root = resolve(import.meta.dirname, '../../..');
const ORDER = ['identity', 'documents', 'notifications', 'gateway'] as const;
type Name = (typeof ORDER)[number];

interface Started {
  child: ChildProcess;
  port: number;
  readyPath: string;
  output: { text: string };
}

/** The image's CMD (infra/docker/node-app.Dockerfile), for Deployments that do not set a command. */
function imageCommand(): string[] {
  const instructions = parseDockerfile(readFileSync(join(root, 'infra/docker/node-app.Dockerfile'), 'utf8'));
  const cmd = instructions.filter((i) => i.keyword === 'CMD').at(-1);
  return JSON.parse(cmd?.args ?? '[]') as string[];
}

describe('the services as the production Deployments start them (needs npm run build and kubectl)', () => {
  let nats: RunningNats;
  let s3: RunningS3;
  const started = new Map<Name, Started>();
  const images = mkdtempSync(join(tmpdir(), 'portico-images-'));
  const trees = new Map<Name, ImageTree>();
  const { deployables } = contract();

  beforeAll(async () => {
    const objects = render('k8s/overlays/production');
    // One after the other: each install is CPU- and disk-bound.
    for (const name of ORDER) {
      const dir = deployables[name]?.dir as string;
      trees.set(name, await imageRuntimeTree(root, dir, join(images, name)));
    }
    [nats, s3] = await Promise.all([startNatsServer(), startS3Server()]);
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const secrets: Record<string, string> = {
      JWT_SIGNING_KEYS: JSON.stringify([
        { kid: 'production-start', privateKeyPem: await exportPKCS8(privateKey) },
      ]),
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      // Nothing is sent while no message is queued; a closed port if something tried.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    };
    // An address nothing answers: the trace exporter must not hold anything up.
    const collector = `http://127.0.0.1:${await freePort()}`;
    for (const name of ORDER) {
      const deployable = deployables[name];
      const databaseUrl = deployable?.database
        ? await createServiceDatabase(
            process.env.TEST_PG_ADMIN_URL as string,
            uniqueDatabaseName(`prod_${name}`),
          )
        : '';
      if (deployable?.database) {
        const job = workloadEnvironment(objects, 'Job', `${name}-migrate`, { DATABASE_URL: databaseUrl });
        const [jobCommand, ...jobArgs] = job.container.command as string[];
        expect(jobCommand).toBe('node');
        const migrated = await completionOf(
          spawn(process.execPath, jobArgs, {
            cwd: trees.get(name)?.app,
            env: { ...job.env, OTEL_EXPORTER_OTLP_ENDPOINT: collector, PATH: process.env.PATH ?? '' },
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        );
        expect({ name, code: migrated.code, output: migrated.output.slice(-3_000) }).toEqual({
          name,
          code: 0,
          output: expect.any(String),
        });
      }
      const { container, env } = workloadEnvironment(objects, 'Deployment', name, {
        ...secrets,
        DATABASE_URL: databaseUrl,
      });
      // Production leaves migrations to the Job above.
      if (deployable?.database) expect(env.MIGRATE_ON_START).toBe('false');
      const readyPath = (container.readinessProbe.httpGet as { path: string }).path;
      const port = await freePort();
      const portEnv = deployable?.portEnv as string;
      expect(env.NODE_ENV).toBe('production');
      Object.assign(env, {
        [portEnv]: String(port),
        NATS_URL: nats.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector,
        ...(name === 'documents' ? { S3_ENDPOINT: s3.endpoint } : {}),
        ...(name === 'gateway' ? { HOST: '127.0.0.1' } : {}),
      });
      const [command, ...args] = (container.command as string[] | undefined) ?? imageCommand();
      expect(command).toBe('node');
      const child = spawn(process.execPath, args, {
        cwd: trees.get(name)?.app,
        env: { ...env, PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.set(name, { child, port, readyPath, output: outputOf(child) });
    }
  }, 420_000);

  afterAll(async () => {
    await Promise.all([...started.values()].map((s) => stopProcess(s.child)));
    await Promise.all([nats?.stop(), s3?.stop()]);
    rmSync(images, { recursive: true, force: true });
  });

  it.each(ORDER)(
    '%s: every package its shipped code imports is in its image, lazy imports too',
    async (name) => {
      const tree = trees.get(name) as ImageTree;
      const missing = await unresolvedImports(tree.app, tree.shipped);
      expect({ name, missing }).toEqual({ name, missing: [] });
    },
  );

  it.each(ORDER)('%s becomes ready', async (name) => {
    const service = started.get(name) as Started;
    // Ready, or exited (then the output says why).
    const readyOrExited = async () =>
      service.child.exitCode !== null ||
      !!(await fetch(`http://127.0.0.1:${service.port}${service.readyPath}`)).ok;
    await waitFor(readyOrExited, 60_000, `${name} ready`).catch((err: Error) => {
      throw new Error(`${err.message}\n${service.output.text.slice(-3_000)}`);
    });
    expect({ name, exited: service.child.exitCode, output: service.output.text.slice(-3_000) }).toEqual({
      name,
      exited: null,
      output: expect.any(String),
    });
  });

  it('answers through the gateway, from the database behind identity, in JSON', async () => {
    const gateway = started.get('gateway') as Started;
    const res = await fetch(
      `http://127.0.0.1:${gateway.port}/firms/get_firm_theme_by_slug?slug=no-such-firm`,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
    // The development routes are off in production.
    expect((await fetch(`http://127.0.0.1:${gateway.port}/dev/outbox`)).status).toBe(404);
  });

  it('counts the sign-in limit per client address that Kong forwards, not per Kong pod', async () => {
    const gateway = started.get('gateway') as Started;
    // As Kong sends it: the address it saw appended to what the client sent (here forged in front).
    const forgotFrom = (client: string, n: number) =>
      fetch(`http://127.0.0.1:${gateway.port}/sessions/forgot_password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.250, ${client}` },
        body: JSON.stringify({ email: `someone-${n}@example.test` }),
      });
    let first: number | undefined;
    // The gateway's per-address budget (RATE_LIMIT_IP_MAX, 60 a minute by default), then one more.
    for (let n = 0; n < 61; n++) {
      const res = await forgotFrom('198.51.100.1', n);
      if (res.status === 429) {
        first = n;
        break;
      }
      // Unknown addresses: identity's own answer, whatever it is, but not the limit.
      expect(res.status).toBeLessThan(500);
    }
    expect(first).toBe(60);
    // Another client through the same Kong pod keeps its own budget.
    expect((await forgotFrom('198.51.100.2', 100)).status).not.toBe(429);
  });

  it('stops cleanly on SIGTERM', async () => {
    for (const name of [...ORDER].reverse()) {
      const service = started.get(name) as Started;
      expect({ name, code: await stopProcess(service.child) }).toEqual({ name, code: 0 });
    }
  }, 120_000);
});
