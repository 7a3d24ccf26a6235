import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { acrossFirms, type DatabaseHandle, firmScope, openDatabase, rlsPolicySql } from '../db/database.js';
import { readAcrossFirms, readInFirm, scopedReader } from '../db/scoped-read.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

const notes = pgTable('notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  firmId: uuid('firm_id').notNull(),
  body: text('body').notNull(),
});
const schema = { notes };
const FIRM_A = '00000000-0000-4000-8000-00000000000a';
const FIRM_B = '00000000-0000-4000-8000-00000000000b';

describe('scoped reads: the row-level-security setting travels with each statement', () => {
  let handle: DatabaseHandle<typeof schema>;

  beforeAll(async () => {
    const url = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('scoped_read'),
    );
    // Two connections at most, so the same ones serve every test and a leaked setting would show.
    handle = openDatabase(url, schema, { max: 2 });
    await handle.pool.query(`
      create table notes (id uuid primary key default gen_random_uuid(), firm_id uuid not null, body text not null);
      ${rlsPolicySql('notes')}
    `);
    await acrossFirms(handle.db, (tx) =>
      tx.insert(notes).values([
        { firmId: FIRM_A, body: 'a1' },
        { firmId: FIRM_A, body: 'a2' },
        { firmId: FIRM_B, body: 'b1' },
      ]),
    );
  });

  afterAll(async () => {
    await handle.close();
  });

  it('a read without a firm filter sees only the scope firm rows', async () => {
    const seenByA = await readInFirm(handle.db, firmScope(FIRM_A), (reader) =>
      reader.select().from(notes).orderBy(notes.body),
    );
    expect(seenByA.map((n) => n.body)).toEqual(['a1', 'a2']);
    const seenByB = await readInFirm(handle.db, firmScope(FIRM_B), (reader) => reader.select().from(notes));
    expect(seenByB.map((n) => n.body)).toEqual(['b1']);
  });

  it('the setting ends with the statement: the same connections, unscoped, see nothing afterwards', async () => {
    await Promise.all([
      readInFirm(handle.db, firmScope(FIRM_A), (reader) => reader.select().from(notes)),
      readAcrossFirms(handle.db, (reader) => reader.select().from(notes)),
    ]);
    const [first, second] = await Promise.all([
      handle.pool.query('select count(*)::int as n from notes'),
      handle.pool.query('select count(*)::int as n from notes'),
    ]);
    expect([first.rows[0].n, second.rows[0].n]).toEqual([0, 0]);
    const settings = await handle.pool.query(
      `select current_setting('app.firm_id', true) as firm, current_setting('app.bypass_rls', true) as bypass`,
    );
    expect(settings.rows[0].firm ?? '').toBe('');
    expect(settings.rows[0].bypass ?? '').toBe('');
  });

  it('a prepared statement runs under each call own scope, many times and concurrently', async () => {
    const byBody = scopedReader(handle.db)
      .select()
      .from(notes)
      .where(eq(notes.body, sql.placeholder('body')))
      .prepare('notes_by_body');
    // Firm A finds its note; firm B asks for the same note and row-level security hides it.
    const reads = Array.from({ length: 40 }, (_, i) =>
      readInFirm(handle.db, firmScope(i % 2 ? FIRM_A : FIRM_B), () => byBody.execute({ body: 'a1' })),
    );
    const counts = (await Promise.all(reads)).map((rows) => rows.length);
    expect(counts).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? 1 : 0)));
    const across = await readAcrossFirms(handle.db, () => byBody.execute({ body: 'b1' }));
    expect(across.map((n) => n.firmId)).toEqual([FIRM_B]);
  });

  it('a failing statement answers its error and leaves the connection usable', async () => {
    const broken = scopedReader(handle.db)
      .select({ n: sql<number>`1 / (${sql.placeholder('zero')})::int` })
      .from(notes)
      .prepare('notes_divide');
    for (let i = 0; i < 3; i++) {
      await expect(
        readInFirm(handle.db, firmScope(FIRM_A), () => broken.execute({ zero: 0 })),
      ).rejects.toThrow();
    }
    const fine = await readInFirm(handle.db, firmScope(FIRM_A), () => broken.execute({ zero: 1 }));
    expect(fine).toHaveLength(2);
  });

  it('a statement that cannot be parsed fails every time, and the next reads still work', async () => {
    const misspelt = scopedReader(handle.db)
      .select({ n: sql<number>`no_such_column` })
      .from(notes)
      .prepare('notes_misspelt');
    for (let i = 0; i < 3; i++) {
      await expect(readInFirm(handle.db, firmScope(FIRM_A), () => misspelt.execute())).rejects.toThrow(
        /no_such_column/,
      );
    }
    const rows = await readInFirm(handle.db, firmScope(FIRM_A), (reader) => reader.select().from(notes));
    expect(rows).toHaveLength(2);
  });

  it('refuses to run outside a scope, and refuses a firm id that is not a UUID', async () => {
    await expect(scopedReader(handle.db).select().from(notes)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: expect.stringMatching(/outside readInFirm/) }),
    });
    expect(() => readInFirm(handle.db, firmScope("x'; drop table notes; --"), async () => 1)).toThrow(/UUID/);
  });
});
