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
  type ConsumerInfo,
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
import { deleteDueRows } from '../db/batched-delete.js';
import { type Database, type FirmScope, inFirm, type Tx } from '../db/database.js';
import { AppError, type ErrorKind } from '../errors/app-error.js';
import { extractTraceContext, injectTraceContext, inSpan, SpanKind } from '../telemetry/propagation.js';
import { isUuid } from '../text/text.rules.js';
import { WIRE_JSON } from './bus-client.js';
import { outboxEvents, processedEvents } from './outbox.schema.js';
import { consumeRecovering } from './recovering-consumption.js';

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
 * ago: the tables would otherwise grow with every change for ever. `batch` rows per statement, each
 * short however many are due (a first prune after a long time, a month of records at once), found
 * through outbox_events_published_idx and processed_events_processed_idx; rows another replica's prune
 * holds are skipped, not waited for. Answers how many of each.
 */
export async function pruneEventRecords(
  db: Database,
  now = new Date(),
  batch = 5_000,
): Promise<{ published: number; processed: number }> {
  const publishedBefore = new Date(now.getTime() - EVENT_MAX_AGE_MS).toISOString();
  const processedBefore = new Date(now.getTime() - HANDLED_EVENT_KEPT_MS).toISOString();
  const published = await deleteDueRows(
    db,
    'outbox_events',
    sql`published_at < ${publishedBefore}::timestamptz`,
    batch,
  );
  const processed = await deleteDueRows(
    db,
    'processed_events',
    sql`processed_at < ${processedBefore}::timestamptz`,
    batch,
  );
  return { published, processed };
}

/**
 * Marks the outbox rows recorded at `since` or later as not yet published, so the relay sends them again:
 * for an EVENTS stream lost, or restored from a backup older than them (the relay never sends a published
 * row twice on its own). Safe to repeat and to overlap what the stream still holds: every durable consumer
 * skips the events it has in processed_events (the event id is the row's). Fan-out subscribers (the
 * gateway's sockets) see the events again. Only the rows not yet pruned (7 days after publication) are
 * there to send. Answers how many rows will go again.
 */
