import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firmScope, openDatabase, runMigrations } from '@portico/platform';
import {
  createServiceDatabase,
  indexesOf,
  nodeTypesOf,
  type PlanNode,
  planOfLastSent,
  queryAcrossFirms,
  recordStatements,
  type SentStatement,
  uniqueDatabaseName,
} from '@portico/platform/testing';
import { pino } from 'pino';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { schema } from '../schema.js';
import { RetentionJob } from '../sessions/retention.job.js';
import { SecretsRepository } from '../sessions/secrets.repository.js';
import { SessionTokensService } from '../sessions/session-tokens.service.js';
import { MIGRATIONS_FOLDER } from '../start.js';
import { UsersRepository } from '../users/users.repository.js';

/**
 * The plans of the statements of sign-in, ending sessions, the entity list and the retention job, as the
 * service sends them and under row-level security as it runs them (the service's own role, the firm's
 * setting or the across-firms one), on tables with many firms' rows: each found through its index, none
 * reading every user of every firm or a user's whole token history.
 */
describe('plans of the statements behind sign-in, sessions, the entity list and retention', () => {
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let sent: SentStatement[];
  let firmId: string;
  let heavyUserId: string;

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('identity_plans'),
    );
    // Building the tables below takes longer than a request's statement may.
    database = openDatabase(url, schema, { max: 2, statementTimeoutMs: 120_000 });
    await runMigrations(database, MIGRATIONS_FOLDER);
    sent = recordStatements(database.pool);
    // Twenty firms of 1,000 users and 2,000 entities (most owned), the first with 12,000 entities
    // (below about 10,000 a firm's entities are sorted in a few milliseconds, and the planner does so);
    // each user with a few refresh tokens and one-time secrets, one user with a year of renewals.
    const statements = [
      `insert into firms (id, firm_id, name, slug)
         select g, g, 'Firm ' || i, 'firm-' || i from (select i, gen_random_uuid() g from generate_series(1, 20) i) f`,
      `insert into users (uid, firm_id, email, deleted_at)
         select 'u' || f.slug || '-' || i, f.id, 'user' || i || '.' || f.slug || '@example.com',
                case when i % 50 = 0 then now() end
         from firms f, generate_series(1, 1000) i`,
      `insert into companies (hash_id, firm_id, name, entity_type, created_at, deleted_at)
         select f.slug || '-' || i, f.id, 'Entity ' || i, 'Individual', now() - i * interval '1 minute',
                case when i % 40 = 0 then now() end
         from firms f, generate_series(1, case when f.slug = 'firm-1' then 12000 else 2000 end) i`,
      `insert into company_owners (firm_id, company_id, user_id)
         select c.firm_id, c.id, u.id
         from companies c
         join firms f on f.id = c.firm_id
         join users u on u.uid = 'u' || f.slug || '-' || (1 + split_part(c.hash_id, '-', 3)::int % 1000)
         where split_part(c.hash_id, '-', 3)::int % 10 <> 0`,
      `insert into refresh_tokens (firm_id, user_id, family_id, token_hash, expires_at, rotated_at, revoked_at, created_at)
         select u.firm_id, u.id, gen_random_uuid(), md5(u.id::text || t), now() + interval '30 days' - t * interval '1 day',
                case when t > 0 then now() - t * interval '1 day' end, case when t = 2 then now() - interval '1 day' end,
                now() - t * interval '1 day'
         from users u, generate_series(0, 3) t`,
      `insert into one_time_secrets (firm_id, user_id, purpose, secret_hash, expires_at, consumed_at)
         select u.firm_id, u.id, 'sign_in_code', md5(u.id::text || t), now() - t * interval '1 day' + interval '10 minutes',
                case when t > 0 then now() - t * interval '1 day' end
         from users u, generate_series(0, 3) t`,
    ];
    for (const statement of statements) {
      await queryAcrossFirms(database.pool, statement);
      // Each insert planned with the rows of the ones before it known (joins on them).
      await database.pool.query('analyze');
    }
    const [firm] = await queryAcrossFirms<{ id: string }>(
      database.pool,
      `select id from firms where slug = 'firm-1'`,
    );
    firmId = firm?.id as string;
    const [heavy] = await queryAcrossFirms<{ id: string }>(
      database.pool,
      `select id from users where email = 'user7.firm-1@example.com'`,
    );
    heavyUserId = heavy?.id as string;
    await queryAcrossFirms(
      database.pool,
      `insert into refresh_tokens (firm_id, user_id, family_id, token_hash, expires_at, rotated_at, created_at)
         select $1, $2, gen_random_uuid(), md5('heavy' || t), now() + interval '30 days' - t * interval '1 hour',
                now() - t * interval '1 hour', now() - t * interval '1 hour'
         from generate_series(1, 8000) t`,
      [firmId, heavyUserId],
    );
    await database.pool.query('analyze');
  });

  afterAll(async () => {
    await database.close();
  });

  /**
   * The plan of the statement the service sent last whose text matches `pattern`, under the setting it
   * ran with: across firms (sign-in lookups, sessions, retention) or the firm's.
   */
  async function planOf(pattern: RegExp, scope: { firmId: string } | 'across firms'): Promise<PlanNode[]> {
    const settings: Record<string, string> =
      scope === 'across firms' ? { 'app.bypass_rls': 'on' } : { 'app.firm_id': scope.firmId };
    return planOfLastSent(database.pool, sent, pattern, settings);
  }

  it('finds a user by email through users_email_live_idx, not by reading every user', async () => {
    sent.length = 0;
    const found = await new UsersRepository(database.db).findLiveByEmail('User12.Firm-3@Example.com');
    expect(found?.email).toBe('user12.firm-3@example.com');
    const plan = await planOf(/from "users"/, 'across firms');
    expect(indexesOf(plan)).toEqual(['users_email_live_idx']);
    expect(nodeTypesOf(plan)).not.toContain('Seq Scan');
  });

  it("ends a user's sessions through their live tokens, not their history", async () => {
    const users = new UsersRepository(database.db);
    const sessions = new SessionTokensService(
      database.db,
      {} as never,
      {} as never,
      new SecretsRepository(database.db),
      users,
    );
    sent.length = 0;
    expect(
      await sessions.signOutEverywhere({
        user_id: heavyUserId,
        firm_id: firmId,
        role: 'client',
        readonly_access: false,
      }),
    ).toBe(1);
    const plan = await planOf(/^update "refresh_tokens" set "revoked_at"/, 'across firms');
    expect(indexesOf(plan)).toEqual(['refresh_tokens_live_idx']);
  });

  it('lists the newest entities of a firm from companies_list_idx, sorting nothing', async () => {
    const companies = new CompaniesRepository(database.db);
    for (const descending of [true, false]) {
      sent.length = 0;
      const { rows, total } = await companies.list(firmScope(firmId), {
        search: '',
        page: 1,
        perPage: 20,
        includeInactive: false,
        descending,
      });
      expect(rows).toHaveLength(20);
      expect(total).toBe(12_000 - 300);
      const plan = await planOf(/^select .* from "companies" .* order by/, { firmId });
      expect(indexesOf(plan)).toEqual(['companies_list_idx']);
      expect(nodeTypesOf(plan)).not.toContain('Sort');
    }
  });

  it("reads a firm's owners from company_owners_firm_company_idx for a group advisor's list", async () => {
    const [group] = await queryAcrossFirms<{ id: string }>(
      database.pool,
      `insert into firm_groups (firm_id, name) values ($1, 'East') returning id`,
      [firmId],
    );
    sent.length = 0;
    await new CompaniesRepository(database.db).list(firmScope(firmId), {
      search: '',
      page: 1,
      perPage: 20,
      includeInactive: false,
      descending: true,
      firmGroup: { id: group?.id as string },
    });
    const plan = await planOf(/^select .* from "companies" .* order by/, { firmId });
    expect(indexesOf(plan)).toContain('company_owners_firm_company_idx');
    expect(indexesOf(plan)).toContain('companies_list_idx');
  });

  it('finds what the retention job deletes through the expiry and revocation indexes', async () => {
    sent.length = 0;
    await new RetentionJob(database.db, pino({ level: 'silent' })).run(new Date(), 1_000);
    const expired = await planOf(/^delete from refresh_tokens .* expires_at </s, 'across firms');
    expect(indexesOf(expired)).toEqual(['refresh_tokens_expires_idx']);
    const revoked = await planOf(/^delete from refresh_tokens .* revoked_at </s, 'across firms');
    expect(indexesOf(revoked)).toEqual(['refresh_tokens_revoked_idx']);
    const secrets = await planOf(/^delete from one_time_secrets/, 'across firms');
    expect(indexesOf(secrets)).toEqual(['one_time_secrets_expires_idx']);
    for (const plan of [expired, revoked, secrets]) expect(nodeTypesOf(plan)).not.toContain('Seq Scan');
  });
});
