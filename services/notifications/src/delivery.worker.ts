import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { detached, extractTraceContext, inSpan, type Logger, SpanKind } from '@portico/platform';
import { CONFIG, type NotificationsConfig } from './config.js';
import { DeliveryError } from './delivery/delivery.error.js';
import { MAIL_PORT, type MailPort } from './delivery/mail.port.js';
import { SMS_PORT, type SmsPort } from './delivery/sms.port.js';
import { DEFAULT_DELIVERY_LIMITS, DELIVERY_LIMITS, type DeliveryLimits } from './delivery.limits.js';
import { afterFailure } from './outbound.rules.js';
import { CHANNELS, type Channel, type OutboundMessage } from './outbound.schema.js';
import { OutboxRepository } from './outbox.repository.js';

export const LOGGER = Symbol('Logger');

/** The last_error of a message whose time ran out before an attempt could send it. */
export const EXPIRED = 'Expired before it could be delivered';

/** Waits between tries of writing a message's outcome, the last one repeated. */
const OUTCOME_RETRY_MS = [200, 1_000, 3_000, 10_000];

/**
 * Writes an attempt's outcome, trying again on failure until `giveUpAt` (epoch ms, before the lease
 * ends): a message sent whose outcome is not written is claimed again when its lease ends and sent again
 * (an email twice, a code five minutes late). A database failover takes tens of seconds; four tries over
 * four seconds did not outlast one. Answers whether the write changed the row.
 */
async function outcomeWritten(write: () => Promise<boolean>, giveUpAt: number): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const wait = OUTCOME_RETRY_MS[Math.min(attempt, OUTCOME_RETRY_MS.length - 1)] as number;
      if (Date.now() + wait > giveUpAt) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
      // A timer may fire late (a busy event loop, a paused process): no try once giveUpAt has passed.
      if (Date.now() >= giveUpAt) throw err;
    }
  }
}

/** One channel's sends in flight and its claim under way, if any. */
interface Lane {
  sending: number;
  claiming?: Promise<void>;
  /** A slot freed or a message arrived during the claim: look again once it is done. */
  again: boolean;
}

