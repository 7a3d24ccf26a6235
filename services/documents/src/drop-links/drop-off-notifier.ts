import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable } from '@nestjs/common';
import {
  type BusClient,
  type Database,
  type Logger,
  refusedForGood,
  startDurableConsumer,
} from '@portico/platform';
import { DocumentsEvents, type DropOffReceived, Notifications } from '@portico/proto';
import { AccessClient } from '../access/access.client.js';
import type { DocumentsConfig } from '../config.js';
import { extensionOf } from '../items/paths.rules.js';
import { BUS, CONFIG, LOG } from '../tokens.js';
import { CONTENT_TYPES } from '../uploads/file-type.rules.js';
import { dropOffRecipients } from './drop-link-recipients.rules.js';

/** How much before the process's start the notices' consumer starts when it is first made. */
const CONSUMER_START_MARGIN_MS = 5 * 60_000;

/**
 * What a mail program could show as a link in a file name: 'www.', or a host name ('evil-login.com',
 * 'login.evil.support': a label with a letter, a dot, two letters or more) in the name before its
 * extension (the whole name when its extension is not one the portal knows). Names are sanitised when
 * uploaded, so they hold no ':', '/' or '@' (no scheme, no email address). 'W-2.pdf', '1099.INT.pdf' or
 * 'Smith J. 2024.pdf' are not; a rare name with a dot between words ('report.final.pdf') is left out too.
 */
const WEB_ADDRESS_LIKE = /www\.|[\p{L}\p{N}-]*\p{L}[\p{L}\p{N}-]*\.\p{L}{2,}(?![\p{L}\p{N}])/iu;

export function readsAsWebAddress(name: string): boolean {
  const ext = extensionOf(name);
  const stem = Object.hasOwn(CONTENT_TYPES, ext) ? name.slice(0, name.length - ext.length - 1) : name;
  return WEB_ADDRESS_LIKE.test(stem);
}

/** The durable consumer's name: the replicas of the documents service share its deliveries. */
export const DROP_OFF_NOTIFICATIONS_CONSUMER = 'documents_drop_off_notifications';

/**
 * Emails the firm users chosen in the drop link's settings (the firm preference
 * firm_user_ids_to_receive_drop_link_notification) of each drop-off, from the event recorded in the
 * transaction that filed it: a drop-off is never left unannounced because a service was away at that
 * moment, and the uploader's answer does not wait for the emails. Only chosen users who may open Drop
 * Link (partners, admins, full users) are told; when the list is empty (a new firm's: its drop link is on
 * and nobody is chosen) or none of it still may, the firm's partners are told instead, logged at warn.
 */
@Injectable()
export class DropOffNotifier {
  constructor(
    private readonly access: AccessClient,
    @Inject(BUS) private readonly bus: BusClient,
    @Inject(CONFIG) private readonly config: DocumentsConfig,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  /**
   * Sends one email per chosen user; a failure throws, so the event comes again and the emails already
   * sent are not sent twice (their idempotency key is the event's and the user's).
   */
  async notify(event: DropOffReceived, eventId: string): Promise<void> {
    const firm = await this.access.firmContacts({ firmId: event.firmId, userIds: [] });
    const { recipients, fallback } = dropOffRecipients(
      firm.users,
      firm.preferences?.firmUserIdsToReceiveDropLinkNotification ?? [],
    );
    if (!recipients.length) {
      this.log.warn({ firm_id: event.firmId }, 'Drop-off received but the firm has nobody to notify');
      return;
    }
    // Files left with the firm are never unannounced: without a chosen user who may open Drop Link, its
    // partners are told (a new firm's list is empty).
    if (fallback)
      this.log.warn(
        { firm_id: event.firmId, partners: recipients.length },
        'Drop-off received and no chosen user may open Drop Link; notifying the firm partners instead',
      );
    // What the uploader typed is theirs, unverified: said so, and kept out of the subject line.
    const from = event.uploaderName ? `${event.uploaderName} <${event.uploaderEmail}>` : event.uploaderEmail;
    // A name that could read as a web address is left out, counted: the uploader chose it, and a mail
    // program would show 'Verify account at www.evil-login.com.pdf' as a link in an email the portal sent.
    const shown = event.names.filter((n) => !readsAsWebAddress(n));
    const left = event.names.length - shown.length;
    const list = [
      ...shown.map((n) => `- ${n}`),
      ...(left
        ? [
            `- ${shown.length ? 'and ' : ''}${left} file(s) whose name could read as a web address, not shown here (see them in Drop Link)`,
          ]
        : []),
    ].join('\n');
    const text = `${event.names.length} file(s) were dropped off through your firm's drop link by someone who gave the name and email address ${from} (not verified):\n\n${list}\n\nDownload them from Drop Link in Portico: ${new URL('/drop-link-settings', this.config.PUBLIC_URL)}`;
    await Promise.all(
      recipients.map((user) =>
        this.bus
          .request(Notifications.sendEmail, {
            to: user.email,
            subject: "New documents dropped off through your firm's drop link",
            text,
            html: '',
            kind: 'drop_off_received',
            firmId: event.firmId,
            idempotencyKey: `drop-off:${eventId}:${user.id}`,
          })
          .catch((err: unknown) => {
            // One user's address refused for good (notifications reads addresses more strictly than
            // the profile did) is that user's notice lost, logged; the others still get theirs, and
            // the event is not delivered again for it. Anything else fails the event, to come again.
            if (!refusedForGood(err)) throw err;
            this.log.error(
              { err, firm_id: event.firmId, user_id: user.id },
              'Drop-off notice refused for a user',
            );
          }),
      ),
    );
  }

  /** Consumes the drop-off events until stopped. */
  start(nc: NatsConnection, db: Database) {
    return startDurableConsumer({
      nc,
      db,
      durable: DROP_OFF_NOTIFICATIONS_CONSUMER,
      contract: DocumentsEvents.dropOffReceived,
      log: this.log,
      // Made for the first time, from this process's start: the outbox relay starts before this
      // consumer exists, and the drop-offs it sent meanwhile are emailed (`fromNow` skipped them). Not
      // from the stream's start: versions before this consumer emailed drop-offs as they were filed, and
      // the first deploy of it would email the stream's month of them again. Made again after a loss, it
      // starts from the time it was first made; those it handled are found in processed_events.
      // Five minutes earlier still: another replica may have started (and relayed) a little before this
      // one made the consumer, or its clock may run ahead of the server's.
      startsAt: new Date(performance.timeOrigin - CONSUMER_START_MARGIN_MS),
      handle: (event, _tx, { eventId }) => this.notify(event, eventId),
    });
  }
}
