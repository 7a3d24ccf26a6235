import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { firmScope, openDatabase } from '@portico/platform';
import { Documents } from '@portico/proto';
import { schema } from '../schema.js';
import { S3ObjectStore } from '../storage/s3.object-store.js';
import { sweepAbandonedUploads } from '../uploads/abandoned-uploads.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { withClaimedUploads } from '../uploads/uploads.service.js';
import { gate, settledWithin } from './gates.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf, png } from './samples.js';

jest.setTimeout(60_000);

describe('uploads never processed', () => {
  let h: DocumentsHarness;
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  const actor = () => h.actorOf(h.firm, 'partner');
  const company = () => h.firm.companies.llc?.id as string;
  const store = () => h.store;

  beforeAll(async () => {
    h = await startDocumentsHarness('abandoned');
    database = openDatabase(h.documents.databaseUrl, schema, { max: 2 });
  });
  afterAll(async () => {
    await database.close();
    await h.stop();
  });

  /** Upload links for these names, each PUT with `body` (a one-page PDF); answers the links. */
  async function linksFor(names: string[], body: Buffer, put = true) {
    const { links } = await h.bus.request(
      Documents.createUploadLinks,
      { companyId: company(), files: names.map((name) => ({ name, size: BigInt(body.length) })) },
      { actor: actor() },
    );
    if (put) for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    return links;
  }
  const uploaded = async (names: string[]) => (await linksFor(names, await pdf())).map((l) => l.uploadId);
  const process = (uploadIds: string[]) =>
    h.bus.request(Documents.processDocument, { companyId: company(), uploadIds }, { actor: actor() });
  const keyOf = async (id: string) =>
    (
      await h.documents.query<{ storage_key: string }>('select storage_key from uploads where id = $1', [id])
    )[0]?.storage_key as string;
  const rows = async (ids: string[]) =>
    (
      await h.documents.query<{ n: number }>('select count(*)::int as n from uploads where id = any($1)', [
        ids,
      ])
    )[0]?.n;

  it('removes the objects and rows of uploads an hour past their link, and nothing of the others', async () => {
    const [abandoned, fresh, filed] = (await uploaded(['left.pdf', 'fresh.pdf', 'filed.pdf'])) as string[];
    await process([filed as string]);
    const abandonedKey = await keyOf(abandoned as string);
    const freshKey = await keyOf(fresh as string);
    const filedKey = await keyOf(filed as string);
    // The link expired two hours ago; the filed one was processed two days ago.
    await h.documents.query(`update uploads set expires_at = now() - interval '2 hours' where id = $1`, [
      abandoned,
    ]);
    await h.documents.query(
      `update uploads set expires_at = now() - interval '2 days', consumed_at = now() - interval '2 days'
       where id = $1`,
      [filed],
    );

    const done = await sweepAbandonedUploads(new UploadsRepository(database.db), store());
    expect(done).toEqual({ removed: 1, forgotten: 1 });
    expect(await store().head(abandonedKey)).toBeUndefined();
    expect(await rows([abandoned as string, filed as string])).toBe(0);
    // Sent after the sweep, the abandoned upload is unknown.
    await expect(process([abandoned as string])).rejects.toMatchObject({ status: 404 });
    // A link still within its time is untouched and can still be processed; the filed file stays.
    expect(await store().head(freshKey)).toBeDefined();
    expect((await process([fresh as string])).files[0]?.documentName).toBe('fresh.pdf');
    expect(await store().head(filedKey)).toBeDefined();
    const names = (await h.list(actor(), company())).documents.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['fresh.pdf', 'filed.pdf']));
    expect(names).not.toContain('left.pdf');
  });

  it('keeps an upload within the hour after its link expired, for a PUT begun just in time', async () => {
    const [late] = (await uploaded(['late.pdf'])) as string[];
    await h.documents.query(`update uploads set expires_at = now() - interval '10 minutes' where id = $1`, [
      late,
    ]);
    expect(await sweepAbandonedUploads(new UploadsRepository(database.db), store())).toEqual({
      removed: 0,
      forgotten: 0,
    });
    expect((await process([late as string])).files[0]?.documentName).toBe('late.pdf');
  });

  it('leaves the rows when an object cannot be deleted, to try again at the next sweep', async () => {
    const [stuck] = (await uploaded(['stuck.pdf'])) as string[];
    await h.documents.query(`update uploads set expires_at = now() - interval '2 hours' where id = $1`, [
      stuck,
    ]);
    class DeleteFails extends S3ObjectStore {
      override async delete(): Promise<void> {
        throw new Error('connection refused');
      }
    }
    const failing = new DeleteFails({
      endpoint: h.s3.endpoint,
      bucket: h.s3.bucket,
      region: h.s3.region,
      accessKeyId: h.s3.accessKeyId,
      secretAccessKey: h.s3.secretAccessKey,
    });
    try {
      await expect(sweepAbandonedUploads(new UploadsRepository(database.db), failing)).rejects.toThrow(
        'connection refused',
      );
    } finally {
      failing.destroy();
    }
    expect(await rows([stuck as string])).toBe(1);
    expect(await sweepAbandonedUploads(new UploadsRepository(database.db), store())).toMatchObject({
      removed: 1,
    });
    expect(await rows([stuck as string])).toBe(0);
  });

  it('deletes again, once its link has expired, what was put through the link of an upload not filed', async () => {
    // A PNG named .pdf is INVALID; its object is deleted, but its link accepts one more put.
    const fake = await png();
    const [invalid] = await linksFor(['fake.pdf'], fake);
    // Processed before anything was put: nothing to file either.
    const [early] = await linksFor(['early.pdf'], await pdf(), false);
    await expect(process([invalid?.uploadId as string])).rejects.toMatchObject({ status: 400 });
    await expect(process([early?.uploadId as string])).rejects.toMatchObject({ status: 400 });
    for (const [link, body] of [
      [invalid, fake],
      [early, await pdf()],
    ] as const) {
      const put = await fetch(link?.url as string, { method: 'PUT', headers: link?.headers, body });
      expect(put.status).toBe(200);
    }
    const keys = [await keyOf(invalid?.uploadId as string), await keyOf(early?.uploadId as string)];
    for (const key of keys) expect(await store().head(key)).toBeDefined();

    // Not before the link has expired (and the hour for a put begun in time), nor forgotten as filed.
    const repo = new UploadsRepository(database.db);
    const ids = [invalid?.uploadId as string, early?.uploadId as string];
    await h.documents.query(`update uploads set consumed_at = now() - interval '2 days' where id = any($1)`, [
      ids,
    ]);
    expect(await sweepAbandonedUploads(repo, store())).toEqual({ removed: 0, forgotten: 0 });
    expect(await rows(ids)).toBe(2);
    await h.documents.query(`update uploads set expires_at = now() - interval '2 hours' where id = any($1)`, [
      ids,
    ]);
    expect(await sweepAbandonedUploads(repo, store())).toEqual({ removed: 2, forgotten: 0 });
    for (const key of keys) expect(await store().head(key)).toBeUndefined();
    expect(await rows(ids)).toBe(0);
  });

  it('deletes again a moved file put back through its link, once the link has expired', async () => {
    const body = await pdf();
    const [link] = await linksFor(['moved away.pdf'], body);
    await process([link?.uploadId as string]);
    const key = await keyOf(link?.uploadId as string);
    const other = h.firm.companies.individual?.id as string;
    await h.bus.request(
      Documents.moveItem,
      {
        companyId: company(),
        oldPath: '/moved away.pdf',
        newPath: '',
        deleteOldPath: true,
        newCompanyId: other,
      },
      { actor: actor() },
    );
    expect(await store().head(key)).toBeUndefined();
    // The link still takes the bytes: nothing names that object any more.
    const again = await fetch(link?.url as string, { method: 'PUT', headers: link?.headers, body });
    expect(again.status).toBe(200);
    const repo = new UploadsRepository(database.db);
    expect((await sweepAbandonedUploads(repo, store())).removed).toBe(0);
    await h.documents.query(`update uploads set expires_at = now() - interval '2 hours' where id = $1`, [
      link?.uploadId,
    ]);
    expect((await sweepAbandonedUploads(repo, store())).removed).toBe(1);
    expect(await store().head(key)).toBeUndefined();
    expect(await rows([link?.uploadId as string])).toBe(0);
    // The file itself lives on in the other company.
    const there = (await h.list(actor(), other)).documents.map((d) => d.name);
    expect(there).toContain('moved away.pdf');
  });

  it('marks the second of two same-named files discarded and the filed one not', async () => {
    const [first, second] = (await uploaded(['twin.pdf', 'twin.pdf'])) as string[];
    const answer = await process([first as string, second as string]);
    expect(answer.files.map((f) => !!f.isDuplicate)).toEqual([false, true]);
    const marks = await h.documents.query<{ id: string; discarded: boolean }>(
      'select id, discarded from uploads where id = any($1)',
      [[first, second]],
    );
    expect(Object.fromEntries(marks.map((m) => [m.id, m.discarded]))).toEqual({
      [first as string]: false,
      [second as string]: true,
    });
  });

  it('refuses a process call for uploads another call holds, and lets them go when that call fails', async () => {
    const [held] = (await uploaded(['held.pdf'])) as string[];
    const repo = new UploadsRepository(database.db);
    const scope = firmScope(h.firm.firmId);
    const owner = { companyId: company(), createdBy: actor().user_id };
    // Held by a call that is still checking: a second call is refused without reading the file.
    await expect(
      withClaimedUploads(repo, scope, [held as string], owner, async () => {
        await expect(process([held as string])).rejects.toMatchObject({ status: 404 });
        throw new Error('the first call fails');
      }),
    ).rejects.toThrow('the first call fails');
    // Let go: the same id can be sent again.
    expect((await process([held as string])).files[0]?.documentName).toBe('held.pdf');
    // A claim left by a call that died lapses by itself.
    const [orphan] = (await uploaded(['orphan.pdf'])) as string[];
    await h.documents.query(`update uploads set claimed_until = now() + interval '1 minute' where id = $1`, [
      orphan,
    ]);
    await expect(process([orphan as string])).rejects.toMatchObject({ status: 404 });
    await h.documents.query(`update uploads set claimed_until = now() - interval '1 second' where id = $1`, [
      orphan,
    ]);
    expect((await process([orphan as string])).files[0]?.documentName).toBe('orphan.pdf');
  });
  it('holds no row while it deletes the objects: a process call of one is answered at once, and files nothing', async () => {
    const [slow] = (await uploaded(['slow.pdf'])) as string[];
    const key = await keyOf(slow as string);
    await h.documents.query(`update uploads set expires_at = now() - interval '2 hours' where id = $1`, [
      slow,
    ]);
    const deleting = gate();
    const release = gate();
    /** The real store, whose deletes wait (as a slow store's do, up to 10 s each) until released. */
    class SlowDeletes extends S3ObjectStore {
      override async delete(key: string): Promise<void> {
        deleting.open();
        await release.opened;
        await super.delete(key);
      }
    }
    const slowStore = new SlowDeletes({
      endpoint: h.s3.endpoint,
      bucket: h.s3.bucket,
      region: h.s3.region,
      accessKeyId: h.s3.accessKeyId,
      secretAccessKey: h.s3.secretAccessKey,
    });
    try {
      const sweeping = sweepAbandonedUploads(new UploadsRepository(database.db), slowStore);
      await deleting.opened;
      // Before, the sweep held the row FOR UPDATE (and its connection) until the objects were deleted:
      // the process call waited for it, and a lock taken without waiting was refused.
      const locked = await h.documents.query<{ id: string }>(
        'select id from uploads where id = $1 for update nowait',
        [slow],
      );
      expect(locked).toHaveLength(1);
      const processing = process([slow as string]);
      expect(await settledWithin(processing, 1_000)).toBe(true);
      await expect(processing).rejects.toMatchObject({ status: 404 });
      release.open();
      expect(await sweeping).toMatchObject({ removed: 1 });
    } finally {
      release.open();
      slowStore.destroy();
    }
    expect(await rows([slow as string])).toBe(0);
    expect(await store().head(key)).toBeUndefined();
    expect((await h.list(actor(), company())).documents.map((d) => d.name)).not.toContain('slow.pdf');
  });
  it('passes over an upload a process call is still checking, and takes it once that claim has lapsed', async () => {
    const [checking] = (await uploaded(['checking.pdf'])) as string[];
    await h.documents.query(
      `update uploads set expires_at = now() - interval '2 hours', claimed_until = now() + interval '1 minute'
        where id = $1`,
      [checking],
    );
    const repo = new UploadsRepository(database.db);
    expect((await sweepAbandonedUploads(repo, store())).removed).toBe(0);
    expect(await rows([checking as string])).toBe(1);
    await h.documents.query(`update uploads set claimed_until = now() - interval '1 second' where id = $1`, [
      checking,
    ]);
    expect((await sweepAbandonedUploads(repo, store())).removed).toBe(1);
    expect(await rows([checking as string])).toBe(0);
  });
});
