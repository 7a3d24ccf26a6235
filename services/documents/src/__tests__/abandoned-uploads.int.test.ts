import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '@portico/platform';
import { Documents } from '@portico/proto';
import { schema } from '../schema.js';
import { S3ObjectStore } from '../storage/s3.object-store.js';
import { sweepAbandonedUploads } from '../uploads/abandoned-uploads.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

describe('uploads never processed', () => {
  let h: DocumentsHarness;
  let database: ReturnType<typeof openDatabase<typeof schema>>;
  let store: S3ObjectStore;
  const actor = () => h.actorOf(h.firm, 'partner');
  const company = () => h.firm.companies.llc?.id as string;

  beforeAll(async () => {
    h = await startDocumentsHarness('abandoned');
    database = openDatabase(h.documents.databaseUrl, schema, { max: 2 });
    store = new S3ObjectStore({
      endpoint: h.s3.endpoint,
      bucket: h.s3.bucket,
      region: h.s3.region,
      accessKeyId: h.s3.accessKeyId,
      secretAccessKey: h.s3.secretAccessKey,
    });
  });
  afterAll(async () => {
    store.destroy();
    await database.close();
    await h.stop();
  });

  /** Upload links for these names, each PUT with a one-page PDF; answers the upload ids. */
  async function uploaded(names: string[]) {
    const body = await pdf();
    const { links } = await h.bus.request(
      Documents.createUploadLinks,
      { companyId: company(), files: names.map((name) => ({ name, size: BigInt(body.length) })) },
      { actor: actor() },
    );
    for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    return links.map((l) => l.uploadId);
  }
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

    const done = await sweepAbandonedUploads(new UploadsRepository(database.db), store);
    expect(done).toEqual({ removed: 1, forgotten: 1 });
    expect(await store.head(abandonedKey)).toBeUndefined();
    expect(await rows([abandoned as string, filed as string])).toBe(0);
    // Sent after the sweep, the abandoned upload is unknown.
    await expect(process([abandoned as string])).rejects.toMatchObject({ status: 404 });
    // A link still within its time is untouched and can still be processed; the filed file stays.
    expect(await store.head(freshKey)).toBeDefined();
    expect((await process([fresh as string])).files[0]?.documentName).toBe('fresh.pdf');
    expect(await store.head(filedKey)).toBeDefined();
    const names = (await h.list(actor(), company())).documents.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['fresh.pdf', 'filed.pdf']));
    expect(names).not.toContain('left.pdf');
  });

  it('keeps an upload within the hour after its link expired, for a PUT begun just in time', async () => {
    const [late] = (await uploaded(['late.pdf'])) as string[];
    await h.documents.query(`update uploads set expires_at = now() - interval '10 minutes' where id = $1`, [
      late,
    ]);
    expect(await sweepAbandonedUploads(new UploadsRepository(database.db), store)).toEqual({
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
    expect(await sweepAbandonedUploads(new UploadsRepository(database.db), store)).toMatchObject({
      removed: 1,
    });
    expect(await rows([stuck as string])).toBe(0);
  });
});
