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

/**
 * The port a static server says it listens on ('serving … on http://127.0.0.1:<port>'), or undefined
 * when it exits first or says nothing within `timeoutMs`.
 */
function announcedPort(child: ChildProcess, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    let said = '';
    const done = (port: number | undefined) => {
      clearTimeout(timer);
      child.stdout?.off('data', read);
      child.off('exit', exited);
      // Whatever it says later is read and dropped, so its pipe never fills.
      child.stdout?.resume();
      resolve(port);
    };
    const read = (chunk: Buffer) => {
      said += chunk.toString();
      const port = /^serving .* on http:\/\/[^:]+:(\d+)/m.exec(said)?.[1];
      if (port) done(Number(port));
    };
    const exited = () => done(undefined);
    const timer = setTimeout(() => done(undefined), timeoutMs);
    child.stdout?.on('data', read);
    child.once('exit', exited);
  });
}

/**
 * A static server for `dir`, on the port the kernel gives it as it listens: a port found free
 * beforehand and listened on later can be taken meanwhile (an outgoing connection's local port comes
 * from the same range), which failed a whole browser run once.
 */
export async function serveStatic(
  dir: string,
  options: { spa?: boolean; config?: string } = {},
): Promise<StaticServer> {
  const args = [SERVE_STATIC, '--dir', dir, '--port', '0', '--host', '127.0.0.1'];
  if (options.spa) args.push('--spa');
  if (options.config) args.push('--config', options.config);
  // Its errors are passed on, not its stderr handed over: a child holding the test run's own output
  // (which CI reads through a pipe) kept that pipe open after the run ended, and CI waited for ever.
  // Its output comes through a pipe of its own, for the port it listens on.
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORTICO_API_URL: '' },
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  // Whatever becomes of the test process, its servers go with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const port = await announcedPort(child, 10_000);
  if (!port) {
    child.kill('SIGKILL');
    throw new Error(`static server for ${dir} did not start`);
  }
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => (await fetch(`${url}/healthz`)).ok, 10_000, `static server for ${dir}`);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
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

/**
 * The local portal for browser journeys. What has started is stopped again if a later part fails to
 * start, so a failed setup leaves no servers behind (they held CI's output pipe open).
 */
export async function startPortalStack() {
  assertBuilt(['shell', 'client', 'admin', 'documents']);
  const started: (() => Promise<unknown>)[] = [];
  try {
    return await startParts(started);
  } catch (err) {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    throw err;
  }
}

async function startParts(started: (() => Promise<unknown>)[]) {
  /** Notes how to stop what just started, and answers it. */
  const kept = <T>(part: T, stop: (part: T) => Promise<unknown>): T => {
    started.push(() => stop(part));
    return part;
  };
  const infra = kept(await startTestInfrastructure(), (p) => p.stop());
  const temp = kept(await mkdtemp(join(tmpdir(), 'portico-browser-')), (p) =>
    rm(p, { recursive: true, force: true }),
  );
  const configFile = join(temp, 'runtime-config.json');
  // The shell first: identity's emails link to its address. It reads its configuration, written below,
  // on every request for it, and none comes before.
  const shell = kept(await serveStatic(dist('shell'), { spa: true, config: configFile }), (p) => p.stop());
  const shellUrl = shell.url;
  const notifications = kept(
    await startNotifications({
      natsUrl: infra.natsUrl,
      databaseUrl: await createServiceDatabase(infra.postgresAdminUrl, uniqueDatabaseName('notifications')),
    }),
    (p) => p.stop(),
  );
  const identity = kept(
    await startIdentity({
      natsUrl: infra.natsUrl,
      pgAdminUrl: infra.postgresAdminUrl,
      env: { PUBLIC_URL: shellUrl },
    }),
    (p) => p.stop(),
  );
  const s3 = kept(await startS3Server(), (p) => p.stop());
  const documents = kept(
    await startDocuments({
      natsUrl: infra.natsUrl,
      pgAdminUrl: infra.postgresAdminUrl,
      s3Env: s3.env,
    }),
    (p) => p.stop(),
  );
  const gateway = await startGateway({
    natsUrl: infra.natsUrl,
    env: {
      LOG_LEVEL: 'silent',
      DEV_ROUTES_ENABLED: 'true',
      RATE_LIMIT_IP_MAX: '10000',
      RATE_LIMIT_ACCOUNT_MAX: '10000',
    },
  });
  kept(gateway, (p) => p.stop());
  const firm: BuiltFirm = await identity.buildFirm(DEMO_FIRM);

  const client = kept(await serveStatic(dist('client')), (p) => p.stop());
  const admin = kept(await serveStatic(dist('admin')), (p) => p.stop());
  const documentsRemote = kept(await serveStatic(dist('documents')), (p) => p.stop());
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

  const extra: StaticServer[] = [];
  return {
    firm,
    identity,
    documents,
    gateway,
    /** The stack's NATS, for events published as the operators' commands publish them. */
    natsUrl: infra.natsUrl,
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
