import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * queued: waiting for its next attempt; sending: claimed by a worker (a lease until next_attempt_at);
 * sent: accepted by the provider; failed: given up; kept: held in the local outbox, never delivered.
 */
export const STATUSES = ['queued', 'sending', 'sent', 'failed', 'kept'] as const;
export type MessageStatus = (typeof STATUSES)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** What a message's text and subject read once its one-time code or link has been removed. */
export const SECRET_REMOVED = '(removed: it held a one-time code or link)';

/**
 * A message's text is still there (not yet SECRET_REMOVED): the retention pass's condition and its
 * partial index's, written once since the planner uses the index only for the same predicate.
 */
export const secretTextKept = (text: AnyPgColumn) => sql`${text} <> ${sql.raw(`'${SECRET_REMOVED}'`)}`;

/**
 * Every email and SMS Portico sends, written when it is asked for and updated by the delivery worker.
 * Not under row-level security: sign-in mail is sent before there is a firm, and only this service
 * reads the table (the dev outbox route is refused in production).
 */
export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').$type<Channel>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    /** The From display name asked for (the firm's); empty: the deployment's MAIL_FROM as it is. */
    senderName: text('sender_name').notNull().default(''),
    text: text('text').notNull(),
    html: text('html'),
    kind: text('kind').notNull(),
    firmId: uuid('firm_id'),
    idempotencyKey: text('idempotency_key').unique('outbound_messages_idempotency_key_unique'),
    status: text('status').$type<MessageStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** The W3C traceparent of the request, so delivery continues the caller's trace. */
    traceParent: text('trace_parent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** After this the message is not worth sending (a sign-in code that has expired): it fails instead. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    check('outbound_messages_channel_check', sql`${t.channel} in (${inList(CHANNELS)})`),
    check('outbound_messages_status_check', sql`${t.status} in (${inList(STATUSES)})`),
    // The delivery worker's claim (OutboxRepository.claimDue): one channel's messages waiting, in the
    // claim's order (expires_at, nulls last, then next_attempt_at), those not yet due skipped in the index.
    // An index of next_attempt_at alone had every claim sort the whole backlog (an SMTP outage's 100k
    // emails, on disk) and an SMS claim read every queued email.
    index('outbound_messages_claim_idx')
      .on(t.channel, t.expiresAt.asc().nullsLast(), t.nextAttemptAt)
      .where(sql`status in ('queued', 'sending')`),
    // giveUpSpent's rows, looked for at every poll of every replica: those waiting with no attempt left.
    index('outbound_messages_spent_idx').on(t.attempts).where(sql`status in ('queued', 'sending')`),
    index('outbound_messages_recipient_idx').on(t.recipient, t.createdAt),
    index('outbound_messages_created_idx').on(t.createdAt),
    // The retention pass's rows: those whose text is still there. Without it each of its batches read
    // every message of the last 90 days whose text was already removed.
    index('outbound_messages_secret_text_idx').on(t.kind, t.createdAt).where(secretTextKept(t.text)),
  ],
);

export type OutboundMessage = typeof outboundMessages.$inferSelect;
export type NewOutboundMessage = typeof outboundMessages.$inferInsert;
