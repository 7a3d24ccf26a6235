import '../telemetry/register.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import type { INestMicroservice } from '@nestjs/common';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import {
  defineRpc,
  type LookupEmailRequest,
  LookupEmailRequestSchema,
  LookupEmailResponseSchema,
} from '@portico/proto';
import { eq, sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Actor } from '../auth/actor.js';
import { BusClient } from '../bus/bus-client.js';
import {
  DEADLINE_PASSED,
  deadlineOf,
  replyAllowanceMs,
  SERVICE_TIMEOUT_MESSAGE,
  TIMEOUT_HEADER,
  withDeadline,
} from '../bus/deadline.js';
import { CurrentActor, RequestHeader, Rpc } from '../bus/rpc.js';
import { acrossFirms, type DatabaseHandle, openDatabase } from '../db/database.js';
import { readAcrossFirms } from '../db/scoped-read.js';
import { postgresCode } from '../errors/postgres-errors.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

const notes = pgTable('deadline_notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  body: text('body').notNull(),
});
const schema = { notes };

/** A test subject taking and answering the lookup messages, whose fields carry what each test needs. */
const contract = (name: string) =>
  defineRpc({
    subject: `test.deadline.${name}.v1`,
    request: LookupEmailRequestSchema,
    response: LookupEmailResponseSchema,
  });
// The request's email carries what the handler does: '<body>:<ms>' writes a note and waits that long
// before committing; the reply's uid is what the handler saw.
const write = contract('write');
const relay = contract('relay');
const seen = contract('seen');

