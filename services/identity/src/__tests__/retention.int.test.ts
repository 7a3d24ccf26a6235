import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, openDatabase, runMigrations } from '@portico/platform';
import { createServiceDatabase, queryAcrossFirms, uniqueDatabaseName } from '@portico/platform/testing';
import { pino } from 'pino';
import { schema } from '../schema.js';
import { RetentionJob } from '../sessions/retention.job.js';
import { MIGRATIONS_FOLDER } from '../start.js';

describe('how long refresh tokens and one-time secrets are kept', () => {
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let job: RetentionJob;
  let firmId: string;
  let userId: string;
  let seq = 0;

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('identity_retention'),
    );
    // The schema only: a running service would delete the rows below with its own first pass.
    database = openDatabase(url, schema, { max: 2 });
    await runMigrations(database, MIGRATIONS_FOLDER);
    job = new RetentionJob(database.db, pino({ level: 'silent' }));
    const [firm] = await query<{ id: string }>(
      `insert into firms (id, firm_id, name, slug) select g, g, 'Kept', 'kept' from gen_random_uuid() g returning id`,
    );
    firmId = firm?.id as string;
    const [user] = await query<{ id: string }>(
      `insert into users (uid, firm_id, email) values ('kept-user', $1, 'kept@example.com') returning id`,
      [firmId],
    );
    userId = user?.id as string;
  });
  afterAll(async () => {
    await database.close();
  });

  const query = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryAcrossFirms<T>(database.pool, text, params);

  /** A refresh token; the times are intervals from now ('-31 days'), null for none. */
  const token = async (expires: string, rotated: string | null = null, revoked: string | null = null) => {
    const [row] = await query<{ id: string }>(
      `insert into refresh_tokens (firm_id, user_id, family_id, token_hash, expires_at, rotated_at, revoked_at)
       values ($1, $2, gen_random_uuid(), $3, now() + $4::interval, now() + $5::interval, now() + $6::interval)
       returning id`,
      [firmId, userId, `hash-${seq++}`, expires, rotated, revoked],
    );
    return row?.id as string;
  };
  const secret = async (expires: string, consumed: string | null = null) => {
    const [row] = await query<{ id: string }>(
      `insert into one_time_secrets (firm_id, user_id, purpose, secret_hash, expires_at, consumed_at)
       values ($1, $2, 'sign_in_link', $3, now() + $4::interval, now() + $5::interval) returning id`,
      [firmId, userId, `secret-${seq++}`, expires, consumed],
    );
    return row?.id as string;
  };
  const left = async (table: 'refresh_tokens' | 'one_time_secrets') =>
    (await query<{ id: string }>(`select id from ${table}`)).map((r) => r.id).sort();
  const clear = () => query('delete from refresh_tokens; delete from one_time_secrets');

  it('deletes refresh tokens expired or revoked 30 days ago and secrets expired a day ago, nothing newer', async () => {
    await token('-31 days');
    await token('-1 day', '-35 days', '-31 days');
    const kept = [
      await token('-29 days'),
      await token('1 day', null, '-29 days'),
      // A rotated token whose reuse must still end its session, and the session's live one.
      await token('29 days', '-1 hour'),
      await token('30 days'),
    ];
    await secret('-2 days');
    const keptSecrets = [
      await secret('-12 hours'),
      await secret('10 minutes'),
      await secret('5 minutes', '-1 minute'),
    ];

    expect(await job.run()).toEqual({ refreshTokens: 2, secrets: 1 });
    expect(await left('refresh_tokens')).toEqual(kept.sort());
    expect(await left('one_time_secrets')).toEqual(keptSecrets.sort());
    // Nothing left to do on the next pass.
    expect(await job.run()).toEqual({ refreshTokens: 0, secrets: 0 });
    await clear();
  });

  it('deletes a bounded batch at a time, however many are due', async () => {
    for (let i = 0; i < 5; i++) await token('-40 days');
    for (let i = 0; i < 3; i++) await secret('-3 days');
    expect(await job.run(new Date(), 2)).toEqual({ refreshTokens: 5, secrets: 3 });
    expect(await left('refresh_tokens')).toEqual([]);
    expect(await left('one_time_secrets')).toEqual([]);
  });

  it('still deletes the refresh tokens when deleting secrets fails, and logs the failure', async () => {
    const old = await token('-40 days');
    const spent = await secret('-3 days');
    await database.pool.query(`
      create function refuse_delete() returns trigger language plpgsql as $$
      begin
        raise exception 'canceling statement due to statement timeout';
      end $$;
      create trigger refuse_delete before delete on one_time_secrets
        for each row execute function refuse_delete();`);
    const logged: Array<{ level: string; msg: string }> = [];
    const log = createLogger('identity', 'info', {
      write: (line: string) => void logged.push(JSON.parse(line)),
    });
    try {
      expect(await new RetentionJob(database.db, log).run()).toEqual({ refreshTokens: 1, secrets: 0 });
    } finally {
      await database.pool.query(
        'drop trigger refuse_delete on one_time_secrets; drop function refuse_delete',
      );
    }
    expect(await left('refresh_tokens')).not.toContain(old);
    expect(await left('one_time_secrets')).toEqual([spent]);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'Deleting expired one-time secrets failed; will retry',
      }),
    );
  });
});
