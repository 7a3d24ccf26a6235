// The local stack for the browser journeys: PostgreSQL and NATS, the real identity, notifications,
// documents (on an s3rver) and gateway in this process with the demo firm, and the production builds of
// the shell and the remotes served by frontends/serve-static.mjs as child processes, each on a free
// loopback port.
// As the services' containers start them: every request gets a trace id (in logs, error bodies and the
// x-trace-id header), exported nowhere.
import '@portico/platform/telemetry';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDocuments } from '@portico/documents/testing';
import { startGateway } from '@portico/gateway/testing';
import { type BuiltFirm, startIdentity } from '@portico/identity/testing';
import { startNotifications } from '@portico/notifications/testing';
import {
  createServiceDatabase,
  freePort,
  startS3Server,
  startTestInfrastructure,
  uniqueDatabaseName,
  waitFor,
} from '@portico/platform/testing';
import { DEMO_FIRM, DEMO_PASSWORD } from '../../services/identity/src/seed/demo-firm.js';

export const FRONTENDS = resolve(import.meta.dirname, '..');
const SERVE_STATIC = join(FRONTENDS, 'serve-static.mjs');

export { DEMO_PASSWORD };

export interface RuntimeConfig {
  apiUrl: string;
  firmSlug?: string;
  remotes: Record<string, string>;
}

/** One static server (serve-static.mjs) for a folder of built files. */
export interface StaticServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function serveStatic(
  dir: string,
  options: { spa?: boolean; config?: string; port?: number } = {},
): Promise<StaticServer> {
  const port = options.port ?? (await freePort());
  const args = [SERVE_STATIC, '--dir', dir, '--port', String(port), '--host', '127.0.0.1'];
  if (options.spa) args.push('--spa');
  if (options.config) args.push('--config', options.config);
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORTICO_API_URL: '' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, 10_000, `static server for ${dir}`);
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

const dist = (name: string) => join(FRONTENDS, name, 'dist');

/** Fails with the command to run when a production build is missing (the test command builds first). */
export function assertBuilt(names: string[]) {
  for (const name of names) {
    if (!existsSync(join(dist(name), name === 'shell' ? 'index.html' : 'mf-manifest.json')))
      throw new Error(`frontends/${name} is not built: run 'npm run build' first`);
  }
}

export async function startPortalStack() {
  assertBuilt(['shell', 'client', 'admin', 'documents']);
  const infra = await startTestInfrastructure();
  const shellPort = await freePort();
  const shellUrl = `http://127.0.0.1:${shellPort}`;
  const notifications = await startNotifications({
    natsUrl: infra.natsUrl,
    databaseUrl: await createServiceDatabase(infra.postgresAdminUrl, uniqueDatabaseName('notifications')),
  });
  const identity = await startIdentity({
    natsUrl: infra.natsUrl,
    pgAdminUrl: infra.postgresAdminUrl,
    env: { PUBLIC_URL: shellUrl },
  });
  const s3 = await startS3Server();
  const documents = await startDocuments({
    natsUrl: infra.natsUrl,
    pgAdminUrl: infra.postgresAdminUrl,
    s3Env: s3.env,
  });
  const gateway = await startGateway({
    natsUrl: infra.natsUrl,
    env: {
      LOG_LEVEL: 'silent',
      DEV_ROUTES_ENABLED: 'true',
      RATE_LIMIT_IP_MAX: '10000',
      RATE_LIMIT_ACCOUNT_MAX: '10000',
    },
  });
  const firm: BuiltFirm = await identity.buildFirm(DEMO_FIRM);

  const client = await serveStatic(dist('client'));
  const admin = await serveStatic(dist('admin'));
  const documentsRemote = await serveStatic(dist('documents'));
  const temp = await mkdtemp(join(tmpdir(), 'portico-browser-'));
  const configFile = join(temp, 'runtime-config.json');
  const standard: RuntimeConfig = {
    apiUrl: gateway.url,
    firmSlug: DEMO_FIRM.slug,
    remotes: {
      client: `${client.url}/mf-manifest.json`,
      admin: `${admin.url}/mf-manifest.json`,
      documents: `${documentsRemote.url}/mf-manifest.json`,
    },
  };
  /** The shell reads this file on every request for /runtime-config.json: a redeploy is a rewrite. */
  const setRuntimeConfig = (config: RuntimeConfig) => writeFile(configFile, JSON.stringify(config, null, 2));
  await setRuntimeConfig(standard);
  const shell = await serveStatic(dist('shell'), { spa: true, config: configFile, port: shellPort });

  const extra: StaticServer[] = [];
  return {
    firm,
    identity,
    documents,
    gateway,
    shellUrl,
    temp,
    standard,
    setRuntimeConfig,
    /** Serves another folder (e.g. a second build of a remote) until the stack stops. */
    serve: async (dir: string) => {
      const server = await serveStatic(dir);
      extra.push(server);
      return server;
    },
    userId: (key: string) => {
      const id = firm.users[key]?.id;
      if (!id) throw new Error(`no demo user ${key}`);
      return id;
    },
    stop: async () => {
      await Promise.all([shell, client, admin, documentsRemote, ...extra].map((s) => s.stop()));
      await gateway.stop();
      await documents.stop();
      await s3.stop();
      await identity.stop().catch(() => undefined);
      await notifications.stop();
      await infra.stop();
      await rm(temp, { recursive: true, force: true });
    },
  };
}

export type PortalStack = Awaited<ReturnType<typeof startPortalStack>>;
