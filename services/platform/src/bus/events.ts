import { randomUUID } from 'node:crypto';
import {
  create,
  type DescMessage,
  fromJson,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
  toJson,
} from '@bufbuild/protobuf';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import {
  InvalidArgumentError,
  type NatsConnection,
  headers as natsHeaders,
  RequestError,
} from '@nats-io/transport-node';
import type { EventContract } from '@portico/proto';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Tx } from '../db/database.js';
import { AppError, type ErrorKind } from '../errors/app-error.js';
import { extractTraceContext, injectTraceContext, inSpan, SpanKind } from '../telemetry/propagation.js';
import { WIRE_JSON } from './bus-client.js';
import { outboxEvents, processedEvents } from './outbox.schema.js';

/** The one stream every domain event lands in. */
export const EVENTS_STREAM = 'EVENTS';
export const EVENT_ID_HEADER = 'x-portico-event-id';

/** Creates the EVENTS stream if missing (production declares it in config with 3 replicas). */
export async function ensureEventStream(nc: NatsConnection, replicas = 1): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(EVENTS_STREAM);
  } catch {
    await jsm.streams.add({
      name: EVENTS_STREAM,
      subjects: ['events.>'],
      num_replicas: replicas,
      duplicate_window: 2 * 60 * 1_000_000_000,
      max_age: EVENT_MAX_AGE_MS * 1_000_000,
    });
  }
  return jsm;
}

/**
 * Writes an event into the outbox inside the caller's transaction. It leaves for JetStream only after
 * the transaction commits, so a rolled-back change never announces itself.
 */
export async function recordEvent<M extends DescMessage>(
  tx: Tx,
  contract: EventContract<M>,
  payload: MessageInitShape<M> & { eventId?: string },
): Promise<string> {
  const eventId = payload.eventId || randomUUID();
  const message = create(contract.message, { ...payload, eventId } as MessageInitShape<M>);
  await tx.insert(outboxEvents).values({
    id: eventId,
    subject: contract.subject,
    payload: toJson(contract.message, message, WIRE_JSON),
    headers: injectTraceContext({}),
  });
  return eventId;
}

/** How long JetStream keeps an event in a stream this code creates (tests, the local stack). */
export const EVENT_MAX_AGE_MS = 7 * 24 * 3600_000;
/**
 * How long a handled event is remembered: longer than any EVENTS stream keeps an event (30 days as
 * production declares it, k8s/base/nats/streams/EVENTS.json), so no redelivery finds it forgotten.
 */
export const HANDLED_EVENT_KEPT_MS = 31 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Deletes the outbox rows published more than EVENT_MAX_AGE_MS ago (JetStream deduplicates within
 * minutes; nothing reads them after) and the records of events handled more than HANDLED_EVENT_KEPT_MS
 * ago: the tables would otherwise grow with every change for ever. Answers how many of each.
 */
export async function pruneEventRecords(
  db: Database,
  now = new Date(),
): Promise<{ published: number; processed: number }> {
  const publishedBefore = new Date(now.getTime() - EVENT_MAX_AGE_MS).toISOString();
  const processedBefore = new Date(now.getTime() - HANDLED_EVENT_KEPT_MS).toISOString();
  const published = await db.execute(
    sql`delete from outbox_events where published_at < ${publishedBefore}::timestamptz`,
  );
  const processed = await db.execute(
    sql`delete from processed_events where processed_at < ${processedBefore}::timestamptz`,
  );
  return { published: published.rowCount ?? 0, processed: processed.rowCount ?? 0 };
}

