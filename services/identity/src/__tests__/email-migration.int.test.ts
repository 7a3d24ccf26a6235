import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isUniqueViolation, openDatabase, runMigrations } from '@portico/platform';
import { createServiceDatabase, queryAcrossFirms, uniqueDatabaseName } from '@portico/platform/testing';
import { schema } from '../schema.js';
import { MIGRATIONS_FOLDER } from '../start.js';
import { UsersRepository } from '../users/users.repository.js';

/**
 * Migration 0004 on a database holding emails stored before every write lower-cased them: they are
 * lower-cased, found by the addresses that found them before, and stay unique among live users.
 */
describe('sign-in emails stored lower-cased (migration 0004)', () => {
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let before: string;
  let firmId: string;

  const query = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryAcrossFirms<T>(database.pool, text, params);

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('identity_emails'),
    );
    database = openDatabase(url, schema, { max: 2 });
    // The migrations up to 0003, as a database of the previous release has them.
    before = await mkdtemp(join(tmpdir(), 'identity-migrations-'));
    await cp(MIGRATIONS_FOLDER, before, { recursive: true });
    const journalPath = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ idx: number }> };
    journal.entries = journal.entries.filter((entry) => entry.idx <= 3);
    await writeFile(journalPath, JSON.stringify(journal));
    await runMigrations(database, before);
    const [firm] = await query<{ id: string }>(
      `insert into firms (id, firm_id, name, slug) select g, g, 'Old', 'old' from gen_random_uuid() g returning id`,
    );
    firmId = firm?.id as string;
    await query(
      `insert into users (uid, firm_id, email, deleted_at) values
         ('mixed', $1, 'Mixed.Case@Example.COM', null),
         ('plain', $1, 'plain@example.com', null),
         ('gone-upper', $1, 'Gone@Example.com', now()),
         ('gone-lower', $1, 'gone@example.com', now())`,
      [firmId],
    );
    await runMigrations(database, MIGRATIONS_FOLDER);
  });
  afterAll(async () => {
    await database.close();
    await rm(before, { recursive: true, force: true });
  });

  it('lower-cases stored emails, deleted users of one address included', async () => {
    const rows = await query<{ uid: string; email: string }>('select uid, email from users order by uid');
    expect(rows).toEqual([
      { uid: 'gone-lower', email: 'gone@example.com' },
      { uid: 'gone-upper', email: 'gone@example.com' },
      { uid: 'mixed', email: 'mixed.case@example.com' },
      { uid: 'plain', email: 'plain@example.com' },
    ]);
  });

  it('finds a live user by the address in any case, and no deleted one', async () => {
    const users = new UsersRepository(database.db);
    expect((await users.findLiveByEmail('MIXED.case@example.com'))?.uid).toBe('mixed');
    expect((await users.findLiveByEmail('Mixed.Case@Example.COM'))?.uid).toBe('mixed');
    expect(await users.findLiveByEmail('gone@example.com')).toBeUndefined();
  });

  it('keeps an address to one live user', async () => {
    const insert = (uid: string, email: string) =>
      query(`insert into users (uid, firm_id, email) values ($1, $2, $3)`, [uid, firmId, email]);
    const refused = await insert('again', 'mixed.case@example.com').catch((err: unknown) => err);
    expect(isUniqueViolation(refused)).toBe(true);
    // A deleted user's address may be taken again, as before.
    await insert('back', 'gone@example.com');
  });
});