export async function republishOutboxSince(db: Database, since: Date): Promise<number> {
  // Across firms by design, as the relay: the outbox is infrastructure, not tenant data.
  const marked = await db.execute(
    // Rows held back meanwhile too: while the stream was missing, every event was refused 'for itself'
    // and waits up to 10 minutes; once it is back they go at once with the rest.
    sql`update outbox_events set published_at = null, attempts = 0, retry_at = null, last_error = null
        where created_at >= ${since.toISOString()}::timestamptz
          and (published_at is not null or retry_at is not null)`,
  );
  return marked.rowCount ?? 0;
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
  /** The waits between tries to make a lost consumer again: the first, doubling up to the longest. */
  recovery?: RedeliveryDelays;
  /**
   * When the consumer is first created, start with the events published from then on rather than every
   * event the stream holds: for a consumer that takes over work the events before it were handled by
   * some other way (a deploy would otherwise redo seven days of it). Ignored once it exists.
   */
  fromNow?: boolean;
  /**
   * As `fromNow`, from a time given: the events recorded since then, when the consumer is first created.
   * The process's start (`performance.timeOrigin`) takes the events its own outbox relay sent before
   * the consumer was made, which `fromNow` skips (the relay starts first). Ignored once it exists.
   */
  startsAt?: Date;
  /**
   * The firm an event belongs to. Given, the handler's transaction runs in that firm's row-level-security
   * scope (`inFirm`), as a request's does; without it, in a transaction with no firm set, which sees no row
   * of a table under FORCE ROW LEVEL SECURITY. An event whose firm cannot be read (none, or not a UUID)
   * is logged and dropped: delivering it again would not give it one.
   */
  scopeOf?: (event: MessageShape<M>) => FirmScope;
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

/** A lost consumer is made again after half a second, then doubling up to 30 s between tries. */
export const CONSUMER_RECOVERY_DELAYS: RedeliveryDelays = { firstMs: 500, maxMs: 30_000 };

/** How long a durable consumer may stay lost (and not made again) before readiness says so. */
export const CONSUMER_LOST_UNREADY_AFTER_MS = 60_000;

/**
 * How long to wait before delivering again an event whose handler failed on its `deliveryCount`-th
 * delivery: `firstMs`, doubling, at most `maxMs`. No limit on deliveries (one dropped an event after
 * about 100 s of a database outage): an event comes again for as long as the stream keeps it, its max
 * age (30 days in production), each failure logged at error; one its handler never takes is then gone,
 * as its outbox row is after 7 days (`republishOutboxSince` can send it again within them).
 */
export function redeliveryDelayMs(deliveryCount: number, delays = REDELIVERY_DELAYS): number {
  return Math.min(delays.maxMs, delays.firstMs * 2 ** Math.max(0, Math.min(deliveryCount, 30) - 1));
}

/** What readiness knows of one durable consumer: since when it has been lost, while it is. */
interface ConsumerHealth {
  readonly durable: string;
  lostSince?: number;
}

/** The durable consumers running on each NATS connection (a service's), for its readiness. */
const consumersOn = new WeakMap<NatsConnection, Set<ConsumerHealth>>();

/**
 * Throws, naming them, when durable consumers on `nc` have been lost for CONSUMER_LOST_UNREADY_AFTER_MS
 * or longer and could not be made again (their stream gone, JetStream refusing): their events are not
 * handled, so the service is not ready. A consumer lost for less is being made again.
 */
export function assertDurableConsumersRunning(nc: NatsConnection, now = Date.now()): void {
  const lost = [...(consumersOn.get(nc) ?? [])].filter(
    (c) => c.lostSince !== undefined && now - c.lostSince >= CONSUMER_LOST_UNREADY_AFTER_MS,
  );
  if (lost.length) throw new Error(`Durable consumers lost: ${lost.map((c) => c.durable).join(', ')}`);
}

/**
 * Creates the durable consumer, or brings the one there to this code's subject and delivery limit;
 * answers its info. `from` is where a new one starts (ignored for one that exists).
 */
async function addOrUpdateConsumer<M extends DescMessage>(
  jsm: JetStreamManager,
  options: DurableConsumerOptions<M>,
  from: { deliver_policy: DeliverPolicy; opt_start_time?: string },
): Promise<ConsumerInfo> {
  return jsm.consumers
    .add(EVENTS_STREAM, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      ...from,
      filter_subject: options.contract.subject,
      max_deliver: -1,
      ack_wait: (options.ackWaitMs ?? ACK_WAIT_MS) * 1_000_000,
    })
    .catch(() =>
      jsm.consumers.update(EVENTS_STREAM, options.durable, {
        filter_subject: options.contract.subject,
        max_deliver: -1,
      }),
    );
}

/**
 * Where a consumer made again after it was lost starts: every event for one that takes every event;
 * for one started `fromNow`, every event since it was first made (or since the time it was made again
 * with), so the events of the time it was missing are not skipped, and those it handled already are
 * found in processed_events.
 */
function startOfLostConsumer(
  info: ConsumerInfo,
  fromNow: boolean | undefined,
): { deliver_policy: DeliverPolicy; opt_start_time?: string } {
  if (!fromNow) return { deliver_policy: DeliverPolicy.All };
  const since =
    info.config.deliver_policy === DeliverPolicy.StartTime && info.config.opt_start_time
      ? info.config.opt_start_time
      : info.created;
  return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: since };
}

/**
 * A durable pull consumer with explicit ack. An event already in processed_events is acked and skipped;
 * a failing handler naks with a growing delay (`redeliveryDelayMs`) so JetStream delivers it again, unless
 * it was refused for good (`refusedForGood`: logged and terminated); an
 * event that cannot be read as its contract's message is logged and terminated, not delivered for ever.
 * A consumer deleted on the server, or lost with its stream, is made again (`CONSUMER_RECOVERY_DELAYS`)
 * and the events go on; one lost for a minute makes readiness fail (`assertDurableConsumersRunning`).
 * The stream is made at start when absent (`ensureEventStream`), never again while running: an operator
 * restoring it needs it absent (k8s/README.md scales the services to zero first).
 */
