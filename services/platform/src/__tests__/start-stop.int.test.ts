import '../telemetry/register.js';
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
import pg from 'pg';
import { pino } from 'pino';
import { BusClient } from '../bus/bus-client.js';
import { Rpc } from '../bus/rpc.js';
import { openDatabase, runMigrations } from '../db/database.js';
import { runService } from '../service/run-service.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

/** Each slow request as it begins: a test stops the service once one is in progress, not after a guess. */
let onSlowStarted: () => void = () => {};

/** Waits the milliseconds its email says, then answers them back. */
const slow = defineRpc({
  subject: 'test.drain.slow.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});

@Controller()
class SlowHandler {
  @Rpc(slow)
  async slow(@Payload() req: LookupEmailRequest) {
    onSlowStarted();
    await new Promise((resolve) => setTimeout(resolve, Number(req.email)));
    return { uid: req.email };
  }
}

@Module({ controllers: [SlowHandler] })
class SlowModule {}

describe('a stopping service', () => {
  let nc: NatsConnection;
  let bus: BusClient;
  let databaseUrl: string;
  const servers = () => process.env.TEST_NATS_SERVER_URL as string;
  const start = async () =>
    runService({
      name: 'drain-test',
      natsUrl: servers(),
      healthPort: 0,
      database: openDatabase(databaseUrl, {}, { max: 2 }),
      log: pino({ level: 'silent' }),
      module: () => SlowModule,
    });

  beforeAll(async () => {
    databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('drain'),
    );
    nc = await connect({ servers: servers() });
    bus = new BusClient(nc);
  });
  afterAll(async () => {
    await nc.drain();
  });

  it('answers the requests in progress before it goes, and goes as soon as they are done', async () => {
    const service = await start();
    const inProgress = new Promise<void>((resolve) => {
      onSlowStarted = resolve;
    });
    const answered = bus.request(slow, { email: '2500' }, { timeoutMs: 10_000 });
    await inProgress;
    const began = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopping = Date.now();
    await service.stop();
    // Waited for the request (2.5 s from its start), not a fixed grace period, and the caller has its answer.
    expect(Date.now() - began).toBeGreaterThanOrEqual(2_490);
    expect(Date.now() - stopping).toBeLessThan(6_000);
    await expect(answered).resolves.toMatchObject({ uid: '2500' });
  });

  it('answers the requests already on their way to it when it stops, not leaving their callers to time out', async () => {
    const service = await start();
    const firstStarted = new Promise<void>((resolve) => {
      onSlowStarted = resolve;
    });
    const outcomes = Array.from({ length: 100 }, () =>
      bus.request(slow, { email: '20' }, { timeoutMs: 4_000 }).then(
        () => 'answered',
        (err: { kind?: string }) => err.kind ?? 'failed',
      ),
    );
    // Stopped once the requests are on their way and the first is being handled: those the NATS server
    // has sent it are answered, any sent after it stops find no one (503). Unsubscribing dropped the
    // first kind, and every one of their callers waited out its timeout (504).
    await firstStarted;
    await service.stop();
    const results = await Promise.all(outcomes);
    expect(results.filter((r) => r !== 'answered' && r !== 'unavailable')).toEqual([]);
    // Those in progress when it stopped were answered, not refused with the rest.
    expect(results.filter((r) => r === 'answered').length).toBeGreaterThan(0);
  });

  it('is ready while every connection of its pool is taken: readiness pings on a connection of its own', async () => {
    const service = await start();
    const pool = service.resources.database.pool;
    const taken = await Promise.all([pool.connect(), pool.connect()]);
    try {
      expect(pool.totalCount).toBe(pool.options.max);
      const ready = await fetch(`http://127.0.0.1:${service.healthPort}/health/ready`);
      expect(await ready.json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', nats: 'ok', events: 'ok' },
      });
      expect(ready.status).toBe(200);
    } finally {
      for (const client of taken) client.release();
      await service.stop();
    }
  });

  it('stops at once when nothing is in progress', async () => {
    const service = await start();
    const stopping = Date.now();
    await service.stop();
    expect(Date.now() - stopping).toBeLessThan(3_000);
  });
});

describe('a service starting while migrations run elsewhere', () => {
  it('waits for the migration lock longer than its statements may take, instead of failing', async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('miglock'),
    );
    const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
    mkdirSync(join(folder, 'meta'));
    writeFileSync(
      join(folder, 'meta', '_journal.json'),
      JSON.stringify({ version: '7', dialect: 'postgresql', entries: [] }),
    );
    // Another holder of the lock (the migration Job) for longer than the pool's statement timeout.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('select pg_advisory_lock(7106001)');
    const database = openDatabase(url, {}, { max: 2, statementTimeoutMs: 300 });
    try {
      const started = Date.now();
      const migrating = runMigrations(database, folder);
      setTimeout(() => void holder.query('select pg_advisory_unlock(7106001)'), 1_000);
      await expect(migrating).resolves.toBeUndefined();
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      // The pooled connection went back with the pool's own timeout.
      await expect(database.pool.query('select pg_sleep(0.6)')).rejects.toThrow(/statement timeout/);
    } finally {
      await holder.end();
      await database.close();
    }
  });
});
