import '../telemetry/register.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { context } from '@opentelemetry/api';
import { IdentityEvents, type UserUpdated } from '@portico/proto';
import { eq, isNull, sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { pino } from 'pino';
import {
  assertDurableConsumersRunning,
  CONSUMER_LOST_UNREADY_AFTER_MS,
  type DurableConsumerOptions,
  EVENT_ID_HEADER,
  EVENTS_STREAM,
  ensureEventStream,
  OutboxRelay,
  pruneEventRecords,
  REDELIVERY_DELAYS,
  recordEvent,
  redeliveryDelayMs,
  republishOutboxSince,
  startDurableConsumer,
  subscribeFanOut,
} from '../bus/events.js';
import { outboxEvents } from '../bus/outbox.schema.js';
import { runRepublishOutbox } from '../bus/republish-outbox.js';
import {
  acrossFirms,
  type DatabaseHandle,
  firmScope,
  inFirm,
  openDatabase,
  rlsPolicySql,
} from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import { currentTraceId, injectTraceContext, inSpan, SpanKind } from '../telemetry/propagation.js';
import { capturedLog } from '../testing/captured-log.js';
import { waitFor } from '../testing/free-port.js';
import { type RunningNats, startNatsServer } from '../testing/nats.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

const notes = pgTable('notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  firmId: uuid('firm_id').notNull(),
  body: text('body').notNull(),
});
const schema = { notes, outboxEvents };
const log = pino({ level: 'silent' });
const FIRM_A = '00000000-0000-4000-8000-00000000000a';
const FIRM_B = '00000000-0000-4000-8000-00000000000b';