export async function startDurableConsumer<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
): Promise<{ stop: () => Promise<void> }> {
  const { nc, durable, log } = options;
  const jsm = await ensureEventStream(nc);
  const created = await addOrUpdateConsumer(
    jsm,
    options,
    options.startsAt
      ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: options.startsAt.toISOString() }
      : { deliver_policy: options.fromNow ? DeliverPolicy.New : DeliverPolicy.All },
  );
  const recreateFrom = startOfLostConsumer(created, options.fromNow || options.startsAt !== undefined);
  const js = jetstream(nc);
  const open = async () =>
    (await js.consumers.get(EVENTS_STREAM, durable)).consume({
      // Handled one at a time: a few fetched ahead, not so many that those waiting pass their ack deadline.
      max_messages: options.maxInFlight ?? 4,
      // The iterator ends with an error when the consumer or its stream is gone (it would otherwise wait
      // for them to come back, for ever), and heartbeats every 5 s find a stream deleted within ~10 s.
      abort_on_missing_resource: true,
      idle_heartbeat: 5_000,
    });
  const health: ConsumerHealth = { durable };
  const consumers = consumersOn.get(nc) ?? new Set<ConsumerHealth>();
  consumersOn.set(nc, consumers.add(health));
  const consumption = consumeRecovering({
    nc,
    first: await open(),
    consume: async (messages, stopping) => {
      for await (const msg of messages) {
        // Stopping: the current event is finished, those fetched ahead are handed back at once for
        // another replica (or the next start), instead of being handled while the grace period runs out.
        if (stopping()) msg.nak();
        else await handleOne(options, msg, options.ackWaitMs ?? ACK_WAIT_MS);
      }
    },
    reopen: async () => {
      await addOrUpdateConsumer(jsm, options, recreateFrom);
      return open();
    },
    delayMs: (attempt) => redeliveryDelayMs(attempt, options.recovery ?? CONSUMER_RECOVERY_DELAYS),
    lost: (err) => {
      health.lostSince ??= Date.now();
      log.error({ err, durable }, 'Durable consumer lost; making it again');
    },
    retryFailed: (err, attempt) =>
      log.warn({ err, durable, attempt }, 'Durable consumer could not be made again; will retry'),
    back: () => {
      log.info(
        { durable, lost_ms: Date.now() - (health.lostSince ?? Date.now()) },
        'Durable consumer made again',
      );
      health.lostSince = undefined;
    },
  });
  return {
    stop: async () => {
      await consumption.stop();
      consumers.delete(health);
    },
  };
}

/** The firm scope of an event, or undefined when the consumer takes events of every firm as they are. */
function eventScope<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
  event: MessageShape<M>,
): FirmScope | undefined {
  if (!options.scopeOf) return undefined;
  const scope = options.scopeOf(event);
  if (!isUuid(scope.firmId)) throw new Error('The event names no firm');
  return scope;
}

/**
 * Decodes, handles and settles one event in a span continuing the trace of the change that recorded it,
 * so every line logged about it carries its trace id.
 */
