import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable } from '@nestjs/common';
import {
  type BusClient,
  type Database,
  firmScope,
  recordEvent,
  refusedForGood,
  startDurableConsumer,
  type Tx,
} from '@portico/platform';
import { type AccountNoticeDue, IdentityEvents, Notifications } from '@portico/proto';
import type { Logger } from 'pino';
import { FirmsRepository } from '../firms/firms.repository.js';
import type { UserRow } from '../schema.js';
import { BUS, LOG } from '../tokens.js';
import { maskEmail, maskPhone } from './profile.rules.js';

/** The durable consumer's name: the replicas of the identity service share its deliveries. */
export const ACCOUNT_NOTICES_CONSUMER = 'identity_account_notices';

/** The kinds of message the notices are sent as (the outbox's `kind`). */
export const ACCOUNT_NOTICE_KINDS = [
  'email_changed',
  'phone_changed',
  'password_changed',
  'two_factor_off',
] as const;
type NoticeKind = (typeof ACCOUNT_NOTICE_KINDS)[number];

/** What each notice says, in the firm's name; `value` is the new email or phone, masked. */
const NOTICES: Record<NoticeKind, (firm: string, value: string) => { subject: string; text: string }> = {
  email_changed: (firm, value) => ({
    subject: `Your ${firm} sign-in email was changed`,
    text: `The email address you sign in to ${firm} with is now ${value}. If you did not ask for this change, contact ${firm} at once.`,
  }),
  phone_changed: (firm, value) => ({
    subject: `Your ${firm} phone number was changed`,
    text: `The phone number on your ${firm} account is now ${value}; sign-in codes you ask to be texted go there. If you did not ask for this change, contact ${firm} at once.`,
  }),
  password_changed: (firm) => ({
    subject: `Your ${firm} password was changed`,
    text: `The password you sign in to ${firm} with was changed, and you were signed out everywhere else. If you did not change it, reset it from the sign-in page and contact ${firm} at once.`,
  }),
  two_factor_off: (firm) => ({
    subject: `Two-factor authentication was turned off for your ${firm} account`,
    text: `Signing in to ${firm} no longer asks for a code sent to this address after your password. If you did not turn it off, turn it on again in your profile and contact ${firm} at once.`,
  }),
};

/**
 * Notices about an account, from its firm: a changed sign-in email (to the old address), a phone changed
 * by someone else, a new password, two-factor turned off. Each is recorded as an event in the transaction of the
 * change it tells of, and emailed by this service's durable consumer once that commits: the change
 * never waits for notifications, and a notice is never lost because notifications was away (the
 * event comes again until notifications takes it; its id is the email's idempotency key, so it is
 * sent once).
 */
@Injectable()
export class AccountNotices {
  constructor(
    @Inject(FirmsRepository) private readonly firms: FirmsRepository,
    @Inject(BUS) private readonly bus: BusClient,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /**
   * The old address is to hear that the account's sign-in email changed: whoever changed it (the user,
   * or an advisor allowed to edit them) controls the new one, and the owner of the old one should know.
   */
  emailChanged(tx: Tx, user: UserRow, previous: string) {
    return this.record(tx, user, 'email_changed', previous, maskEmail(user.email));
  }

  /** The user is to hear that someone else changed their phone, since a texted code signs them in. */
  phoneChanged(tx: Tx, user: UserRow) {
    return this.record(tx, user, 'phone_changed', user.email, maskPhone(user.phoneNumber));
  }

  /** The user is to hear that their password was set anew (a reset, or a change): it may not be them. */
  passwordChanged(tx: Tx, user: UserRow) {
    return this.record(tx, user, 'password_changed', user.email, '');
  }

  /** The user is to hear that two-factor was turned off, by them or by an advisor allowed to. */
  twoFactorOff(tx: Tx, user: UserRow) {
    return this.record(tx, user, 'two_factor_off', user.email, '');
  }

  private async record(tx: Tx, user: UserRow, kind: NoticeKind, to: string, maskedValue: string) {
    // A temporary address (made up for a client who had none) reaches nobody.
    if (to === user.email && user.hasTempEmail) return;
    await recordEvent(tx, IdentityEvents.accountNoticeDue, {
      firmId: user.firmId,
      userId: user.id,
      kind,
      to,
      maskedValue,
      occurredAt: new Date().toISOString(),
    });
  }

  /**
   * Emails one notice. A failure that may pass (notifications away, a timeout) throws, so the event
   * comes again; a refusal for good (an address notifications will never take) is logged at error with
   * the user, for support to follow up, and the event is done.
   */
  async send(event: AccountNoticeDue, eventId: string): Promise<void> {
    const content = NOTICES[event.kind as NoticeKind];
    const about = { kind: event.kind, user_id: event.userId, firm_id: event.firmId, event_id: eventId };
    if (!content) {
      this.log.error(about, 'An account notice of an unknown kind was dropped');
      return;
    }
    try {
      const firm = await this.firms.forMessages(firmScope(event.firmId));
      await this.bus.request(Notifications.sendEmail, {
        to: event.to,
        senderName: firm.name,
        kind: event.kind,
        firmId: event.firmId,
        idempotencyKey: `account_notice:${eventId}`,
        ...content(firm.name, event.maskedValue),
      });
    } catch (err) {
      if (!refusedForGood(err)) throw err;
      this.log.error(
        { ...about, err },
        'An account notice was refused for good; the change it tells of is saved',
      );
    }
  }

  /** Consumes the notice events until stopped. */
  start(nc: NatsConnection, db: Database) {
    return startDurableConsumer({
      nc,
      db,
      durable: ACCOUNT_NOTICES_CONSUMER,
      contract: IdentityEvents.accountNoticeDue,
      log: this.log,
      handle: (event, _tx, { eventId }) => this.send(event, eventId),
    });
  }
}