const actor: Actor = { user_id: 'u1', firm_id: 'f1', role: 'advisor', firm_access: 'partner' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let handle: DatabaseHandle<typeof schema>;
let databaseUrl: string;
let bus: BusClient;
let handled = 0;

@Controller()
class DeadlineHandler {
  @Rpc(write)
  async write(@Payload() req: LookupEmailRequest) {
    handled += 1;
    const [body, ms] = req.email.split(':');
    await acrossFirms(handle.db, async (tx) => {
      await tx.insert(notes).values({ body: body as string });
      await sleep(Number(ms));
    });
    return { uid: body };
  }

  /** Waits, then asks `seen` with the bus's default timeout. */
  @Rpc(relay)
  async relay(@Payload() req: LookupEmailRequest, @CurrentActor() who: Actor) {
    await sleep(Number(req.email));
    return bus.request(seen, { email: '' }, { actor: who });
  }

  @Rpc(seen)
  seen(@RequestHeader(TIMEOUT_HEADER) timeout: string | undefined) {
    return { uid: timeout ?? '' };
  }
}

@Module({ controllers: [DeadlineHandler] })
class DeadlineModule {}

const noteCount = async (body: string) =>
  (await acrossFirms(handle.db, (tx) => tx.select().from(notes).where(eq(notes.body, body)))).length;

describe('deadlines: a service stops working for a caller that no longer waits', () => {
  let app: INestMicroservice;
  let nc: NatsConnection;

  beforeAll(async () => {
    databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('deadline'),
    );
    handle = openDatabase(databaseUrl, schema, { max: 4 });
    await handle.pool.query(
      'create table deadline_notes (id uuid primary key default gen_random_uuid(), body text not null)',
    );
    const servers = process.env.TEST_NATS_SERVER_URL as string;
    app = await NestFactory.createMicroservice<MicroserviceOptions>(DeadlineModule, {
      transport: Transport.NATS,
      options: { servers, queue: 'deadline-test' },
      logger: false,
    });
    await app.listen();
    nc = await connect({ servers });
    bus = new BusClient(nc);
  });

  afterAll(async () => {
    await app.close();
    await nc.drain();
    await handle.close();
  });

  it('commits a change made within the caller’s timeout', async () => {
    await expect(
      bus.request(write, { email: 'in-time:50' }, { actor, timeoutMs: 3_000 }),
    ).resolves.toMatchObject({
      uid: 'in-time',
    });
    expect(await noteCount('in-time')).toBe(1);
  });

  it('rolls back a change whose caller has timed out (504), rather than make it behind its back', async () => {
    await expect(
      bus.request(write, { email: 'too-late:600' }, { actor, timeoutMs: 300 }),
    ).rejects.toMatchObject({
      status: 504,
      message: SERVICE_TIMEOUT_MESSAGE,
    });
    // The handler is done by then; its transaction did not commit.
    await sleep(700);
    expect(await noteCount('too-late')).toBe(0);
  });

  it('does not start a request that reaches its turn after its caller’s timeout', async () => {
    const before = handled;
    const h = natsHeaders();
    // 1 ms: over before it arrives (less than the reply's allowance).
    h.set(TIMEOUT_HEADER, '1');
    const reply = await nc.request(
      write.subject,
      JSON.stringify({ pattern: write.subject, id: '1', data: { email: 'never:0' } }),
      { timeout: 2_000, headers: h },
    );
    expect(reply.json<{ err: { code: string; kind: string } }>().err).toMatchObject({
      code: DEADLINE_PASSED,
      kind: 'timeout',
    });
    expect(handled).toBe(before);
    expect(await noteCount('never')).toBe(0);
  });

  it('gives a request made while handling another no more time than that one’s caller has left', async () => {
    const reply = await bus.request(relay, { email: '300' }, { actor, timeoutMs: 2_000 });
    const passedOn = Number(reply.uid);
    // 2000 ms, less the reply's allowance and the 300 ms the relay waited (and a little transit); a timer
    // can fire a millisecond early as Date.now() counts, hence the few milliseconds' tolerance.
    expect(passedOn).toBeLessThanOrEqual(2_000 - replyAllowanceMs(2_000) - 300 + 5);
    expect(passedOn).toBeGreaterThan(1_000);
    // Outside any request, the contract's or the default timeout.
    expect(Number((await bus.request(seen, { email: '' }, { actor })).uid)).toBe(5_000);
  });

  it('reads the timeout header strictly', () => {
    expect(deadlineOf(undefined, 1_000)).toBeUndefined();
    expect(deadlineOf('', 1_000)).toBeUndefined();
    expect(deadlineOf('soon', 1_000)).toBeUndefined();
    expect(deadlineOf('-5', 1_000)).toBeUndefined();
    expect(deadlineOf('5000', 1_000)).toBe(1_000 + 5_000 - 250);
    expect([replyAllowanceMs(100), replyAllowanceMs(5_000), replyAllowanceMs(60_000)]).toEqual([
      50, 250, 1_000,
    ]);
  });
  describe('database work under a deadline', () => {
    /** Runs `work` as a request whose caller waits `ms` more; answers what it threw. */
    const failureWithin = (ms: number, work: () => Promise<unknown>) =>
      withDeadline(Date.now() + ms, work).then(
        () => undefined,
        (err: unknown) => err,
      );

    it('cancels a statement waiting on a lock at the deadline, not at the pool’s statement timeout', async () => {
      const lock = await handle.pool.connect();
      await lock.query('begin; lock table deadline_notes in access exclusive mode');
      try {
        const inTransaction = await failureWithin(300, () =>
          acrossFirms(handle.db, (tx) => tx.select().from(notes)),
        );
        // PostgreSQL cancelled it by the statement timeout (57014) taken from the deadline: a 504.
        expect(inTransaction).toMatchObject({ code: DEADLINE_PASSED, kind: 'timeout' });
        expect(postgresCode((inTransaction as { cause?: unknown }).cause)).toBe('57014');
        const scopedRead = await failureWithin(300, () =>
          readAcrossFirms(handle.db, (reader) => reader.select().from(notes)),
        );
        expect(scopedRead).toMatchObject({ code: DEADLINE_PASSED, kind: 'timeout' });
        expect(postgresCode((scopedRead as { cause?: unknown }).cause)).toBe('57014');
        // The limit was the transaction's or the statement's own: the same connections answer freely after.
        await lock.query('commit');
        const settings = await Promise.all(
          [1, 2, 3, 4].map(() => handle.pool.query(`select current_setting('statement_timeout') as t`)),
        );
        expect(settings.map((r) => r.rows[0].t)).toEqual(['10s', '10s', '10s', '10s']);
      } finally {
        await lock.query('rollback').catch(() => undefined);
        lock.release();
      }
    });

    it('gives up waiting for a pooled connection at the deadline, and the connection goes back', async () => {
      const single = openDatabase(databaseUrl, schema, { max: 1 });
      const held = await single.pool.connect();
      try {
        const waited = await failureWithin(300, () => acrossFirms(single.db, async () => 'never'));
        // Not the pool's own refusal after 5 s ('timeout exceeded when trying to connect').
        expect(waited).toMatchObject({ code: DEADLINE_PASSED, kind: 'timeout' });
        const read = await failureWithin(300, () =>
          readAcrossFirms(single.db, (reader) => reader.execute(sql`select 1`)),
        );
        expect(read).toMatchObject({ code: DEADLINE_PASSED });
      } finally {
        held.release();
      }
      await expect(acrossFirms(single.db, async () => 'in time')).resolves.toBe('in time');
      expect(single.pool.waitingCount).toBe(0);
      await single.close();
    });
  });
});
