import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { acrossFirms, type DatabaseHandle, openDatabase, QUERY_TIMEOUT_MARGIN_MS } from '../db/database.js';
import { isDatabaseUnavailable } from '../errors/postgres-errors.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

/**
 * A TCP proxy to the database that can go silent: it stops passing bytes either way without closing
 * anything, as a connection does whose other end was lost with its node (no reset ever comes).
 */
async function silenceableProxy(target: URL) {
  const sockets: Socket[] = [];
  // The connections open when it went silent; those made later pass, as to a database back elsewhere.
  const silenced = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    sockets.push(client, upstream);
    client.on('data', (chunk) => {
      if (!silenced.has(client)) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!silenced.has(client)) client.write(chunk);
    });
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: (() => {
      const url = new URL(target.href);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    })(),
    goSilent: () => {
      for (const socket of sockets) silenced.add(socket);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

describe('a database connection whose other end is gone without a reset', () => {
  let proxy: Awaited<ReturnType<typeof silenceableProxy>>;
  let database: DatabaseHandle<Record<string, never>>;

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('deadconn'),
    );
    proxy = await silenceableProxy(new URL(url));
    database = openDatabase(proxy.url, {}, { max: 1, statementTimeoutMs: 300 });
  });

  afterAll(async () => {
    await proxy.close();
    await database.close().catch(() => undefined);
  });

  it('fails a query a little after the statement timeout, instead of waiting for TCP', async () => {
    await database.pool.query('select 1');
    proxy.goSilent();
    const started = Date.now();
    await expect(database.pool.query('select 1')).rejects.toThrow(/timeout/i);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(300 + QUERY_TIMEOUT_MARGIN_MS - 100);
    expect(waited).toBeLessThan(300 + QUERY_TIMEOUT_MARGIN_MS + 3_000);
  });

  it("ends a transaction's lost connection instead of giving it back to the pool, and says the database is away", async () => {
    // The pool's one connection is made anew (the one above was dropped by pool.query), then lost.
    await acrossFirms(database.db, (tx) => tx.execute(sql`select 1`));
    proxy.goSilent();
    const started = Date.now();
    const err = await acrossFirms(database.db, (tx) => tx.execute(sql`select 1`)).catch((e: unknown) => e);
    // No rollback waited behind the lost answer as long again.
    expect(Date.now() - started).toBeLessThan(300 + QUERY_TIMEOUT_MARGIN_MS + 3_000);
    expect(isDatabaseUnavailable(err)).toBe(true);
    // The next transaction gets a new connection, which works.
    await expect(acrossFirms(database.db, (tx) => tx.execute(sql`select 1 as ok`))).resolves.toBeTruthy();
  });
});
