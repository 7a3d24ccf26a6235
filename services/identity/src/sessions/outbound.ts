import { Inject, Injectable } from '@nestjs/common';
import { AppError, type BusClient } from '@portico/platform';
import { Notifications } from '@portico/proto';
import type { Logger } from 'pino';
import { BUS, LOG } from '../tokens.js';
import { SECRET_TTL_SECONDS, type SecretPurpose } from './secrets.repository.js';

/**
 * How long a message is worth sending: a message carrying a one-time code or link (its kind is the
 * secret's purpose) is not sent once the secret has expired; others have no limit (0).
 */
const validForSeconds = (kind: string) =>
  kind in SECRET_TTL_SECONDS ? SECRET_TTL_SECONDS[kind as SecretPurpose] : 0;

/** Sign-in email and SMS, sent through the notifications service (which keeps the outbox). */
@Injectable()
export class OutboundMessages {
  constructor(
    @Inject(BUS) private readonly bus: BusClient,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /** Sends an email; any failure becomes `failureMessage` (the spec's text for that flow) as a 503. */
  async email(
    message: {
      to: string;
      subject: string;
      text: string;
      kind: string;
      firmId: string;
      idempotencyKey: string;
      /** The From display name: the firm the message is sent for. */
      senderName: string;
    },
    failureMessage: string,
  ): Promise<void> {
    try {
      await this.bus.request(Notifications.sendEmail, {
        to: message.to,
        subject: message.subject,
        senderName: message.senderName,
        text: message.text,
        kind: message.kind,
        firmId: message.firmId,
        idempotencyKey: message.idempotencyKey,
        validForSeconds: validForSeconds(message.kind),
      });
    } catch (err) {
      this.log.error({ err, kind: message.kind }, 'Could not queue a sign-in email');
      throw new AppError('unavailable', 'send_failed', failureMessage);
    }
  }

  /** Sends an SMS; a number the provider refuses keeps its 400 and message, anything else is `failureMessage`. */
  async sms(
    message: { to: string; text: string; kind: string; firmId: string; idempotencyKey: string },
    failureMessage: string,
  ): Promise<void> {
    try {
      await this.bus.request(Notifications.sendSms, {
        to: message.to,
        text: message.text,
        kind: message.kind,
        firmId: message.firmId,
        idempotencyKey: message.idempotencyKey,
        validForSeconds: validForSeconds(message.kind),
      });
    } catch (err) {
      if (err instanceof AppError && err.kind === 'bad_request') throw err;
      this.log.error({ err, kind: message.kind }, 'Could not queue a sign-in SMS');
      throw new AppError('unavailable', 'send_failed', failureMessage);
    }
  }
}
