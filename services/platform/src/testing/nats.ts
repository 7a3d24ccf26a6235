import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './free-port.js';

export interface RunningNats {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Stops the server process without removing its store (to test outages), and starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** max_payload of Portico's NATS servers (k8s/base/nats/nats.conf), here and in production. */
export const NATS_MAX_PAYLOAD = '8MB';

export function natsServerBinary(): string {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    'nats-server',
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
  ];
  for (const candidate of candidates) {
    if (candidate && spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  throw new Error(
    'nats-server was not found. Install it with `apt-get install -y nats-server` (Debian) or put it on PATH, or set NATS_URL to a running server.',
  );
}

/** Starts nats-server with JetStream on a free loopback port, storing under a temporary folder unless `storeDir` is given. */
export async function startNatsServer(
  /** `jetStream: false` starts a server without JetStream, as one whose JetStream is away. */
  options: { storeDir?: string; port?: number; jetStream?: boolean } = {},
): Promise<RunningNats> {
  const binary = natsServerBinary();
  const keep = !!options.storeDir;
  const storeDir = options.storeDir ?? (await mkdtemp(join(tmpdir(), 'portico-nats-')));
  const port = options.port ?? (await freePort());
  // The servers' settings that the code relies on, as in k8s/base/nats/nats.conf.
  const configFile = join(storeDir, 'portico-nats.conf');
  await writeFile(configFile, `max_payload: ${NATS_MAX_PAYLOAD}\n`);
  let child: ChildProcess | undefined;
  // A test process that exits without its teardown (process.exit in a failing suite) must not leave the
  // server running: the signal is sent synchronously from the exit hook.
  const killOnExit = () => child?.kill('SIGTERM');
  const launch = async () => {
    const args = ['-c', configFile, '-a', '127.0.0.1', '-p', String(port)];
    if (options.jetStream !== false) args.push('-js', '-sd', storeDir);
    child = spawn(binary, args, { stdio: 'ignore' });
    process.once('exit', killOnExit);
    await waitFor(() => canConnect(port), 10_000, `nats-server on port ${port}`);
  };
  const halt = async () => {
    process.off('exit', killOnExit);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    pause: halt,
    resume: launch,
    stop: async () => {
      await halt();
      if (!keep) await rm(storeDir, { recursive: true, force: true });
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
