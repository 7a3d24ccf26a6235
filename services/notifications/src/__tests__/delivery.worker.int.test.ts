// Registered first, as the service's process does: spans get trace ids and carry them through async calls.
import '@portico/platform/telemetry';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  createLogger,
  currentTraceId,
  extractTraceContext,
  inSpan,
  openDatabase,
  remainingMs,
  SpanKind,
  withDeadline,
} from '@portico/platform';
import { waitFor } from '@portico/platform/testing';
import type { NotificationsConfig } from '../config.js';
import type { MailPort, OutgoingEmail } from '../delivery/mail.port.js';
import type { OutgoingSms, SmsPort } from '../delivery/sms.port.js';
import { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from '../delivery.limits.js';
import { DeliveryWorker } from '../delivery.worker.js';
import { applyMigrations } from '../migrations.js';
import { OutboxRepository } from '../outbox.repository.js';
import { schema } from '../schema.js';
import { Harness } from './harness.js';

type Logged = Record<string, unknown> & { msg: string };

/** A provider whose answer to each call the test decides; it remembers every call and its context. */
class FakeProvider implements MailPort, SmsPort {
  mode: 'deliver' | 'keep' = 'deliver';
  readonly calls: Array<{ to: string; signal?: AbortSignal; traceId?: string; remainingMs?: number }> = [];
  private readonly stalled: Array<() => void> = [];

  constructor(private readonly answer: (to: string, call: number) => Promise<void> = async () => {}) {}

  send(message: OutgoingEmail | OutgoingSms, signal?: AbortSignal): Promise<void> {
    this.calls.push({ to: message.to, signal, traceId: currentTraceId(), remainingMs: remainingMs() });
    return this.answer(message.to, this.calls.length);
  }

  /** An answer that never comes until `release()`, as from a mail server that stopped talking. */
  stall(): Promise<void> {
    return new Promise((resolve) => this.stalled.push(resolve));
  }

  release(): void {
    for (const resolve of this.stalled.splice(0)) resolve();
  }

  async close(): Promise<void> {
    this.release();
  }

  to(recipient: string) {
    return this.calls.filter((c) => c.to === recipient);
  }
}

/**
 * The real repository, remembering when each claim started and each outcome write was tried; with
 * `failOutcomes`, every outcome write fails as when the database is away.
 */
class RecordingOutbox extends OutboxRepository {
  failOutcomes = false;
  claims: Array<{ at: number; ids: string[] }> = [];
  outcomeTries: Array<{ id: string; at: number }> = [];

  reset(): void {
    this.failOutcomes = false;
    this.claims = [];
    this.outcomeTries = [];
  }

  override async claimDue(...args: Parameters<OutboxRepository['claimDue']>) {
    const at = Date.now();
    const claimed = await super.claimDue(...args);
    this.claims.push({ at, ids: claimed.map((m) => m.id) });
    return claimed;
  }

  override markSent(...args: Parameters<OutboxRepository['markSent']>) {
    return this.outcome(args[0].id, () => super.markSent(...args));
  }

  override markRetry(...args: Parameters<OutboxRepository['markRetry']>) {
    return this.outcome(args[0].id, () => super.markRetry(...args));
  }

  override markFailed(...args: Parameters<OutboxRepository['markFailed']>) {
    return this.outcome(args[0].id, () => super.markFailed(...args));
  }

  private async outcome(id: string, write: () => Promise<boolean>): Promise<boolean> {
    this.outcomeTries.push({ id, at: Date.now() });
    if (this.failOutcomes) throw new Error('the database is away');
    return write();
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the delivery worker', () => {
  let h: Harness;
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let outbox: RecordingOutbox;
  const logged: Logged[] = [];
  const log = createLogger('notifications', 'info', {
    write: (line: string) => void logged.push(JSON.parse(line) as Logged),
  });
  const workers: DeliveryWorker[] = [];
  const worker = (index: number) => workers[index] as DeliveryWorker;

  beforeAll(async () => {
    h = await Harness.create();
    // The schema only: each test runs workers of its own against it.
    database = openDatabase(h.databaseUrl, schema, { max: 4 });
    await applyMigrations(database);
    outbox = new RecordingOutbox(database.db);
  });
  afterAll(async () => {
    await database.close();
    await h.stop();
  });
  beforeEach(async () => {
    logged.length = 0;
    outbox.reset();
    await h.pool.query('delete from outbound_messages');
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.onApplicationShutdown()));
  });

  function startWorker(
    ports: { mail?: FakeProvider; sms?: FakeProvider },
    limits: Partial<DeliveryLimits> = {},
    config: Partial<NotificationsConfig> = {},
  ): DeliveryWorker {
    const worker = new DeliveryWorker(
      outbox,
      ports.mail ?? new FakeProvider(),
      ports.sms ?? new FakeProvider(),
      {
        DELIVERY_POLL_MS: 20,
        DELIVERY_RETRY_BASE_MS: 25,
        DELIVERY_MAX_ATTEMPTS: 5,
        ...config,
      } as NotificationsConfig,
      log,
      { ...DEFAULT_DELIVERY_LIMITS, ...limits },
    );
    workers.push(worker);
    worker.onApplicationBootstrap();
    return worker;
  }

  /** A message due `due` from now (a PostgreSQL interval), expiring `expires` from now if given. */
  async function insert(
    recipient: string,
    options: { channel?: string; due?: string; expires?: string; traceParent?: string; text?: string } = {},
  ): Promise<string> {
    const { rows } = await h.pool.query<{ id: string }>(
      `insert into outbound_messages
         (channel, recipient, subject, text, kind, status, next_attempt_at, expires_at, trace_parent)
       values ($1, $2, $3, $4, 'sign_in_code', 'queued', now() + $5::interval, now() + $6::interval, $7)
       returning id`,
      [
        options.channel ?? 'email',
        recipient,
        options.channel === 'sms' ? null : 'Your code',
        options.text ?? 'Your code is 482913',
        options.due ?? '0 seconds',
        options.expires ?? null,
        options.traceParent ?? null,
      ],
    );
    return rows[0]?.id as string;
  }

  const logLine = (msg: string) => logged.find((line) => line.msg === msg);

  it('keeps sending text messages while every email slot waits on a stalled mail server', async () => {
    const mail = new FakeProvider(() => mail.stall());
    const sms = new FakeProvider();
    // An email backlog older than the sign-in code, with more messages than the worker ever holds.
    for (let i = 0; i < 40; i++) await insert(`backlog${i}@example.com`, { due: '-1 minute' });
    const code = await insert('5550100200', { channel: 'sms' });
    startWorker({ mail, sms }, { slotsPerChannel: 4 });

    const row = await h.until(code, 'sent', 5_000);
    expect(row.attempts).toBe(1);
    // Email holds no more than its own slots while its server is stalled.
    expect(mail.calls).toHaveLength(4);
    mail.release();
  });

  it('leaves alone the messages of a channel it only keeps, which replicas with a provider stored', async () => {
    // A replica without SMTP_URL (a rollout, a misconfiguration) beside one that has it.
    const mail = Object.assign(new FakeProvider(), { mode: 'keep' as const });
    const sms = new FakeProvider();
    const email = await insert('waiting@example.com');
    const code = await insert('5550100200', { channel: 'sms' });
    startWorker({ mail, sms });

    // The SMS is sent in the same round in which email would have been claimed.
    await h.until(code, 'sent', 5_000);
    await worker(0).onApplicationShutdown();
    expect(await h.row(email)).toMatchObject({ status: 'queued', attempts: 0, sent_at: null });
    expect(mail.calls).toEqual([]);
  });

  it('sends first the messages that expire soonest, then those that waited longest', async () => {
    const mail = new FakeProvider();
    await insert('oldest@example.com', { due: '-3 minutes' });
    await insert('later@example.com', { due: '-2 minutes' });
    await insert('ten-minutes@example.com', { due: '-1 minute', expires: '10 minutes' });
    await insert('five-minutes@example.com', { expires: '5 minutes' });
    startWorker({ mail }, { slotsPerChannel: 1 });

    await waitFor(async () => mail.calls.length === 4, 5_000, 'four messages to be sent');
    expect(mail.calls.map((c) => c.to)).toEqual([
      'five-minutes@example.com',
      'ten-minutes@example.com',
      'oldest@example.com',
      'later@example.com',
    ]);
  });

  it('counts an attempt that outlasts its limit as failed, aborts it and tries again', async () => {
    // The first answer never comes (the abort is not heeded either); the second is at once.
    const mail = new FakeProvider((_to, call) => (call === 1 ? mail.stall() : Promise.resolve()));
    const id = await insert('slow@example.com');
    startWorker({ mail }, { attemptLimitMs: 300 });

    const row = await h.until(id, 'sent', 5_000);
    expect(row.attempts).toBe(2);
    expect(mail.calls[0]?.signal?.aborted).toBe(true);
    expect(logLine('Message delivery failed; will retry')).toMatchObject({
      message_id: id,
      err: { message: 'The provider did not answer within 0.3 s' },
    });
    mail.release();
  });

  it('stops retrying the write of an outcome before the lease it was claimed under ends, however long the send took', async () => {
    const id = await insert('late-outcome@example.com');
    // The send takes most of the time before the lease's end less its margin (5 s after the claim).
    const mail = new FakeProvider(() => sleep(3_500));
    outbox.failOutcomes = true;
    startWorker({ mail }, { leaseMs: 6_000, outcomeMarginMs: 1_000, attemptLimitMs: 5_000 });
    await waitFor(
      async () => logLine('Could not record a delivery outcome') !== undefined,
      15_000,
      'the outcome to be given up',
    );
    const claimedAt = outbox.claims.find((claim) => claim.ids.includes(id))?.at as number;
    const tries = outbox.outcomeTries.filter((t) => t.id === id).map((t) => t.at - claimedAt);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    // Measured from the claim, not from the end of the send.
    for (const at of tries) expect(at).toBeLessThan(6_000 - 1_000);
  }, 30_000);

  it('logs an outcome it could not record in the trace of the request that asked for the message', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const id = await insert('unrecorded@example.com', {
      traceParent: `00-${traceId}-00f067aa0ba902b7-01`,
      text: 'Your code is 731904',
    });
    outbox.failOutcomes = true;
    // One attempt, and a lease short enough to give the write up at once.
    startWorker({}, { leaseMs: 1_500, outcomeMarginMs: 1_000 }, { DELIVERY_MAX_ATTEMPTS: 1 });
    await waitFor(
      async () => logLine('Could not record a delivery outcome') !== undefined,
      5_000,
      'the outcome to be given up',
    );
    expect(logLine('Could not record a delivery outcome')).toMatchObject({
      message_id: id,
      trace_id: traceId,
    });
    expect(JSON.stringify(logged)).not.toContain('731904');
  });

  it('logs, without the message, an outcome it could not record because another worker claimed the message meanwhile', async () => {
    const id = await insert('reclaimed@example.com', { text: 'Your code is 246810' });
    // While the send is under way the lease runs out and another worker claims the message.
    const mail = new FakeProvider(async () => {
      await h.pool.query('update outbound_messages set attempts = attempts + 1 where id = $1', [id]);
    });
    startWorker({ mail });
    await waitFor(
      async () => logLine('Lost the lease on a message before its outcome was recorded') !== undefined,
      5_000,
      'the lost lease to be logged',
    );
    expect(logLine('Lost the lease on a message before its outcome was recorded')).toMatchObject({
      level: 'error',
      message_id: id,
    });
    expect(logLine('Message delivered')).toBeUndefined();
    // The other worker's claim stands.
    expect(await h.row(id)).toMatchObject({ status: 'sending', attempts: 2 });
    expect(JSON.stringify(logged)).not.toContain('246810');
  });

  it('keeps its later polls out of the trace and the deadline of the request that woke it', async () => {
    const mail = new FakeProvider();
    // Idle between polls, so the nudge below is what starts the next round.
    startWorker({ mail }, {}, { DELIVERY_POLL_MS: 300 });
    await sleep(100);
    const requestTraceId = await withDeadline(Date.now() + 50, () =>
      inSpan(
        'handle notifications.email.send.v1',
        SpanKind.SERVER,
        extractTraceContext(() => undefined),
        async () => {
          mail.calls.length = 0;
          worker(0).nudge();
          return currentTraceId();
        },
      ),
    );
    expect(requestTraceId).toMatch(/^[0-9a-f]{32}$/);
    // Long after that request was answered and its deadline passed, a message without a trace of its own.
    await sleep(400);
    const id = await insert('untraced@example.com');
    await h.until(id, 'sent', 5_000);
    const call = mail.to('untraced@example.com')[0];
    expect(call?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(call?.traceId).not.toBe(requestTraceId);
    expect(call?.remainingMs).toBeUndefined();
  });
});
