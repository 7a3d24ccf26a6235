import { Inject, Injectable } from '@nestjs/common';
import { firmScope } from '@portico/platform';
import type { Logger } from 'pino';
import { FirmsRepository } from '../firms/firms.repository.js';
import { Messages } from '../messages.js';
import type { UserRow } from '../schema.js';
import { OutboundMessages } from '../sessions/outbound.js';
import { LOG } from '../tokens.js';
import { maskEmail, maskPhone } from './profile.rules.js';

/**
 * Notices about an account, from its firm, sent once the change they tell of is made: the change stands
 * whether or not the notice can be sent. Identity has no durable path of its own to notifications (every
 * sign-in message is a request to it), so a notice that cannot be sent is logged at error, with the
 * request's trace id (on every log line), the user and the notice's key, for support to follow up.
 */
@Injectable()
export class AccountNotices {
  constructor(
    @Inject(FirmsRepository) private readonly firms: FirmsRepository,
    @Inject(OutboundMessages) private readonly outbound: OutboundMessages,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /**
   * The old address hears that the account's sign-in email changed: whoever changed it (the user, or
   * an advisor allowed to edit them) controls the new one, and the owner of the old one should know.
   * `change`: the confirmation that made it, so each change is told once, and every one is (keyed by the
   * new address, a change back and forth again reused the first notice's key and was never told).
   */
  async emailChanged(user: UserRow, previous: string, change: string) {
    await this.tell(user, previous, 'email_changed', `email_changed:${user.id}:${change}`, (firm) => ({
      subject: `Your ${firm} sign-in email was changed`,
      text: `The email address you sign in to ${firm} with is now ${maskEmail(user.email)}. If you did not ask for this change, contact ${firm} at once.`,
    }));
  }

  /** The user hears that their phone was changed by someone else (keyed by the change's time). */
  async phoneChanged(user: UserRow) {
    const key = `phone_changed:${user.id}:${user.updatedAt.getTime()}`;
    await this.tell(user, user.email, 'phone_changed', key, (firm) => ({
      subject: `Your ${firm} phone number was changed`,
      text: `The phone number on your ${firm} account is now ${maskPhone(user.phoneNumber)}; sign-in codes you ask to be texted go there. If you did not ask for this change, contact ${firm} at once.`,
    }));
  }

  private async tell(
    user: UserRow,
    to: string,
    kind: string,
    idempotencyKey: string,
    content: (firmName: string) => { subject: string; text: string },
  ) {
    try {
      const firm = await this.firms.forMessages(firmScope(user.firmId));
      await this.outbound.email(
        { to, firmId: user.firmId, senderName: firm.name, kind, idempotencyKey, ...content(firm.name) },
        Messages.codeSendFailed,
      );
    } catch (err) {
      this.log.error(
        { err, kind, user_id: user.id, firm_id: user.firmId, idempotency_key: idempotencyKey },
        'An account notice was not sent; the change it tells of is saved',
      );
    }
  }
}