async function handleOne<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
  msg: JsMsg,
  ackWaitMs: number,
) {
  const eventId = msg.headers?.get(EVENT_ID_HEADER) || `${msg.info.stream}:${msg.seq}`;
  const parent = extractTraceContext((key) => msg.headers?.get(key) || undefined);
  await inSpan(`consume ${options.contract.subject}`, SpanKind.CONSUMER, parent, async () => {
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
    let scope: FirmScope | undefined;
    try {
      scope = eventScope(options, event);
    } catch (err) {
      options.log.error(
        { err, event_id: eventId, subject: msg.subject },
        'Event names no firm to handle it in; dropped',
      );
      msg.term();
      return;
    }
    // A slow handler (requests to other services) tells JetStream it is still at work, or the event would
    // be delivered again to another replica after the ack deadline while this one still handles it.
    const heartbeat = setInterval(() => msg.working(), ackWaitMs / 3);
    try {
      const work = async (tx: Tx) => {
        const claimed = await tx
          .insert(processedEvents)
          .values({ consumer: options.durable, eventId })
          .onConflictDoNothing()
          .returning();
        if (claimed.length === 0) return;
        await options.handle(event, tx, { eventId });
      };
      await (scope ? inFirm(options.db, scope, work) : options.db.transaction(work));
      msg.ack();
    } catch (err) {
      settleFailure(options, msg, eventId, err);
      // Marks the span as failed; the event is already settled.
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }).catch(() => undefined);
}

/** Drops an event refused for good, or hands it back to come again later; logged either way. */
function settleFailure<M extends DescMessage>(
  options: DurableConsumerOptions<M>,
  msg: JsMsg,
  eventId: string,
  err: unknown,
) {
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
 * once those are handled. A subscription lost (its stream gone, JetStream refusing) is made again
 * (`CONSUMER_RECOVERY_DELAYS`, or `recovery`) from the time of the last event it handled.
 */
export async function subscribeFanOut<M extends DescMessage>(
  nc: NatsConnection,
  contract: EventContract<M>,
  handle: (event: MessageShape<M>) => void,
  log: Logger,
  options: { replayLast?: boolean; replayFrom?: Date; recovery?: RedeliveryDelays } = {},
): Promise<{ stop: () => Promise<void> }> {
  const jsm = await ensureEventStream(nc);
  const subscribedAt = new Date();
  // With `replayFrom`, the subscription answers once it has handled the last event already there.
  const replayUpTo = options.replayFrom
    ? await lastSequenceSince(jsm, contract.subject, options.replayFrom)
    : undefined;
  let caughtUp: () => void = () => undefined;
  const replayed = new Promise<void>((resolve) => {
    caughtUp = resolve;
    if (replayUpTo === undefined) resolve();
  });
  /** When the last event handled was stored: a subscription made again goes on from there. */
  let lastHandledAt: Date | undefined;
  const open = async (again: boolean) => {
    const resumeAt = lastHandledAt ?? options.replayFrom;
    const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, {
      // A single subject as a string: `filter_subject`, which servers before 2.10 understand too.
      filter_subjects: contract.subject,
      ...(resumeAt
        ? // Made again after an event: that event may come once more, which state such as a banner or
          // a revocation takes as it is.
          { deliver_policy: DeliverPolicy.StartTime, opt_start_time: resumeAt.toISOString() }
        : options.replayLast
          ? { deliver_policy: DeliverPolicy.LastPerSubject }
          : // Made again before any event: those since the first subscription, not only later ones.
            !again
            ? { deliver_policy: DeliverPolicy.New }
            : { deliver_policy: DeliverPolicy.StartTime, opt_start_time: subscribedAt.toISOString() }),
    });
    // As a durable consumer's: the iterator ends with an error when its stream is gone (instead of
    // waiting for it, or giving up after some tries with an error nothing would catch), and the
    // subscription is made again below.
    return consumer.consume({ abort_on_missing_resource: true, idle_heartbeat: 5_000 });
  };
  const consumption = consumeRecovering({
    nc,
    first: await open(false),
    consume: async (messages) => {
      for await (const msg of messages) {
        try {
          handle(fromJson(contract.message, msg.json<JsonValue>(), { ignoreUnknownFields: true }));
        } catch (err) {
          log.error({ err, subject: msg.subject }, 'Fan-out handler failed');
        }
        lastHandledAt = msg.time;
        if (replayUpTo !== undefined && msg.seq >= replayUpTo) caughtUp();
      }
    },
    reopen: () => open(true),
    delayMs: (attempt) => redeliveryDelayMs(attempt, options.recovery ?? CONSUMER_RECOVERY_DELAYS),
    lost: (err) =>
      log.error({ err, subject: contract.subject }, 'Fan-out subscription lost; making it again'),
    retryFailed: (err, attempt) =>
      log.warn(
        { err, subject: contract.subject, attempt },
        'Fan-out subscription not made again; will retry',
      ),
    back: () => log.info({ subject: contract.subject }, 'Fan-out subscription made again'),
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), REPLAY_WAIT_MS);
  });
  if ((await Promise.race([replayed, late])) === 'late')
    log.warn({ subject: contract.subject }, 'Replaying earlier events is slow; going on while it continues');
  clearTimeout(timer);
  return consumption;
}
