import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@portico/platform';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import {
  type Channel,
  type NewOutboundMessage,
  type OutboundMessage,
  outboundMessages,
  type Schema,
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
   * Claims up to `batch` due messages for this worker: rows another worker holds are skipped (SKIP
   * LOCKED), each claimed row counts an attempt and is leased until now + leaseMs. A worker that dies
   * mid-send leaves its rows `sending`; they become due again when the lease runs out.
   */
  async claimDue(batch: number, leaseMs: number): Promise<OutboundMessage[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(
          and(
            inArray(outboundMessages.status, ['queued', 'sending']),
            lte(outboundMessages.nextAttemptAt, sql`now()`),
          ),
        )
        .orderBy(asc(outboundMessages.nextAttemptAt))
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

  /** The outcome of the attempt a claim counted; ignored if the lease was lost to another worker. */
  async markDelivered(claimed: OutboundMessage, status: 'sent' | 'kept'): Promise<void> {
    await this.db
      .update(outboundMessages)
      .set({ status, lastError: null, sentAt: status === 'sent' ? sql`now()` : null })
      .where(this.sameAttempt(claimed));
  }

  async markRetry(claimed: OutboundMessage, delayMs: number, error: string): Promise<void> {
    await this.db
      .update(outboundMessages)
      .set({
        status: 'queued',
        lastError: error,
        nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1_000})`,
      })
      .where(this.sameAttempt(claimed));
  }

  async markFailed(claimed: OutboundMessage, error: string): Promise<void> {
    await this.db
      .update(outboundMessages)
      .set({ status: 'failed', lastError: error })
      .where(this.sameAttempt(claimed));
  }

  private sameAttempt(claimed: OutboundMessage) {
    return and(
      eq(outboundMessages.id, claimed.id),
      eq(outboundMessages.status, 'sending'),
      eq(outboundMessages.attempts, claimed.attempts),
    );
  }
}
