import { Inject, Injectable } from '@nestjs/common';
import { assertBeforeDeadline, type Database, deleteInBatches } from '@portico/platform';
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import {
  type Channel,
  type NewOutboundMessage,
  type OutboundMessage,
  outboundMessages,
  type Schema,
  SECRET_REMOVED,
  secretTextKept,
} from './schema.js';

export const DATABASE = Symbol('Database');

export interface OutboxFilter {
  recipient?: string;
  channel?: Channel;
  limit: number;
}

/**
 * All SQL of the outbound_messages table. The table is service infrastructure, not tenant data:
 * messages are addressed to people (sign-in mail comes before any firm), so queries are not firm-scoped.
 */

@Injectable()
export class OutboxRepository {
  constructor(@Inject(DATABASE) private readonly db: Database<Schema>) {}

  /**
   * Inserts the message, or returns the one already stored under the same idempotency key: a retried
   * request never makes a second message. A concurrent insert of the same key waits for the first
   * to commit, then reads it.
   */
  async insertOnce(message: NewOutboundMessage): Promise<{ row: OutboundMessage; created: boolean }> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.insert(outboundMessages).values(message).onConflictDoNothing().returning();
      // A caller that has stopped waiting told its user the send failed: a code stored now would be
      // sent, and the user's retry would send a second one, of which only the latest works.
      assertBeforeDeadline();
      if (inserted[0]) return { row: inserted[0], created: true };
      if (!message.idempotencyKey) throw new Error('Insert of an outbound message without a key did nothing');
      const [existing] = await tx
        .select()
        .from(outboundMessages)
        .where(eq(outboundMessages.idempotencyKey, message.idempotencyKey));
      if (!existing) throw new Error('Idempotency key conflict without a stored message');
      return { row: existing, created: false };
    });
  }

  async list(filter: OutboxFilter): Promise<OutboundMessage[]> {
    const conditions = [
      filter.recipient ? eq(outboundMessages.recipient, filter.recipient) : undefined,
      filter.channel ? eq(outboundMessages.channel, filter.channel) : undefined,
    ];
    return this.db
      .select()
      .from(outboundMessages)
      .where(and(...conditions))
      .orderBy(desc(outboundMessages.createdAt), desc(outboundMessages.id))
      .limit(filter.limit);
  }

  async findById(id: string): Promise<OutboundMessage | undefined> {
    const [row] = await this.db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    return row;
  }

  /**
   * Claims up to `batch` due messages of `channel` for this worker: rows another worker holds are skipped
   * (SKIP LOCKED), each claimed row counts an attempt and is leased until now + leaseMs. A worker that
   * dies mid-send leaves its rows `sending`; they become due again when the lease runs out. Messages that
   * expire soonest go first (a sign-in code before a newsletter), then the longest waiting.
   */
  async claimDue(
    channel: Channel,
    batch: number,
    leaseMs: number,
    maxAttempts: number,
  ): Promise<OutboundMessage[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(
          and(
            inArray(outboundMessages.status, ['queued', 'sending']),
            eq(outboundMessages.channel, channel),
            lte(outboundMessages.nextAttemptAt, sql`now()`),
            // Never claimed past its attempts: giveUpSpent fails those.
            lt(outboundMessages.attempts, maxAttempts),
          ),
        )
        .orderBy(sql`${outboundMessages.expiresAt} asc nulls last`, asc(outboundMessages.nextAttemptAt))
        .limit(batch)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outboundMessages)
        .set({
          status: 'sending',
          attempts: sql`${outboundMessages.attempts} + 1`,
          nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1_000})`,
        })
        .where(
          inArray(
            outboundMessages.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  /**
   * Fails the messages that have no attempt left and that no worker holds: one whose every attempt was
   * claimed and whose last outcome was never written (the worker died, or the database refused the
   * write) once its lease has run out, and one waiting with attempts to its limit (DELIVERY_MAX_ATTEMPTS
   * was lowered), which would otherwise wait for ever. Answers how many.
   */
  async giveUpSpent(maxAttempts: number): Promise<number> {
    const result = await this.db
      .update(outboundMessages)
      .set({
        status: 'failed',
        // A message waiting keeps the error of its last attempt, the reason it did not go.
        lastError: sql`case when ${outboundMessages.status} = 'sending'
          then 'Gave up: the outcome of the last attempt was never recorded'
          else coalesce(${outboundMessages.lastError}, 'Gave up: no attempts left') end`,
      })
      .where(
        and(
          inArray(outboundMessages.status, ['queued', 'sending']),
          gte(outboundMessages.attempts, maxAttempts),
          or(eq(outboundMessages.status, 'queued'), lte(outboundMessages.nextAttemptAt, sql`now()`)),
        ),
      );
    return result.rowCount ?? 0;
  }

  /**
   * The outcome of the attempt a claim counted. Answers false, changing nothing, when the lease was
   * lost: another worker has claimed the message since, or it was given up.
   */
  async markSent(claimed: OutboundMessage): Promise<boolean> {
    const result = await this.db
      .update(outboundMessages)
      .set({ status: 'sent', lastError: null, sentAt: sql`now()` })
      .where(this.sameAttempt(claimed));
    return (result.rowCount ?? 0) > 0;
  }

  async markRetry(claimed: OutboundMessage, delayMs: number, error: string): Promise<boolean> {
    const result = await this.db
      .update(outboundMessages)
      .set({
        status: 'queued',
        lastError: error,
        nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1_000})`,
      })
      .where(this.sameAttempt(claimed));
    return (result.rowCount ?? 0) > 0;
  }

  async markFailed(claimed: OutboundMessage, error: string): Promise<boolean> {
    const result = await this.db
      .update(outboundMessages)
      .set({ status: 'failed', lastError: error })
      .where(this.sameAttempt(claimed));
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * Blanks the text, subject and HTML of messages of these kinds that are done (sent, kept or failed)
   * and were asked for before `before`: their one-time codes and links are spent or expired by then.
   * `batch` rows per statement, each well inside the statement timeout however many are due. Answers
   * how many.
   */
  async removeSecrets(kinds: readonly string[], before: Date, batch = 1_000): Promise<number> {
    // A literal, not a parameter, so the planner matches outbound_messages_secret_text_idx's predicate.
    const notRemoved = secretTextKept(outboundMessages.text);
    const due = this.db
      .select({ id: outboundMessages.id })
      .from(outboundMessages)
      .where(
        and(
          inArray(outboundMessages.kind, [...kinds]),
          inArray(outboundMessages.status, ['sent', 'kept', 'failed']),
          lt(outboundMessages.createdAt, before),
          notRemoved,
        ),
      )
      .limit(batch);
    let total = 0;
    for (;;) {
      const result = await this.db
        .update(outboundMessages)
        .set({
          text: SECRET_REMOVED,
          subject: sql`case when ${outboundMessages.subject} is null then null else ${SECRET_REMOVED} end`,
          html: null,
        })
        // Checked again on the row itself: a replica running the same pass may have just blanked it.
        .where(and(inArray(outboundMessages.id, due), notRemoved));
      const n = result.rowCount ?? 0;
      total += n;
      if (n < batch) return total;
    }
  }

  /** Deletes the messages that are done and were asked for before `before`, `batch` at a time. */
  async deleteDone(before: Date, batch = 5_000): Promise<number> {
    return deleteInBatches(
      this.db,
      batch,
      sql`
        delete from outbound_messages where id in (
          select id from outbound_messages
          where status in ('sent', 'kept', 'failed') and created_at < ${before.toISOString()}::timestamptz
          limit ${batch})`,
    );
  }

  private sameAttempt(claimed: OutboundMessage) {
    return and(
      eq(outboundMessages.id, claimed.id),
      eq(outboundMessages.status, 'sending'),
      eq(outboundMessages.attempts, claimed.attempts),
    );
  }
}