/**
 * Relays committed outbox rows to JetStream with the event id as Nats-Msg-Id (server-side de-duplication).
 * Several replicas can run it: rows are claimed with SKIP LOCKED, so events leave in the order they were
 * recorded only within one replica's batch, and consumers must not rely on order. If NATS or JetStream is
 * away the rows wait. An event refused for itself (no stream takes its subject, too large) waits 5 s,
 * doubling up to 10 minutes, logged each time, and the events behind it go on: one bad row held back
 * every later event of the service.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly js: JetStreamClient;
  private manager?: Promise<JetStreamManager>;

  constructor(
    private readonly db: Database,
    private readonly nc: NatsConnection,
    private readonly log: Logger,
    private readonly intervalMs = 100,
  ) {
    this.js = jetstream(nc);
  }

  start(): void {
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.flushAndPrune().then(
        () => undefined,
        (err) => this.log.warn({ err }, 'Outbox relay could not publish; will retry'),
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  private prunedAt = 0;

  /** A flush, and once an hour a prune. */
  private async flushAndPrune(): Promise<void> {
    await this.flush();
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    const pruned = await pruneEventRecords(this.db);
    if (pruned.published || pruned.processed) this.log.info(pruned, 'Old event records pruned');
  }

  /**
   * Publishes every pending row that is due; returns how many went. Rejects, with what went kept as
   * published, when JetStream cannot be reached.
   */
  async flush(batch = 100): Promise<number> {
    let total = 0;
    for (;;) {
      const pass = await this.db.transaction(async (tx) => {
        // The relay works across firms by design: the outbox is infrastructure, not tenant data.
        const rows = await tx
          .select()
          .from(outboxEvents)
          .where(
            and(
              isNull(outboxEvents.publishedAt),
              or(isNull(outboxEvents.retryAt), lte(outboxEvents.retryAt, sql`now()`)),
            ),
          )
          .orderBy(asc(outboxEvents.createdAt))
          .limit(batch)
          .for('update', { skipLocked: true });
        const published: string[] = [];
        let failure: { row: (typeof rows)[number]; err: unknown } | undefined;
        for (const row of rows) {
          try {
            await this.publish(row);
            published.push(row.id);
          } catch (err) {
            failure = { row, err };
            break;
          }
        }
        if (published.length) {
          await tx
            .update(outboxEvents)
            .set({ publishedAt: sql`now()` })
            .where(inArray(outboxEvents.id, published));
        }
        if (failure && !(await this.refusedForItself(failure.row.subject, failure.err)))
          return { sent: published.length, outage: failure.err };
        if (failure) await this.holdBack(tx, failure.row, failure.err);
        return { sent: published.length, more: rows.length === batch || failure !== undefined };
      });
      total += pass.sent;
      if (pass.outage) throw pass.outage;
      if (!pass.more) return total;
    }
  }

  private publish(row: typeof outboxEvents.$inferSelect) {
    const h = natsHeaders();
    for (const [key, value] of Object.entries(row.headers ?? {})) h.set(key, value);
    h.set(EVENT_ID_HEADER, row.id);
    return this.js.publish(row.subject, JSON.stringify(row.payload), {
      msgID: row.id,
      headers: h,
      timeout: 5_000,
    });
  }

  /**
   * Whether a refused publish is the event's own fault rather than JetStream being away. Its own: the
   * stream refused this message as a bad request (over its size limit, say), the server's max_payload
   * refused it, or no stream takes its subject. Away: a timeout, a lost connection, a 5xx (a full store),
   * or no answer while a stream does take the subject (in a cluster, a stream between leaders during a
   * restart answers nothing either).
   */
  private async refusedForItself(subject: string, err: unknown): Promise<boolean> {
    if (err instanceof InvalidArgumentError) return true;
    if (err instanceof JetStreamApiError) return err.status >= 400 && err.status < 500;
    const noResponders =
      err instanceof Error && err.cause instanceof RequestError && err.cause.isNoResponders();
    if (!noResponders) return false;
    try {
      this.manager ??= jetstreamManager(this.nc, { timeout: 2_000, checkAPI: false });
      await (await this.manager).streams.find(subject);
      return false;
    } catch (findErr) {
      const noStream =
        findErr instanceof JetStreamApiError && findErr.code === JetStreamApiCodes.StreamNotFound;
      if (!noStream) this.manager = undefined;
      return noStream;
    }
  }

  private async holdBack(tx: Tx, row: typeof outboxEvents.$inferSelect, err: unknown) {
    const attempts = row.attempts + 1;
    const waitMs = redeliveryDelayMs(attempts);
    await tx
      .update(outboxEvents)
      .set({
        attempts,
        // The clock's time, not the transaction's start (now()): the publishes before may have taken seconds.
        retryAt: sql`clock_timestamp() + ${`${waitMs} milliseconds`}::interval`,
        lastError: String((err as Error)?.message ?? err).slice(0, 1000),
      })
      .where(eq(outboxEvents.id, row.id));
    this.log.error(
      { err, eventId: row.id, subject: row.subject, attempts, retryInMs: waitMs },
      'JetStream refused an outbox event; it is tried again later and the events behind it go on',
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    // One last pass so a clean shutdown leaves nothing behind.
    await this.flush().catch(() => undefined);
  }
}

