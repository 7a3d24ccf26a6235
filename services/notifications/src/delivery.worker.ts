import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { extractTraceContext, inSpan, type Logger, SpanKind } from '@portico/platform';
import { CONFIG, type NotificationsConfig } from './config.js';
import { DeliveryError } from './delivery/delivery.error.js';
import { MAIL_PORT, type MailPort } from './delivery/mail.port.js';
import { SMS_PORT, type SmsPort } from './delivery/sms.port.js';
import { afterFailure } from './outbound.rules.js';
import { OutboxRepository } from './outbox.repository.js';
import type { OutboundMessage } from './schema.js';

export const LOGGER = Symbol('Logger');

/** Messages claimed per round, all sent concurrently. */
const BATCH = 16;
/** How long a claimed message is reserved for its worker; longer than any provider timeout. */
const LEASE_MS = 5 * 60_000;

/** The last_error of a message whose time ran out before an attempt could send it. */
export const EXPIRED = 'Expired before it could be delivered';

/** Waits between tries of writing a message's outcome, the last one repeated. */
const OUTCOME_RETRY_MS = [200, 1_000, 3_000, 10_000];
/** Outcome writes stop this long before the lease ends, when another worker may claim the message. */
const OUTCOME_MARGIN_MS = 30_000;

/**
 * Writes an attempt's outcome, trying again on failure for as long as the message's lease lasts: a
 * message sent whose outcome is not written is claimed again when its lease ends and sent again (an email
 * twice, a code five minutes late). A database failover takes tens of seconds; four tries over four
 * seconds did not outlast one.
 */
async function outcomeWritten(write: () => Promise<unknown>, leaseMs = LEASE_MS): Promise<void> {
  const giveUpAt = Date.now() + leaseMs - OUTCOME_MARGIN_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await write();
      return;
    } catch (err) {
      const wait = OUTCOME_RETRY_MS[Math.min(attempt, OUTCOME_RETRY_MS.length - 1)] as number;
      if (Date.now() + wait > giveUpAt) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Sends due messages through the configured ports. Every replica runs one; claims use SKIP LOCKED so
 * two workers never send the same message. Polls every DELIVERY_POLL_MS, and at once when nudged after
 * a new message is stored.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(MAIL_PORT) private readonly mail: MailPort,
    @Inject(SMS_PORT) private readonly sms: SmsPort,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Finishes the sends in flight, then closes the providers. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await Promise.all([this.mail.close(), this.sms.close()]);
  }

  /** Looks for due messages now rather than at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Claims and sends due messages until none are left; returns how many were attempted. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.outbox.claimDue(BATCH, LEASE_MS, this.config.DELIVERY_MAX_ATTEMPTS);
      await Promise.all(claimed.map((message) => this.deliver(message)));
      total += claimed.length;
      if (claimed.length < BATCH || this.stopped) return total;
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.again = false;
    this.running = this.drain().then(
      () => undefined,
      (err) => this.log.warn({ err }, 'Delivery round failed; will poll again'),
    );
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.schedule(this.again ? 0 : this.config.DELIVERY_POLL_MS);
  }

  /** One attempt, in a span continuing the trace of the request that asked for the message. */
  private async deliver(message: OutboundMessage): Promise<void> {
    const parent = extractTraceContext((key) =>
      key === 'traceparent' ? (message.traceParent ?? undefined) : undefined,
    );
    await inSpan(`deliver ${message.channel}`, SpanKind.PRODUCER, parent, async () => {
      const port = message.channel === 'email' ? this.mail : this.sms;
      const fields = {
        message_id: message.id,
        channel: message.channel,
        kind: message.kind,
        attempt: message.attempts,
      };
      if (message.expiresAt && message.expiresAt.getTime() <= Date.now()) {
        await outcomeWritten(() => this.outbox.markFailed(message, EXPIRED));
        this.log.warn(fields, 'Message expired before it could be delivered; not sent');
        return;
      }
      try {
        await this.send(message);
      } catch (err) {
        await this.recordFailure(message, err, fields);
        return;
      }
      await outcomeWritten(() => this.outbox.markDelivered(message, port.mode === 'keep' ? 'kept' : 'sent'));
      this.log.info(fields, port.mode === 'keep' ? 'Message kept in the outbox' : 'Message delivered');
    }).catch((err) => this.log.error({ err, message_id: message.id }, 'Could not record a delivery outcome'));
  }

  private send(message: OutboundMessage): Promise<void> {
    if (message.channel === 'email') {
      return this.mail.send({
        id: message.id,
        to: message.recipient,
        subject: message.subject ?? '',
        ...(message.senderName ? { senderName: message.senderName } : {}),
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    }
    return this.sms.send({ id: message.id, to: message.recipient, text: message.text });
  }

  private async recordFailure(message: OutboundMessage, err: unknown, fields: Record<string, unknown>) {
    const failure =
      err instanceof DeliveryError ? err : new DeliveryError(String((err as Error)?.message ?? err), false);
    const next = afterFailure(message.attempts, {
      maxAttempts: this.config.DELIVERY_MAX_ATTEMPTS,
      baseMs: this.config.DELIVERY_RETRY_BASE_MS,
      permanent: failure.permanent,
    });
    if (next.giveUp) {
      await outcomeWritten(() => this.outbox.markFailed(message, failure.message));
      this.log.error(
        { ...fields, err: failure, permanent: failure.permanent },
        'Message could not be delivered; giving up',
      );
    } else {
      await outcomeWritten(() => this.outbox.markRetry(message, next.retryInMs, failure.message));
      this.log.warn(
        { ...fields, err: failure, retry_in_ms: next.retryInMs },
        'Message delivery failed; will retry',
      );
    }
  }
}