describe('database scoping, outbox relay and durable consumers', () => {
  let handle: DatabaseHandle<typeof schema>;
  let databaseUrl: string;
  let nc: NatsConnection;
  // Its own server: the EVENTS stream must hold only this file's events.
  let nats: RunningNats;

  beforeAll(async () => {
    databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('platform'),
    );
    handle = openDatabase(databaseUrl, schema);
    await handle.pool.query(`
      create table notes (id uuid primary key default gen_random_uuid(), firm_id uuid not null, body text not null);
      create table outbox_events (id uuid primary key, subject text not null, payload jsonb not null,
        headers jsonb not null default '{}', created_at timestamptz not null default now(), published_at timestamptz,
        attempts integer not null default 0, retry_at timestamptz, last_error text);
      create table processed_events (consumer text not null, event_id text not null,
        processed_at timestamptz not null default now(), primary key (consumer, event_id));
      create table handled (event_id text primary key);
      ${rlsPolicySql('notes')}
    `);
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await nc.drain();
    await nats.stop();
    await handle.close();
  });

  it('row-level security hides another firm rows even from a query without a firm filter', async () => {
    await acrossFirms(handle.db, (tx) =>
      tx.insert(notes).values([
        { firmId: FIRM_A, body: 'a' },
        { firmId: FIRM_B, body: 'b' },
      ]),
    );
    const seenByA = await inFirm(handle.db, firmScope(FIRM_A), (tx) => tx.select().from(notes));
    expect(seenByA.map((n) => n.body)).toEqual(['a']);
    await expect(
      inFirm(handle.db, firmScope(FIRM_A), (tx) =>
        tx.insert(notes).values({ firmId: FIRM_B, body: 'sneaky' }),
      ),
    ).rejects.toMatchObject({
      cause: expect.objectContaining({ message: expect.stringMatching(/row-level security/) }),
    });
    const unscoped = await handle.db.select().from(notes);
    expect(unscoped).toEqual([]);
  });

  it('an event recorded in a rolled-back transaction never leaves', async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await recordEvent(tx, IdentityEvents.userUpdated, { userId: 'rolled-back', firmId: FIRM_A });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await handle.db.select().from(outboxEvents).where(sql`payload->>'user_id' = 'rolled-back'`);
    expect(rows).toHaveLength(0);
  });

  type UserUpdates = DurableConsumerOptions<typeof IdentityEvents.userUpdated.message>;

  /** A durable consumer of user updates on the test's NATS and database, with `options` over the rest. */
  const consumeUserUpdates = (
    durable: string,
    handleEvent: UserUpdates['handle'],
    options: Partial<
      Pick<UserUpdates, 'fromNow' | 'startsAt' | 'redelivery' | 'ackWaitMs' | 'recovery' | 'scopeOf' | 'log'>
    > = {},
  ) =>
    startDurableConsumer({
      nc,
      db: handle.db,
      durable,
      contract: IdentityEvents.userUpdated,
      handle: handleEvent,
      ...options,
      log: options.log ?? log,
    });

  /** Waits until the consumer has nothing pending and nothing unacknowledged (acked or terminated). */
  async function everyEventSettled(durable: string) {
    const jsm = await jetstreamManager(nc);
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(EVENTS_STREAM, durable);
        return info.num_ack_pending === 0 && info.num_pending === 0;
      },
      5_000,
      `every event of ${durable} settled`,
    );
  }

  it('relays committed events once and the durable consumer handles a duplicate delivery once', async () => {
    const seen: UserUpdated[] = [];
    const consumer = await consumeUserUpdates('platform_test_user_updated', async (event, tx) => {
      seen.push(event);
      await tx.execute(sql`insert into handled (event_id) values (${event.eventId})`);
    });
    const eventId = await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, {
        userId: 'u-1',
        firmId: FIRM_A,
        changedFields: ['email'],
      }),
    );
    const relay = new OutboxRelay(handle.db, nc, log);
    expect(await relay.flush()).toBe(1);
    expect(await relay.flush()).toBe(0);
    // A redelivery from another path (same event id, new JetStream message) is skipped by the consumer.
    const h = headers();
    h.set(EVENT_ID_HEADER, eventId);
    await jetstream(nc).publish(
      IdentityEvents.userUpdated.subject,
      JSON.stringify({ event_id: eventId, user_id: 'u-1' }),
      {
        headers: h,
      },
    );
    await waitFor(async () => seen.length >= 1, 5_000, 'the event to be handled');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.changedFields).toEqual(['email']);
    const published = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId));
    expect(published[0]?.publishedAt).toBeInstanceOf(Date);
    await consumer.stop();
  });

  it('stops after the event in hand, handing those fetched ahead back for the next consumer', async () => {
    const durable = 'platform_test_stop';
    const handled: string[] = [];
    let started: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = await consumeUserUpdates(
      durable,
      async (event) => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 400));
        handled.push(event.userId);
      },
      // Those fetched ahead are handed back at once; any on their way when it stopped come back after this.
      { fromNow: true, ackWaitMs: 1_500 },
    );
    const ids = ['s-1', 's-2', 's-3', 's-4', 's-5', 's-6'];
    for (const userId of ids) {
      const h = headers();
      h.set(EVENT_ID_HEADER, `stop-${userId}`);
      await jetstream(nc).publish(IdentityEvents.userUpdated.subject, JSON.stringify({ user_id: userId }), {
        headers: h,
      });
    }
    await firstStarted;
    const stopping = Date.now();
    await slow.stop();
    // The one in hand (400 ms), not the four fetched with it one after another.
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(handled).toEqual(['s-1']);
    const next = await consumeUserUpdates(durable, async (event) => {
      handled.push(event.userId);
    });
    await waitFor(async () => handled.length === ids.length, 5_000, 'every event handled');
    await everyEventSettled(durable);
    expect([...handled].sort()).toEqual(ids);
    await next.stop();
  });

  it('delivers a failed event again until its handler succeeds, and drops one that does not match its contract', async () => {
    const durable = 'platform_test_retries';
    let failures = 0;
    const handled: string[] = [];
    const consumer = await consumeUserUpdates(
      durable,
      async (event) => {
        if (event.userId === 'flaky' && failures < 25) {
          failures++;
          throw new Error('database away');
        }
        handled.push(event.eventId);
      },
      { redelivery: { firstMs: 10, maxMs: 40 } },
    );
    const js = jetstream(nc);
    // Not a UserUpdated: user_id must be a string.
    await js.publish(IdentityEvents.userUpdated.subject, JSON.stringify({ event_id: 'bad', user_id: 5 }));
    await js.publish(IdentityEvents.userUpdated.subject, JSON.stringify({ event_id: 'f', user_id: 'flaky' }));
    // More failures than the twenty deliveries a consumer used to allow.
    await waitFor(async () => handled.includes('f'), 20_000, 'the flaky event to be handled');
    expect(failures).toBe(25);
    // The ack leaves after the handler's transaction commits, a moment after the handler ran.
    await everyEventSettled(durable);
    expect(handled.filter((id) => id === 'f')).toHaveLength(1);
    expect(handled).not.toContain('bad');
    await consumer.stop();
  });

  it('drops an event its handler was refused for good, once, and goes on with the next', async () => {
    const durable = 'platform_test_refused';
    const attempts: string[] = [];
    const consumer = await consumeUserUpdates(
      durable,
      async (event) => {
        attempts.push(event.userId);
        if (event.userId === 'refused')
          throw new AppError('bad_request', 'invalid_email', 'Invalid email address');
      },
      { redelivery: { firstMs: 10, maxMs: 40 }, fromNow: true },
    );
    const js = jetstream(nc);
    await js.publish(
      IdentityEvents.userUpdated.subject,
      JSON.stringify({ event_id: 'r1', user_id: 'refused' }),
    );
    await js.publish(IdentityEvents.userUpdated.subject, JSON.stringify({ event_id: 'r2', user_id: 'next' }));
    await waitFor(async () => attempts.includes('next'), 10_000, 'the next event to be handled');
    await everyEventSettled(durable);
    // Redeliveries would come within tens of milliseconds: none came.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts.filter((id) => id === 'refused')).toHaveLength(1);
    await consumer.stop();
  });

  it("starts a consumer created with fromNow at the events published after it, not the stream's past", async () => {
    const js = jetstream(nc);
    await js.publish(
      IdentityEvents.userUpdated.subject,
      JSON.stringify({ event_id: 'before', user_id: 'x' }),
    );
    const seen: string[] = [];
    const consumer = await consumeUserUpdates(
      'platform_test_from_now',
      async (event) => {
        seen.push(event.eventId);
      },
      { fromNow: true },
    );
    await js.publish(IdentityEvents.userUpdated.subject, JSON.stringify({ event_id: 'after', user_id: 'x' }));
    await waitFor(async () => seen.includes('after'), 5_000, 'the event after it to be handled');
    expect(seen).toEqual(['after']);
    await consumer.stop();
  });

  it('starts a consumer created with startsAt at the events published since that time, before it was made too', async () => {
    const js = jetstream(nc);
    const publish = (eventId: string) =>
      js.publish(IdentityEvents.userUpdated.subject, JSON.stringify({ event_id: eventId, user_id: 'x' }));
    await publish('earlier');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const startsAt = new Date();
    // As an outbox relay that starts before the consumer is made.
    await publish('since-before-made');
    const seen: string[] = [];
    const consumer = await consumeUserUpdates(
      'platform_test_starts_at',
      async (event) => {
        seen.push(event.eventId);
      },
      { startsAt },
    );
    await publish('after');
    await waitFor(async () => seen.includes('after'), 5_000, 'the event after it to be handled');
    expect(seen).toEqual(['since-before-made', 'after']);
    await consumer.stop();
  });

  it('waits 5 s after a first failure, doubling up to 10 minutes', () => {
    expect([1, 2, 3].map((n) => redeliveryDelayMs(n))).toEqual([5_000, 10_000, 20_000]);
    expect(redeliveryDelayMs(10)).toBe(REDELIVERY_DELAYS.maxMs);
    expect(redeliveryDelayMs(10_000)).toBe(10 * 60_000);
  });

  it('prunes published rows after 7 days, and handled records once no stream holds their events (31 days)', async () => {
    const old = `now() - interval '8 days'`;
    await handle.db.execute(
      sql.raw(`
      insert into outbox_events (id, subject, payload, created_at, published_at) values
        ('00000000-0000-4000-8000-0000000000e1', 'events.test.v1', '{}', ${old}, ${old}),
        ('00000000-0000-4000-8000-0000000000e2', 'events.test.v1', '{}', ${old}, null),
        ('00000000-0000-4000-8000-0000000000e3', 'events.test.v1', '{}', now(), now());
      insert into processed_events (consumer, event_id, processed_at) values
        ('prune_test', 'past-any-stream', now() - interval '32 days'),
        ('prune_test', 'nine-days', now() - interval '9 days');`),
    );
    expect(await pruneEventRecords(handle.db)).toEqual({ published: 1, processed: 1 });
    const left = await handle.db.execute<{ id: string }>(
      sql`select id::text from outbox_events where id::text like '00000000-0000-4000-8000-0000000000e%' order by id`,
    );
    // Never an event not yet published, however old.
    expect(left.rows.map((r) => r.id.slice(-2))).toEqual(['e2', 'e3']);
    const handled = await handle.db.execute<{ event_id: string }>(
      sql`select event_id from processed_events where consumer = 'prune_test'`,
    );
    expect(handled.rows.map((r) => r.event_id)).toEqual(['nine-days']);
    await handle.db.execute(sql`delete from outbox_events where id = '00000000-0000-4000-8000-0000000000e2'`);
  });

  it('prunes a bounded batch per statement, however many are due', async () => {
    await handle.db.execute(
      sql.raw(`
      insert into outbox_events (id, subject, payload, created_at, published_at)
        select gen_random_uuid(), 'events.test.v1', '{}', now() - interval '8 days', now() - interval '8 days'
        from generate_series(1, 5);
      insert into processed_events (consumer, event_id, processed_at)
        select 'batch_test', g::text, now() - interval '32 days' from generate_series(1, 5) g;
      create table deleted_per_statement (tab text not null, n int not null);
      create function count_deleted() returns trigger language plpgsql as $$
      begin
        insert into deleted_per_statement select tg_table_name, count(*) from gone;
        return null;
      end $$;
      create trigger count_deleted after delete on outbox_events
        referencing old table as gone for each statement execute function count_deleted();
      create trigger count_deleted after delete on processed_events
        referencing old table as gone for each statement execute function count_deleted();`),
    );
    try {
      expect(await pruneEventRecords(handle.db, new Date(), 2)).toEqual({ published: 5, processed: 5 });
      const counted = await handle.db.execute<{ tab: string; n: number }>(
        sql`select tab, n from deleted_per_statement where n > 0`,
      );
      for (const tab of ['outbox_events', 'processed_events'])
        expect(
          counted.rows
            .filter((r) => r.tab === tab)
            .map((r) => r.n)
            .sort(),
        ).toEqual([1, 2, 2]);
    } finally {
      await handle.db.execute(
        sql.raw(`
        drop trigger count_deleted on outbox_events;
        drop trigger count_deleted on processed_events;
        drop function count_deleted;
        drop table deleted_per_statement;`),
      );
    }
  });

  it('keeps events in the outbox while NATS is unreachable and relays them later', async () => {
    const deadNc = await connect({ servers: nats.url });
    await deadNc.close();
    const eventId = await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, { userId: 'u-2', firmId: FIRM_A }),
    );
    await expect(new OutboxRelay(handle.db, deadNc, log).flush()).rejects.toThrow();
    const [pending] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId));
    // An outage is nobody's fault: the event keeps its place, due at once.
    expect(pending).toMatchObject({ publishedAt: null, attempts: 0, retryAt: null });
    expect(await new OutboxRelay(handle.db, nc, log).flush()).toBe(1);
  });

  it('keeps events in order, none held back, while NATS answers but JetStream does not', async () => {
    const withoutJetStream = await startNatsServer({ jetStream: false });
    const plainNc = await connect({ servers: withoutJetStream.url });
    try {
      const eventId = await handle.db.transaction((tx) =>
        recordEvent(tx, IdentityEvents.userUpdated, { userId: 'u-4', firmId: FIRM_A }),
      );
      await expect(new OutboxRelay(handle.db, plainNc, log).flush()).rejects.toThrow();
      const [pending] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId));
      expect(pending).toMatchObject({ publishedAt: null, attempts: 0, retryAt: null });
      expect(await new OutboxRelay(handle.db, nc, log).flush()).toBe(1);
    } finally {
      await plainNc.close();
      await withoutJetStream.stop();
    }
  });

  it('holds back an event its stream refuses as too large, and relays the events behind it', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'LIMITED', subjects: ['limited.>'], max_msg_size: 200 });
    const tooLarge = '00000000-0000-4000-8000-0000000000f2';
    await handle.db.execute(
      sql`insert into outbox_events (id, subject, payload, created_at)
          values (${tooLarge}, 'limited.test.v1', ${JSON.stringify({ text: 'x'.repeat(500) })}::jsonb,
                  now() - interval '1 minute')`,
    );
    const behind = await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, { userId: 'u-5', firmId: FIRM_A }),
    );
    try {
      expect(await new OutboxRelay(handle.db, nc, log).flush()).toBe(1);
      const [held] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, tooLarge));
      expect(held).toMatchObject({ publishedAt: null, attempts: 1 });
      const [sent] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, behind));
      expect(sent).toBeDefined();
      expect(sent?.publishedAt).not.toBeNull();
    } finally {
      await handle.db.execute(sql`delete from outbox_events where id = ${tooLarge}`);
      await jsm.streams.delete('LIMITED');
    }
  });

  it('holds back an event no stream takes, with a growing wait, and relays the events behind it', async () => {
    const refused = '00000000-0000-4000-8000-0000000000f1';
    // No stream takes this subject: JetStream answers every try with no responders, while it works.
    await handle.db.execute(
      sql`insert into outbox_events (id, subject, payload, created_at)
          values (${refused}, 'nowhere.test.v1', '{}', now() - interval '1 minute')`,
    );
    const behind = await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, { userId: 'u-3', firmId: FIRM_A }),
    );
    const relay = new OutboxRelay(handle.db, nc, log);
    expect(await relay.flush()).toBe(1);
    const row = async (id: string) =>
      (await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, id)))[0];
    expect((await row(behind))?.publishedAt).not.toBeNull();
    const held = await row(refused);
    expect(held).toMatchObject({ publishedAt: null, attempts: 1 });
    expect(held?.lastError).toBeTruthy();
    const waitMs = (held?.retryAt?.getTime() ?? 0) - Date.now();
    expect(waitMs).toBeGreaterThan(3_000);
    expect(waitMs).toBeLessThanOrEqual(5_000);
    // Not tried again before its time; then tried, and refused again, it waits twice as long.
    expect(await relay.flush()).toBe(0);
    expect((await row(refused))?.attempts).toBe(1);
    await handle.db.execute(sql`update outbox_events set retry_at = now() where id = ${refused}`);
    expect(await relay.flush()).toBe(0);
    const again = await row(refused);
    expect(again?.attempts).toBe(2);
    expect((again?.retryAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(8_000);
    await handle.db.execute(sql`delete from outbox_events where id = ${refused}`);
  });
  /** Publishes a user update straight to JetStream, with its event id header (and the active trace). */
  async function publishUserUpdate(eventId: string, fields: Record<string, unknown> = {}) {
    const h = headers();
    h.set(EVENT_ID_HEADER, eventId);
    for (const [key, value] of Object.entries(injectTraceContext({}))) h.set(key, value);
    await jetstream(nc).publish(
      IdentityEvents.userUpdated.subject,
      JSON.stringify({ event_id: eventId, user_id: 'u', ...fields }),
      { headers: h },
    );
  }

  it('logs a failed event inside its span, with the trace id of the change that recorded it', async () => {
    const { lines, logger } = capturedLog();
    let failures = 0;
    const consumer = await consumeUserUpdates(
      'platform_test_traced',
      async (event) => {
        if (event.userId === 'failing' && failures++ === 0) throw new Error('database away');
        if (event.userId === 'refused') throw new AppError('not_found', 'no_user', 'No such user');
      },
      { fromNow: true, redelivery: { firstMs: 10, maxMs: 40 }, log: logger },
    );
    const traceIds = await inSpan('record', SpanKind.PRODUCER, context.active(), async () => {
      await publishUserUpdate('traced-failing', { user_id: 'failing' });
      return currentTraceId();
    });
    const refusedTrace = await inSpan('record', SpanKind.PRODUCER, context.active(), async () => {
      await publishUserUpdate('traced-refused', { user_id: 'refused' });
      return currentTraceId();
    });
    await waitFor(async () => lines.length >= 2, 5_000, 'both failures logged');
    await everyEventSettled('platform_test_traced');
    expect(traceIds).toMatch(/^[0-9a-f]{32}$/);
    const line = (msg: string) => lines.find((l) => l.msg === msg);
    expect(line('Event handler failed; will be redelivered')).toMatchObject({ trace_id: traceIds });
    expect(line('Event handler refused for good; dropped')).toMatchObject({ trace_id: refusedTrace });
    await consumer.stop();
  });

  it("runs a handler given the event's firm in that firm's row-level-security scope, and drops an event without one", async () => {
    await acrossFirms(handle.db, (tx) =>
      tx.insert(notes).values([
        { firmId: FIRM_A, body: 'scoped-a' },
        { firmId: FIRM_B, body: 'scoped-b' },
      ]),
    );
    /** Records the notes each event's handler could read. */
    const readNotes =
      (seen: Record<string, string[]>): UserUpdates['handle'] =>
      async (event, tx) => {
        const rows = await tx.select().from(notes).where(sql`${notes.body} like 'scoped-%'`);
        seen[event.eventId] = rows.map((r) => r.body);
      };
    const seen: Record<string, string[]> = {};
    const scoped = await consumeUserUpdates('platform_test_scoped', readNotes(seen), {
      fromNow: true,
      scopeOf: (event) => firmScope(event.firmId),
    });
    // Today's consumers, without scopeOf, keep the unscoped transaction: no row under FORCE RLS.
    const seenUnscoped: Record<string, string[]> = {};
    const unscoped = await consumeUserUpdates('platform_test_unscoped', readNotes(seenUnscoped), {
      fromNow: true,
    });
    await publishUserUpdate('scoped-1', { firm_id: FIRM_A });
    await publishUserUpdate('scoped-2', { firm_id: '' });
    await publishUserUpdate('scoped-3', { firm_id: FIRM_B });
    await waitFor(
      async () => 'scoped-3' in seen && 'scoped-3' in seenUnscoped,
      5_000,
      'the scoped events handled',
    );
    await everyEventSettled('platform_test_scoped');
    expect(seen['scoped-1']).toEqual(['scoped-a']);
    expect(seen['scoped-3']).toEqual(['scoped-b']);
    // No firm to scope it by: terminated, not handled, not delivered again.
    expect('scoped-2' in seen).toBe(false);
    expect(seenUnscoped).toEqual({ 'scoped-1': [], 'scoped-2': [], 'scoped-3': [] });
    await scoped.stop();
    await unscoped.stop();
    const unscopedSeen = await handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from processed_events where consumer = 'platform_test_unscoped'`,
    );
    expect(unscopedSeen.rows[0]?.n).toBe(3);
  });

  it('makes a consumer deleted on the server again, and handles the events published meanwhile and later', async () => {
    const durable = 'platform_test_recreated';
    await ensureEventStream(nc);
    // Before the consumer was first made: never handled, even after it is made again.
    await publishUserUpdate('recreate-before');
    const handled: string[] = [];
    const consumer = await consumeUserUpdates(
      durable,
      async (event) => {
        handled.push(event.eventId);
      },
      // Made again a second after it is found lost: the event below is published while it is missing.
      { fromNow: true, recovery: { firstMs: 1_000, maxMs: 1_000 } },
    );
    await publishUserUpdate('recreate-first');
    await waitFor(async () => handled.includes('recreate-first'), 5_000, 'the first event handled');
    await everyEventSettled(durable);
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.delete(EVENTS_STREAM, durable);
    // Published while the consumer is missing, then once it is back.
    await publishUserUpdate('recreate-meanwhile');
    await expect(jsm.consumers.info(EVENTS_STREAM, durable)).rejects.toThrow(/consumer not found/);
    await waitFor(
      async () => (await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => null)) !== null,
      10_000,
      'the consumer made again',
    );
    await publishUserUpdate('recreate-later');
    await waitFor(async () => handled.includes('recreate-later'), 10_000, 'the later event handled');
    await everyEventSettled(durable);
    expect([...handled].sort()).toEqual(['recreate-first', 'recreate-later', 'recreate-meanwhile']);
    expect(() => assertDurableConsumersRunning(nc)).not.toThrow();
    await consumer.stop();
  });

  it('sends the events recorded since a time again for a lost stream, each handled once by a consumer', async () => {
    const handled: string[] = [];
    const consumer = await consumeUserUpdates(
      'platform_test_republished',
      async (event) => {
        handled.push(event.userId);
      },
      { fromNow: true },
    );
    const relay = new OutboxRelay(handle.db, nc, log);
    await relay.flush();
    const before = new Date(Date.now() - 1);
    await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, { userId: 'republished', firmId: FIRM_A }),
    );
    expect(await relay.flush()).toBe(1);
    await waitFor(async () => handled.includes('republished'), 5_000, 'the event handled');
    // As the operator's command runs it, on the service's database.
    const printed: string[] = [];
    expect(
      await runRepublishOutbox(['--since', before.toISOString()], { DATABASE_URL: databaseUrl }, (line) =>
        printed.push(line),
      ),
    ).toBe(0);
    expect(printed[0]).toMatch(/^1 event\(s\) recorded since/);
    expect(await republishOutboxSince(handle.db, new Date(Date.now() + 60_000))).toBe(0);
    // The stream's duplicate window would drop it (2 min), as it would not for a new stream.
    await jetstreamManager(nc).then((jsm) => jsm.streams.purge(EVENTS_STREAM));
    expect(await relay.flush()).toBe(1);
    await everyEventSettled('platform_test_republished');
    expect(handled).toEqual(['republished']);
    await consumer.stop();
    expect(await runRepublishOutbox(['--since', 'yesterday'], { DATABASE_URL: databaseUrl })).toBe(1);
  });

  it('sends again at once the events held back since that time, as the published ones', async () => {
    const before = new Date(Date.now() - 1);
    await handle.db.transaction((tx) =>
      recordEvent(tx, IdentityEvents.userUpdated, { userId: 'held-back', firmId: FIRM_A }),
    );
    // As the relay leaves an event refused while the stream was missing: waiting for its next try.
    await handle.db
      .update(outboxEvents)
      .set({ attempts: 6, retryAt: new Date(Date.now() + 600_000), lastError: 'no stream' })
      .where(isNull(outboxEvents.publishedAt));
    expect(await republishOutboxSince(handle.db, before)).toBe(1);
    const [row] = await handle.db.select().from(outboxEvents).where(isNull(outboxEvents.publishedAt));
    expect(row).toMatchObject({ attempts: 0, retryAt: null, lastError: null });
    expect(await new OutboxRelay(handle.db, nc, log).flush()).toBe(1);
  });

  it('waits for a deleted stream without making it, fails readiness after a minute, and goes on once it is back', async () => {
    const durable = 'platform_test_stream_lost';
    const handled: string[] = [];
    const consumer = await consumeUserUpdates(
      durable,
      async (event) => {
        handled.push(event.eventId);
      },
      { fromNow: true, recovery: { firstMs: 50, maxMs: 200 } },
    );
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(EVENTS_STREAM);
    const inAMinute = () => Date.now() + CONSUMER_LOST_UNREADY_AFTER_MS;
    await waitFor(
      async () => {
        try {
          assertDurableConsumersRunning(nc, inAMinute());
          return false;
        } catch {
          return true;
        }
      },
      20_000,
      'the consumer found lost',
    );
    // Lost for less than a minute: not yet a reason to be unready.
    expect(() => assertDurableConsumersRunning(nc)).not.toThrow();
    expect(() => assertDurableConsumersRunning(nc, inAMinute())).toThrow(durable);
    // An operator restoring the stream needs it absent: the consumer does not make it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(jsm.streams.info(EVENTS_STREAM)).rejects.toThrow(/stream not found/);
    await ensureEventStream(nc);
    await waitFor(
      async () => (await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => null)) !== null,
      10_000,
      'the consumer made again',
    );
    await publishUserUpdate('stream-back');
    await waitFor(async () => handled.includes('stream-back'), 10_000, 'an event after the stream is back');
    expect(() => assertDurableConsumersRunning(nc, inAMinute())).not.toThrow();
    await consumer.stop();
  });
  it('makes a fan-out subscription again when its stream is lost, instead of ending the process', async () => {
    const seen: string[] = [];
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const subscription = await subscribeFanOut(
        nc,
        IdentityEvents.userUpdated,
        (event) => seen.push(event.eventId),
        log,
        { recovery: { firstMs: 50, maxMs: 200 } },
      );
      await publishUserUpdate('fan-before');
      await waitFor(async () => seen.includes('fan-before'), 10_000, 'an event before the stream is lost');
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(EVENTS_STREAM);
      // Lost for a while (the iterator ends with an error), then the stream is back.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await ensureEventStream(nc);
      await publishUserUpdate('fan-after');
      await waitFor(async () => seen.includes('fan-after'), 20_000, 'an event after the stream is back');
      await subscription.stop();
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