export interface DurableConsumerOptions<M extends DescMessage> {
  nc: NatsConnection;
  db: Database;
  /** Durable name, unique per service and purpose: replicas of a service share it. */
  durable: string;
  contract: EventContract<M>;
  log: Logger;
  maxInFlight?: number;
  /** How long JetStream waits for an event's ack before delivering it again (set when first created). */
  ackWaitMs?: number;
  /** The waits before a failed event is delivered again: the first, doubling up to the longest. */
  redelivery?: RedeliveryDelays;
  /**
   * When the consumer is first created, start with the events published from then on rather than every
   * event the stream holds: for a consumer that takes over work the events before it were handled by
   * some other way (a deploy would otherwise redo seven days of it). Ignored once it exists.
   */
  fromNow?: boolean;
  /**
   * Runs inside the transaction that records the event as processed: exactly-once effects in Postgres.
   * Effects elsewhere (a request to another service) may run again after a failure, so they carry the
   * event's id as their idempotency key.
   */
  handle: (event: MessageShape<M>, tx: Tx, meta: { eventId: string }) => Promise<void>;
}

export interface RedeliveryDelays {
  firstMs: number;
  maxMs: number;
}

/** How long JetStream waits for an event's ack before delivering it again, by default. */
const ACK_WAIT_MS = 30_000;

/** 5 s after a first failure, doubling, then every 10 minutes. */
export const REDELIVERY_DELAYS: RedeliveryDelays = { firstMs: 5_000, maxMs: 10 * 60_000 };

/**
 * How long to wait before delivering again an event whose handler failed on its `deliveryCount`-th
 * delivery: `firstMs`, doubling, at most `maxMs`. An event stays until it is handled: its
 * outbox row is already gone, so JetStream holds the only copy (a limit on deliveries dropped an event
 * after about 100 s of a database outage).
 */
export function redeliveryDelayMs(deliveryCount: number, delays = REDELIVERY_DELAYS): number {
  return Math.min(delays.maxMs, delays.firstMs * 2 ** Math.max(0, Math.min(deliveryCount, 30) - 1));
}

/**
 * A durable pull consumer with explicit ack. An event already in processed_events is acked and skipped;
 * a failing handler naks with a growing delay (`redeliveryDelayMs`) so JetStream delivers it again, unless
 * it was refused for good (`refusedForGood`: logged and terminated); an
 * event that cannot be read as its contract's message is logged and terminated, not delivered for ever.
 */
export async function startDurableConsumer<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
): Promise<{ stop: () => Promise<void> }> {
  const jsm = await ensureEventStream(options.nc);
  await jsm.consumers
    .add(EVENTS_STREAM, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: options.fromNow ? DeliverPolicy.New : DeliverPolicy.All,
      filter_subject: options.contract.subject,
      max_deliver: -1,
      ack_wait: (options.ackWaitMs ?? ACK_WAIT_MS) * 1_000_000,
    })
    .catch(async () => {
      await jsm.consumers.update(EVENTS_STREAM, options.durable, {
        filter_subject: options.contract.subject,
        max_deliver: -1,
      });
    });
  const consumer = await jetstream(options.nc).consumers.get(EVENTS_STREAM, options.durable);
  // Handled one at a time: a few fetched ahead, not so many that those waiting pass their ack deadline.
  const messages = await consumer.consume({ max_messages: options.maxInFlight ?? 4 });
  let stopping = false;
  const loop = (async () => {
    for await (const msg of messages) {
      // Stopping: the current event is finished, those fetched ahead are handed back at once for another
      // replica (or the next start), instead of being handled while the pod's grace period runs out.
      if (stopping) msg.nak();
      else await handleOne(options, msg, options.ackWaitMs ?? ACK_WAIT_MS);
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await messages.close();
      await loop;
    },
  };
}

