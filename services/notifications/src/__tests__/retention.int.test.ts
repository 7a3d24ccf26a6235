import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, openDatabase } from '@portico/platform';
import { pino } from 'pino';
import { applyMigrations } from '../migrations.js';
import { OutboxRepository } from '../outbox.repository.js';
import { RetentionJob } from '../retention.job.js';
import { SECRET_REMOVED, schema } from '../schema.js';
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

  it('removes codes and links a bounded batch at a time, however many are due', async () => {
    await h.pool.query('delete from outbound_messages');
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => insert('sign_in_code', 'sent', '2 days')));
    // How many rows each statement changed.
    await h.pool.query(`
      create table changed_per_statement (n int not null);
      create function count_changed() returns trigger language plpgsql as $$
      begin
        insert into changed_per_statement select count(*) from changed;
        return null;
      end $$;
      create trigger count_changed after update on outbound_messages
        referencing new table as changed for each statement execute function count_changed();`);
    try {
      const outbox = new OutboxRepository(database.db);
      expect(await outbox.removeSecrets(['sign_in_code'], new Date(Date.now() - 60_000), 2)).toBe(5);
      const { rows } = await h.pool.query<{ n: number }>('select n from changed_per_statement where n > 0');
      expect(
        rows
          .map((r) => r.n)
          .sort()
          .reverse(),
      ).toEqual([2, 2, 1]);
      for (const id of ids) expect((await h.row(id)).text).toBe(SECRET_REMOVED);
    } finally {
      await h.pool.query(
        'drop trigger count_changed on outbound_messages; drop function count_changed; drop table changed_per_statement',
      );
    }
  });

  it('still deletes old messages when removing codes fails, and logs each failure', async () => {
    await h.pool.query('delete from outbound_messages');
    const old = await insert('drop_off_received', 'sent', '100 days');
    const spent = await insert('sign_in_code', 'sent', '2 days');
    // The removal fails (a statement timeout on a large table, say); the deletion does not.
    await h.pool.query(`
      create function refuse_removal() returns trigger language plpgsql as $$
      begin
        raise exception 'canceling statement due to statement timeout';
      end $$;
      create trigger refuse_removal before update on outbound_messages
        for each row execute function refuse_removal();`);
    const logged: Array<{ level: string; msg: string }> = [];
    const log = createLogger('notifications', 'info', {
      write: (line: string) => void logged.push(JSON.parse(line)),
    });
    try {
      const logging = new RetentionJob(new OutboxRepository(database.db), log);
      expect(await logging.run()).toEqual({ secretsRemoved: 0, deleted: 1 });
    } finally {
      await h.pool.query('drop trigger refuse_removal on outbound_messages; drop function refuse_removal');
    }
    expect(await exists(old)).toBe(false);
    expect((await h.row(spent)).text).toBe('Your code is 482913');
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'Removing spent codes and links failed; will retry' }),
    );
  });
});
