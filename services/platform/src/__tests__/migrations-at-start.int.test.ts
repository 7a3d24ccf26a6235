import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Controller, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  defineRpc,
  type LookupEmailRequest,
  LookupEmailRequestSchema,
  LookupEmailResponseSchema,
} from '@portico/proto';
import { pino } from 'pino';
import { BusClient } from '../bus/bus-client.js';
import { Rpc } from '../bus/rpc.js';
import { openDatabase, runMigrations } from '../db/database.js';
import { pendingMigrations } from '../db/schema-migrations.js';
import { runService } from '../service/run-service.js';
import { capturedLog } from '../testing/captured-log.js';
import { freePort, waitFor } from '../testing/free-port.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

/** A migrations folder as drizzle-kit writes it, with the first `count` of two migrations. */
function migrationsFolder(count: 1 | 2): string {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  mkdirSync(join(folder, 'meta'));
  const migrations = [
    { tag: '0000_first', when: 1_700_000_000_000, sql: 'create table first_table (id int);' },
    { tag: '0001_second', when: 1_700_000_100_000, sql: 'create table second_table (id int);' },
  ].slice(0, count);
  for (const m of migrations) writeFileSync(join(folder, `${m.tag}.sql`), m.sql);
  const entries = migrations.map((m, idx) => ({
    idx,
    version: '7',
    when: m.when,
    tag: m.tag,
    breakpoints: true,
  }));
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries }),
  );
  return folder;
}

const echo = defineRpc({
  subject: 'test.schema.echo.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});

@Controller()
class EchoHandler {
  @Rpc(echo)
  async echo(@Payload() req: LookupEmailRequest) {
    return { uid: req.email };
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

const newDatabase = () =>
  createServiceDatabase(process.env.TEST_PG_ADMIN_URL as string, uniqueDatabaseName('schema'));

describe('the migrations a database lacks', () => {
  it('are every migration of the folder on a new database, those newer than its last one after, none when ahead', async () => {
    const database = openDatabase(await newDatabase(), {}, { max: 2 });
    try {
      expect(await pendingMigrations(database, migrationsFolder(2))).toEqual(['0000_first', '0001_second']);
      await runMigrations(database, migrationsFolder(1));
      expect(await pendingMigrations(database, migrationsFolder(2))).toEqual(['0001_second']);
      await runMigrations(database, migrationsFolder(2));
      expect(await pendingMigrations(database, migrationsFolder(2))).toEqual([]);
      // The version before, while a newer one's migrations are in: it lacks nothing.
      expect(await pendingMigrations(database, migrationsFolder(1))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('a service starting on a database without its latest migrations', () => {
  let nc: NatsConnection;
  let bus: BusClient;
  const natsUrl = () => process.env.TEST_NATS_SERVER_URL as string;

  beforeAll(async () => {
    nc = await connect({ servers: natsUrl() });
    bus = new BusClient(nc);
  });
  afterAll(async () => {
    await nc.drain();
  });

  it('when it may not apply them, stays not ready and takes no work until they are applied, saying once which are missing', async () => {
    const url = await newDatabase();
    const folder = migrationsFolder(2);
    const bootstrap = openDatabase(url, {}, { max: 2 });
    await runMigrations(bootstrap, migrationsFolder(1));
    const { logger: log, lines } = capturedLog();
    const healthPort = await freePort();
    const starting = runService({
      name: 'schema-test',
      natsUrl: natsUrl(),
      healthPort,
      database: openDatabase(url, {}, { max: 2 }),
      log,
      module: () => EchoModule,
      migrations: { folder, applyAtStart: false, pollMs: 50 },
    });
    const ready = () => fetch(`http://127.0.0.1:${healthPort}/health/ready`);
    try {
      await waitFor(async () => lines.some((l) => l.pending_migrations), 10_000, 'the pending migrations');
      // Alive for the startup probe, not ready, with the reason.
      expect((await fetch(`http://127.0.0.1:${healthPort}/health/live`)).status).toBe(200);
      const waiting = await ready();
      expect(waiting.status).toBe(503);
      expect(await waiting.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', nats: 'starting', events: 'starting', migrations: 'pending' },
      });
      // Nothing answers on its subjects against the older schema.
      await expect(bus.request(echo, { email: 'a' }, { timeoutMs: 1_000 })).rejects.toMatchObject({
        kind: 'unavailable',
      });
      // Several looks later, still one line at error, naming what is missing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const errors = lines.filter((l) => l.level === 'error' || l.level === 'fatal');
      expect(errors).toEqual([
        expect.objectContaining({ pending_migrations: ['0001_second'], msg: expect.stringContaining('Job') }),
      ]);
      expect(await pendingMigrations(bootstrap, folder)).toEqual(['0001_second']);

      // The migration Job applies them: the service starts on its own.
      await runMigrations(bootstrap, folder);
      const service = await starting;
      try {
        const now = await ready();
        expect(await now.json()).toEqual({
          status: 'ok',
          checks: { database: 'ok', nats: 'ok', events: 'ok' },
        });
        await expect(bus.request(echo, { email: 'b' }, { timeoutMs: 5_000 })).resolves.toMatchObject({
          uid: 'b',
        });
      } finally {
        await service.stop();
      }
    } finally {
      await bootstrap.close();
    }
  });

  it('when it may apply them, applies them before it takes work', async () => {
    const url = await newDatabase();
    const folder = migrationsFolder(2);
    const service = await runService({
      name: 'schema-test-apply',
      natsUrl: natsUrl(),
      healthPort: 0,
      database: openDatabase(url, {}, { max: 2 }),
      log: pino({ level: 'silent' }),
      module: () => EchoModule,
      migrations: { folder, applyAtStart: true },
    });
    try {
      expect(await pendingMigrations(service.resources.database, folder)).toEqual([]);
      const ready = await fetch(`http://127.0.0.1:${service.healthPort}/health/ready`);
      expect(ready.status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