/**
 * Sends due messages through the configured ports. Every replica runs one; claims use SKIP LOCKED so
 * two workers never send the same message. Each channel keeps up to `slotsPerChannel` sends in flight
 * and claims more as they finish; it looks every DELIVERY_POLL_MS, and at once when nudged after a new
 * message is stored. A channel whose port only keeps messages is never claimed: its own messages are
 * stored `kept`, and the queued ones are another replica's, which has a provider (a rollout, or a
 * replica missing SMTP_URL) and told its caller they would be sent.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly limits: DeliveryLimits;
  private readonly lanes = new Map<Channel, Lane>(
    CHANNELS.map((channel) => [channel, { sending: 0, again: false }]),
  );
  private readonly inFlight = new Set<Promise<void>>();
  private pollTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopped = true;
  /**
   * Runs a function in the context the worker was made in, at start, outside every request. A timer or
   * promise started inside a request carries its trace and deadline (AsyncLocalStorage) into whatever it
   * starts in turn: every later poll would run in the finished request's trace.
   */
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(MAIL_PORT) private readonly mail: MailPort,
    @Inject(SMS_PORT) private readonly sms: SmsPort,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
    @Inject(LOGGER) private readonly log: Logger,
    @Optional() @Inject(DELIVERY_LIMITS) limits?: DeliveryLimits,
  ) {
    this.limits = limits ?? DEFAULT_DELIVERY_LIMITS;
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.outsideRequests(() => detached(() => this.poll()));
  }

  /**
   * Claims nothing more, from now: called as the stop begins (start.ts), since Nest runs this class's
   * hooks only once NATS has drained, for up to a minute in which claimed messages could outlast the
   * pod. Those already claimed are finished (onApplicationShutdown waits for them); a message stored
   * meanwhile waits for another replica's poll.
   */
  stopClaiming(): void {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
  }

  /** Finishes the sends in flight (each within its attempt limit), then closes the providers. */
  async onApplicationShutdown(): Promise<void> {
    this.stopClaiming();
    await Promise.all([...[...this.lanes.values()].map((lane) => lane.claiming), this.sweeping]);
    await Promise.all(this.inFlight);
    await Promise.all([this.mail.close(), this.sms.close()]);
  }

  /** Looks for due messages now rather than at the next poll. Called inside the request that stored one. */
  nudge(): void {
    this.outsideRequests(() => detached(() => this.fillAll()));
  }

  private poll(): void {
    if (this.stopped) return;
    this.sweeping ??= this.outbox
      .giveUpSpent(this.config.DELIVERY_MAX_ATTEMPTS)
      .then(
        (count) => {
          if (count) this.log.warn({ count }, 'Gave up messages with no attempt left');
        },
        (err) => this.log.warn({ err }, 'Giving up spent messages failed; will try again'),
      )
      .finally(() => {
        this.sweeping = undefined;
      });
    this.fillAll();
    this.pollTimer = setTimeout(() => this.poll(), this.config.DELIVERY_POLL_MS);
  }

  private fillAll(): void {
    for (const channel of CHANNELS) this.fill(channel);
  }

  private port(channel: Channel): MailPort | SmsPort {
    return channel === 'email' ? this.mail : this.sms;
  }

  /** Claims as many due messages of `channel` as it has free slots, and starts sending them. */
  private fill(channel: Channel): void {
    const lane = this.lanes.get(channel) as Lane;
    if (this.stopped || this.port(channel).mode === 'keep') return;
    if (lane.claiming) {
      lane.again = true;
      return;
    }
    const free = this.limits.slotsPerChannel - lane.sending;
    if (free <= 0) return;
    lane.again = false;
    lane.claiming = this.claim(channel, lane, free).finally(() => {
      lane.claiming = undefined;
      if (lane.again) this.fill(channel);
    });
  }

  private async claim(channel: Channel, lane: Lane, free: number): Promise<void> {
    // Measured from before the claim, so never later than the lease the database wrote.
    const leaseEndsAt = Date.now() + this.limits.leaseMs;
    let claimed: OutboundMessage[];
    try {
      claimed = await this.outbox.claimDue(
        channel,
        free,
        this.limits.leaseMs,
        this.config.DELIVERY_MAX_ATTEMPTS,
      );
    } catch (err) {
      this.log.warn({ err, channel }, 'Claiming due messages failed; will poll again');
      lane.again = false;
      return;
    }
    for (const message of claimed) {
      lane.sending++;
      const sending = this.deliver(message, leaseEndsAt).finally(() => {
        lane.sending--;
        this.inFlight.delete(sending);
        this.fill(channel);
      });
      this.inFlight.add(sending);
    }
  }

  /** One attempt, in a span continuing the trace of the request that asked for the message. */
  private async deliver(message: OutboundMessage, leaseEndsAt: number): Promise<void> {
    const parent = extractTraceContext((key) =>
      key === 'traceparent' ? (message.traceParent ?? undefined) : undefined,
    );
    const fields = {
      message_id: message.id,
      channel: message.channel,
      kind: message.kind,
      attempt: message.attempts,
    };
    await inSpan(`deliver ${message.channel}`, SpanKind.PRODUCER, parent, async () => {
      try {
        await this.attempt(message, leaseEndsAt, fields);
      } catch (err) {
        // Logged in the span, so the line carries the trace of the request that asked for the message.
        this.log.error({ err, ...fields }, 'Could not record a delivery outcome');
        throw err;
      }
    }).catch(() => undefined);
  }

  private async attempt(message: OutboundMessage, leaseEndsAt: number, fields: Record<string, unknown>) {
    if (message.expiresAt && message.expiresAt.getTime() <= Date.now()) {
      if (await this.record(() => this.outbox.markFailed(message, EXPIRED), leaseEndsAt, fields))
        this.log.warn(fields, 'Message expired before it could be delivered; not sent');
      return;
    }
    try {
      await this.sendWithinLimit(message);
    } catch (err) {
      await this.recordFailure(message, err, leaseEndsAt, fields);
      return;
    }
    if (await this.record(() => this.outbox.markSent(message), leaseEndsAt, fields))
      this.log.info(fields, 'Message delivered');
  }

  /**
   * The provider's attempt, given up after `attemptLimitMs` (its signal aborts it): an SMTP server that
   * answers a little at a time keeps nodemailer's own timeouts from firing, and an attempt outlasting
   * the lease would be claimed by another worker and sent twice.
   */
  private async sendWithinLimit(message: OutboundMessage): Promise<void> {
    const limitMs = this.limits.attemptLimitMs;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overLimit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new DeliveryError(`The provider did not answer within ${limitMs / 1_000} s`, false);
        abort.abort(err);
        reject(err);
      }, limitMs);
    });
    try {
      await Promise.race([this.send(message, abort.signal), overLimit]);
    } finally {
      clearTimeout(timer);
    }
  }

  private send(message: OutboundMessage, signal: AbortSignal): Promise<void> {
    if (message.channel === 'email') {
      return this.mail.send(
        {
          id: message.id,
          to: message.recipient,
          subject: message.subject ?? '',
          ...(message.senderName ? { senderName: message.senderName } : {}),
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        },
        signal,
      );
    }
    return this.sms.send({ id: message.id, to: message.recipient, text: message.text }, signal);
  }

  private async recordFailure(
    message: OutboundMessage,
    err: unknown,
    leaseEndsAt: number,
    fields: Record<string, unknown>,
  ) {
    const failure =
      err instanceof DeliveryError ? err : new DeliveryError(String((err as Error)?.message ?? err), false);
    const next = afterFailure(message.attempts, {
      maxAttempts: this.config.DELIVERY_MAX_ATTEMPTS,
      baseMs: this.config.DELIVERY_RETRY_BASE_MS,
      permanent: failure.permanent,
    });
    if (next.giveUp) {
      if (await this.record(() => this.outbox.markFailed(message, failure.message), leaseEndsAt, fields))
        this.log.error(
          { ...fields, err: failure, permanent: failure.permanent },
          'Message could not be delivered; giving up',
        );
    } else if (
      await this.record(
        () => this.outbox.markRetry(message, next.retryInMs, failure.message),
        leaseEndsAt,
        fields,
      )
    ) {
      this.log.warn(
        { ...fields, err: failure, retry_in_ms: next.retryInMs },
        'Message delivery failed; will retry',
      );
    }
  }

  /**
   * Writes an outcome until the lease's end, less the margin; answers whether it was recorded. Not
   * recorded, the lease was lost: another worker has claimed the message (and may send it again) or it
   * was given up. Worth an operator's look, since it means an attempt outlasted its lease.
   */
  private async record(
    write: () => Promise<boolean>,
    leaseEndsAt: number,
    fields: Record<string, unknown>,
  ): Promise<boolean> {
    const recorded = await outcomeWritten(write, leaseEndsAt - this.limits.outcomeMarginMs);
    if (!recorded) this.log.error(fields, 'Lost the lease on a message before its outcome was recorded');
    return recorded;
  }
}