async function handleOne<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
  msg: JsMsg,
  ackWaitMs: number,
) {
  const eventId = msg.headers?.get(EVENT_ID_HEADER) || `${msg.info.stream}:${msg.seq}`;
  const parent = extractTraceContext((key) => msg.headers?.get(key) || undefined);
  let event: MessageShape<M>;
  try {
    event = fromJson(options.contract.message, msg.json<JsonValue>(), { ignoreUnknownFields: true });
  } catch (err) {
    options.log.error(
      { err, event_id: eventId, subject: msg.subject },
      'Event does not match its contract; dropped',
    );
    msg.term();
    return;
  }
  // A slow handler (requests to other services) tells JetStream it is still at work, or the event would
  // be delivered again to another replica after the ack deadline while this one still handles it.
  const heartbeat = setInterval(() => msg.working(), ackWaitMs / 3);
  try {
    await inSpan(`consume ${options.contract.subject}`, SpanKind.CONSUMER, parent, async () => {
      await options.db.transaction(async (tx) => {
        const claimed = await tx
          .insert(processedEvents)
          .values({ consumer: options.durable, eventId })
          .onConflictDoNothing()
          .returning();
        if (claimed.length === 0) return;
        await options.handle(event, tx, { eventId });
      });
    });
    msg.ack();
  } catch (err) {
    if (refusedForGood(err)) {
      // The handler was told no for a reason that does not pass (the request was refused as it is):
      // delivering it again would repeat the refusal, and everything the handler did before it, every
      // ten minutes for the life of the stream. Logged in full, for someone to act on, and dropped.
      options.log.error(
        { err, event_id: eventId, subject: msg.subject, delivery: msg.info.deliveryCount },
        'Event handler refused for good; dropped',
      );
      msg.term();
      return;
    }
    const retryInMs = redeliveryDelayMs(msg.info.deliveryCount, options.redelivery);
    options.log.error(
      {
        err,
        event_id: eventId,
        subject: msg.subject,
        delivery: msg.info.deliveryCount,
        retry_in_ms: retryInMs,
      },
      'Event handler failed; will be redelivered',
    );
    msg.nak(retryInMs);
  } finally {
    clearInterval(heartbeat);
  }
}

/** Refusals that do not pass with time: the same request would be refused the same way again. */
const REFUSED_FOR_GOOD: ReadonlySet<ErrorKind> = new Set([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'gone',
]);

export const refusedForGood = (err: unknown): boolean =>
  err instanceof AppError && REFUSED_FOR_GOOD.has(err.kind);

/** How long a fan-out subscription with `replayFrom` waits for its replay before it answers anyway. */
const REPLAY_WAIT_MS = 10_000;

/** The stream sequence of the last event of `subject`, if it came at `since` or later. */
async function lastSequenceSince(jsm: JetStreamManager, subject: string, since: Date) {
  const last = await jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: subject }).catch(() => null);
  return last && last.time >= since ? last.seq : undefined;
}

/**
 * A fan-out subscription for one process (the gateway's sockets): every replica sees every event,
 * starting from now, with no durable state. `replayLast` starts from the last event already in the
 * stream, for state such as a maintenance banner; `replayFrom` from every event since that time, for
 * state a replica that starts later must know (the revocations of tokens still in use), and answers
 * once those are handled.
 */
export async function subscribeFanOut<M extends DescMessage>(
  nc: NatsConnection,
  contract: EventContract<M>,
  handle: (event: MessageShape<M>) => void,
  log: Logger,
  options: { replayLast?: boolean; replayFrom?: Date } = {},
): Promise<{ stop: () => Promise<void> }> {
  const jsm = await ensureEventStream(nc);
  // With `replayFrom`, the subscription answers once it has handled the last event already there.
  const replayUpTo = options.replayFrom
    ? await lastSequenceSince(jsm, contract.subject, options.replayFrom)
    : undefined;
  let caughtUp: () => void = () => undefined;
  const replayed = new Promise<void>((resolve) => {
    caughtUp = resolve;
    if (replayUpTo === undefined) resolve();
  });
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, {
    // A single subject as a string: `filter_subject`, which servers before 2.10 understand too.
    filter_subjects: contract.subject,
    ...(options.replayFrom
      ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: options.replayFrom.toISOString() }
      : { deliver_policy: options.replayLast ? DeliverPolicy.LastPerSubject : DeliverPolicy.New }),
  });
  const messages = await consumer.consume();
  const loop = (async () => {
    for await (const msg of messages) {
      try {
        handle(fromJson(contract.message, msg.json<JsonValue>(), { ignoreUnknownFields: true }));
      } catch (err) {
        log.error({ err, subject: msg.subject }, 'Fan-out handler failed');
      }
      if (replayUpTo !== undefined && msg.seq >= replayUpTo) caughtUp();
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), REPLAY_WAIT_MS);
  });
  if ((await Promise.race([replayed, late])) === 'late')
    log.warn({ subject: contract.subject }, 'Replaying earlier events is slow; going on while it continues');
  clearTimeout(timer);
  return {
    stop: async () => {
      await messages.close();
      await loop;
    },
  };
}
