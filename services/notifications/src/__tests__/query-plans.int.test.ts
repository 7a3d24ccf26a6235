import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase, pruneEventRecords } from '@portico/platform';
import {
  createServiceDatabase,
  indexesOf,
  nodeTypesOf,
  type PlanNode,
  planOfLastSent,
  recordStatements,
  type SentStatement,
  uniqueDatabaseName,
} from '@portico/platform/testing';
import { applyMigrations } from '../migrations.js';
import { OutboxRepository } from '../outbox.repository.js';
import { schema } from '../schema.js';

/**
 * The plans of the worker's and the relay's polling statements on a table with a backlog (an SMTP
 * outage's queued emails behind a long history of sent ones): each found through its index, none
 * sorting the backlog or reading every row.
 */
describe('plans of the statements every replica runs at every poll', () => {
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  /** The statements the service sent, as it sent them (text and parameters). */
  let sent: SentStatement[];

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('notifications_plans'),
    );
    database = openDatabase(url, schema, { max: 2 });
    await applyMigrations(database);
    sent = recordStatements(database.pool);
    await database.pool.query(`
      insert into outbound_messages (channel, recipient, text, kind, status, attempts, next_attempt_at, created_at, sent_at)
      select case when g % 10 = 0 then 'sms' else 'email' end, 'sent' || g || '@example.com', 'Hello', 'notice',
             'sent', 1, now() - g * interval '10 seconds', now() - g * interval '10 seconds', now() - g * interval '10 seconds'
      from generate_series(1, 40000) g;
      insert into outbound_messages (channel, recipient, text, kind, status, attempts, next_attempt_at, created_at, expires_at)
      select 'email', 'queued' || g || '@example.com', 'Hello', case when g % 10 = 0 then 'sign_in_code' else 'notice' end,
             'queued', 1 + g % 4, now() - (g % 3600) * interval '1 second', now() - (g % 3600) * interval '1 second',
             case when g % 10 = 0 then now() + interval '10 minutes' end
      from generate_series(1, 20000) g;
      insert into outbound_messages (channel, recipient, text, kind, status, next_attempt_at, expires_at)
      select 'sms', '+4470000000' || g, 'Your code', 'sign_in_code', 'queued', now(), now() + interval '10 minutes'
      from generate_series(1, 3) g;
      insert into outbox_events (id, subject, payload, created_at, published_at)
      select gen_random_uuid(), 'events.test.v1', '{}', now() - g * interval '30 seconds', now() - g * interval '30 seconds'
      from generate_series(1, 40000) g;
      insert into processed_events (consumer, event_id, processed_at)
      select 'consumer', g::text, now() - g * interval '80 seconds' from generate_series(1, 40000) g;
      analyze outbound_messages;
      analyze outbox_events;
      analyze processed_events;`);
  });

  afterAll(async () => {
    await database.close();
  });

  /** The plan of the statement the service sent last whose text matches `pattern`. */
  async function planOf(pattern: RegExp): Promise<PlanNode[]> {
    return planOfLastSent(database.pool, sent, pattern);
  }

  it("claims a channel's due messages in order through the claim index, sorting nothing", async () => {
    const outbox = new OutboxRepository(database.db);
    for (const channel of ['email', 'sms'] as const) {
      sent.length = 0;
      const claimed = await outbox.claimDue(channel, 16, 60_000, 5);
      expect(claimed.length).toBeGreaterThan(0);
      const plan = await planOf(/for update skip locked/i);
      expect(indexesOf(plan)).toEqual(['outbound_messages_claim_idx']);
      expect(nodeTypesOf(plan)).not.toContain('Sort');
    }
  });

  it('looks for the spent messages through their index', async () => {
    sent.length = 0;
    await new OutboxRepository(database.db).giveUpSpent(5);
    const plan = await planOf(/^update "outbound_messages" set "status"/);
    expect(indexesOf(plan)).toEqual(['outbound_messages_spent_idx']);
  });

  it('prunes the event records through their indexes, a batch at a time', async () => {
    sent.length = 0;
    expect(await pruneEventRecords(database.db, new Date(), 1_000)).toEqual({
      published: expect.any(Number),
      processed: expect.any(Number),
    });
    const outbox = await planOf(/^delete from outbox_events/);
    expect(indexesOf(outbox)).toContain('outbox_events_published_idx');
    expect(nodeTypesOf(outbox)).not.toContain('Seq Scan');
    const processed = await planOf(/^delete from processed_events/);
    expect(indexesOf(processed)).toContain('processed_events_processed_idx');
    expect(nodeTypesOf(processed)).not.toContain('Seq Scan');
  });
});
