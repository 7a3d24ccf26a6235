import { Inject, Injectable } from '@nestjs/common';
import { AppError, type BusClient } from '@portico/platform';
import { Notifications } from '@portico/proto';
import type { Logger } from 'pino';
import { BUS, LOG } from '../tokens.js';

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
      });
    } catch (err) {
      if (err instanceof AppError && err.kind === 'bad_request') throw err;
      this.log.error({ err, kind: message.kind }, 'Could not queue a sign-in SMS');
      throw new AppError('unavailable', 'send_failed', failureMessage);
    }
  }
}
