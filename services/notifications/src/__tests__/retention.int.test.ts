import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase } from '@portico/platform';
import { pino } from 'pino';
import { applyMigrations } from '../migrations.js';
import { OutboxRepository, SECRET_REMOVED } from '../outbox.repository.js';
import { RetentionJob } from '../retention.job.js';
import { schema } from '../schema.js';
import { Harness } from './harness.js';

describe('how long messages are kept', () => {
  let h: Harness;
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let job: RetentionJob;

  beforeAll(async () => {
    h = await Harness.create();
    // The schema only: a running service would trim the rows below with its own first pass, racing the test's.
    database = openDatabase(h.databaseUrl, schema, { max: 2 });
    await applyMigrations(database);
    job = new RetentionJob(new OutboxRepository(database.db), pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await database.close();
    await h.stop();
  });

  const insert = async (kind: string, status: string, age: string, subject = 'Hello') => {
    const { rows } = await h.pool.query<{ id: string }>(
      `insert into outbound_messages (channel, recipient, subject, text, html, kind, status, created_at)
       values ('email', 'keep@example.com', $1, 'Your code is 482913', '<p>482913</p>', $2, $3, now() - $4::interval)
       returning id`,
      [subject, kind, status, age],
    );
    return rows[0]?.id as string;
  };
  const exists = async (id: string) =>
    (await h.pool.query('select 1 from outbound_messages where id = $1', [id])).rowCount === 1;

  it('removes the codes and links of messages done a day ago, and deletes what is done after 90 days', async () => {
    const spent = await insert('sign_in_code', 'sent', '2 days', 'Your Demo CPA sign-in code is 482913');
    const failedLink = await insert('password_reset', 'failed', '2 days');
    const waiting = await insert('sign_in_code', 'queued', '2 days');
    const fresh = await insert('two_factor_code', 'sent', '1 hour');
    const plain = await insert('drop_off_received', 'sent', '2 days');
    const old = await insert('drop_off_received', 'sent', '100 days');
    const oldWaiting = await insert('drop_off_received', 'queued', '100 days');

    expect(await job.run()).toEqual({ secretsRemoved: 2, deleted: 1 });
    for (const id of [spent, failedLink]) {
      const row = await h.row(id);
      expect(row).toMatchObject({ text: SECRET_REMOVED, subject: SECRET_REMOVED, html: null });
    }
    // Not done yet, too recent, or with nothing secret in it: as it was.
    for (const id of [waiting, fresh, plain]) expect((await h.row(id)).text).toBe('Your code is 482913');
    expect(await exists(old)).toBe(false);
    expect(await exists(oldWaiting)).toBe(true);
    // Nothing left to do on the next pass.
    expect(await job.run()).toEqual({ secretsRemoved: 0, deleted: 0 });
  });
});
