import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const sqlUnpublished = sql`published_at is null`;

/** Domain events written in the same transaction as the change, relayed to JetStream after commit. */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: uuid('id').primaryKey(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** Times JetStream refused this event while it took others (the event's own fault, not an outage). */
    attempts: integer('attempts').notNull().default(0),
    /** Not tried again before this time; null: at once. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    index('outbox_events_unpublished_idx').on(t.createdAt).where(sqlUnpublished),
    // The hourly prune's rows (`pruneEventRecords`): published a week ago.
    index('outbox_events_published_idx').on(t.publishedAt).where(sql`published_at is not null`),
  ],
);

/** Events a durable consumer already handled: the idempotency record. */
export const processedEvents = pgTable(
  'processed_events',
  {
    consumer: text('consumer').notNull(),
    eventId: text('event_id').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.consumer, t.eventId] }),
    // The hourly prune's rows (`pruneEventRecords`): handled a month ago.
    index('processed_events_processed_idx').on(t.processedAt),
  ],
);
