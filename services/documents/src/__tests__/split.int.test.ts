import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { create } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { AppError, createLogger, openDatabase } from '@portico/platform';
import { Documents, SplitDocumentsRequestSchema } from '@portico/proto';
import { PDFDocument, PDFName } from 'pdf-lib';
import { AccessClient } from '../access/access.client.js';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { ExtractedService } from '../extracted/extracted.service.js';
import { ItemsRepository } from '../items/items.repository.js';
import { Messages } from '../messages.js';
import { schema } from '../schema.js';
import type { ObjectStore } from '../storage/object-store.js';
import { S3ObjectStore } from '../storage/s3.object-store.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

describe('splitting extracted documents', () => {
  let h: DocumentsHarness;
  let s3: S3Client;
  const actor = () => h.actorOf(h.firm, 'partner');
  const company = () => h.firm.companies.llc?.id as string;

  beforeAll(async () => {
    h = await startDocumentsHarness('split', { bulk_upload_processor: true });
    s3 = new S3Client({
      endpoint: h.s3.endpoint,
      region: h.s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: h.s3.accessKeyId, secretAccessKey: h.s3.secretAccessKey },
    });
  });
  afterAll(async () => {
    s3.destroy();
    await h.stop();
  });

  /** A bulk upload of a PDF with `pages` pages; answers its extracted document's id. */
  async function bulk(name: string, pages = 5) {
    const res = await h.upload(actor(), company(), [{ name, body: await pdf(pages) }], {
      documentType: 'bulk_document',
    });
    return res.files[0]?.extractedDocumentId as string;
  }

  const request = (id: string, documents: { name: string; pages: string }[]) =>
    create(SplitDocumentsRequestSchema, { id, companyId: company(), documents });
  const split = (id: string, documents: { name: string; pages: string }[]) =>
    h.bus.request(Documents.splitDocuments, request(id, documents), { actor: actor() });

  /** What the company holds: its objects in storage and its rows, to prove a refusal wrote nothing. */
  async function holdings() {
    const listed = await s3.send(
      new ListObjectsV2Command({
        Bucket: h.s3.bucket,
        Prefix: `firms/${h.firm.firmId}/companies/${company()}/files/`,
      }),
    );
    const [rows] = await h.documents.query<{ items: number; extracted: number }>(
      `select (select count(*)::int from items where company_id = $1) as items,
              (select count(*)::int from extracted_documents where company_id = $1) as extracted`,
      [company()],
    );
    return {
      objects: (listed.Contents ?? []).map((o) => o.Key).sort(),
      items: rows?.items ?? 0,
      extracted: rows?.extracted ?? 0,
    };
  }

  const s3Options = () => ({
    endpoint: h.s3.endpoint,
    bucket: h.s3.bucket,
    region: h.s3.region,
    accessKeyId: h.s3.accessKeyId,
    secretAccessKey: h.s3.secretAccessKey,
  });

  const statusOf = async (id: string) =>
    (await h.bus.request(Documents.getExtractedDocument, { id, companyId: company() }, { actor: actor() }))
      .status;

  it('answers INVALID, writing nothing, for a PDF whose damage shows only in its pages', async () => {
    // Opens, but its second page has no MediaBox of its own or inherited.
    const damaged = await PDFDocument.create();
    damaged.addPage([612, 792]);
    damaged.addPage([612, 792]).node.delete(PDFName.of('MediaBox'));
    const res = await h.upload(
      actor(),
      company(),
      [{ name: 'damaged.pdf', body: Buffer.from(await damaged.save()) }],
      { documentType: 'bulk_document' },
    );
    const id = res.files[0]?.extractedDocumentId as string;
    expect(id).toBeTruthy();
    const before = await holdings();
    await expect(split(id, [{ name: 'Damaged A', pages: '1-2' }])).rejects.toMatchObject({
      status: 400,
      message: Messages.invalidFiles,
    });
    // Ranges that could never be read are refused before the file is read.
    await expect(split(id, [{ name: 'Damaged B', pages: '2-1' }])).rejects.toMatchObject({
      status: 400,
      message: Messages.badPages,
    });
    expect(await holdings()).toEqual(before);
  });

  it('splits a document once; the second split is refused and creates no more parts', async () => {
    const id = await bulk('twice.pdf');
    const first = await split(id, [{ name: 'Twice A', pages: '1-2' }]);
    expect(first.documents.map((d) => d.name)).toEqual(['Twice A.pdf']);
    const before = await holdings();
    await expect(split(id, [{ name: 'Twice B', pages: '3' }])).rejects.toMatchObject({
      status: 409,
      message: Messages.alreadySplit,
    });
    expect(await holdings()).toEqual(before);
  });

  it("frees the name of the source it hides for uploads, folders and renames; the split's own re-read still finds the source", async () => {
    const as = { actor: actor() };
    await h.bus.request(Documents.createFolder, { companyId: company(), name: 'Scans' }, as);
    const res = await h.upload(actor(), company(), [{ name: 'Scan.pdf', body: await pdf(3) }], {
      documentType: 'bulk_document',
      path: '/Scans',
    });
    const id = res.files[0]?.extractedDocumentId as string;
    await split(id, [
      { name: 'Scan A', pages: '1' },
      { name: 'Scan B', pages: '2-3' },
    ]);
    // Nothing named Scan.pdf is shown in the folder: a rename onto it, a folder and an upload of it are taken.
    const renamed = await h.bus.request(
      Documents.renameItem,
      { companyId: company(), path: '/Scans', itemName: 'Scan A.pdf', newName: 'Scan' },
      as,
    );
    expect(renamed.document?.link).toBe('/Scans/Scan.pdf');
    await h.bus.request(Documents.deletePath, { companyId: company(), path: '/Scans/Scan.pdf' }, as);
    const folder = await h.bus.request(
      Documents.createFolder,
      { companyId: company(), path: '/Scans', name: 'Scan.pdf' },
      as,
    );
    expect(folder.document?.link).toBe('/Scans/Scan.pdf');
    await h.bus.request(Documents.deletePath, { companyId: company(), path: '/Scans/Scan.pdf' }, as);
    const again = await h.upload(actor(), company(), [{ name: 'Scan.pdf', body: await pdf(1) }], {
      path: '/Scans',
    });
    expect(again.files[0]).toMatchObject({ isDuplicate: false, documentLocation: '/Scans/Scan.pdf' });
    expect((await h.list(actor(), company(), '/Scans')).documents.map((d) => d.name).sort()).toEqual([
      'Scan B.pdf',
      'Scan.pdf',
    ]);
    // The path opens what is shown there now (one page), not the hidden source (three).
    const link = await h.bus.request(
      Documents.downloadDocument,
      { companyId: company(), link: '/Scans/Scan.pdf', isDownload: true },
      as,
    );
    const opened = await PDFDocument.load(
      await (await fetch(link.document?.data?.link as string)).arrayBuffer(),
    );
    expect(opened.getPageCount()).toBe(1);
    // The split reads its source again by its id, hidden, whatever holds its name now.
    await expect(split(id, [{ name: 'Scan C', pages: '1' }])).rejects.toMatchObject({
      status: 409,
      message: Messages.alreadySplit,
    });
    expect(await statusOf(id)).toBe('split_succeeded');
  });

  it('holds names with one index, under the name the schema gives it, that skips hidden rows', async () => {
    // Migration 0012 builds it under a temporary name before dropping the old one, then renames it.
    const db = openDatabase(h.documents.databaseUrl, schema, { max: 1 });
    try {
      const { rows } = await db.pool.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes
          where tablename = 'items' and indexname like 'items\\_live\\_path%'`,
      );
      expect(rows.map((r) => r.indexname)).toEqual(['items_live_path_idx']);
      expect(rows[0]?.indexdef).toMatch(
        /^CREATE UNIQUE INDEX .* WHERE \(\(deleted_at IS NULL\) AND \(NOT hidden\)\)$/,
      );
    } finally {
      await db.close();
    }
  });

  it('of two splits of one document at once, exactly one succeeds and the other leaves nothing', async () => {
    const id = await bulk('race.pdf');
    const before = await holdings();
    const results = await Promise.allSettled([
      split(id, [
        { name: 'Race A1', pages: '1-2' },
        { name: 'Race A2', pages: '3-5' },
      ]),
      split(id, [
        { name: 'Race B1', pages: '1' },
        { name: 'Race B2', pages: '2-5' },
      ]),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toMatchObject({ status: 409, message: Messages.alreadySplit });
    // The winner's two parts, and none of the loser's, in storage and in the tree.
    const after = await holdings();
    expect(after.objects).toHaveLength(before.objects.length + 2);
    expect(after.items).toBe(before.items + 2);
    expect(after.extracted).toBe(before.extracted + 2);
    expect(await statusOf(id)).toBe('split_succeeded');
  });

  it('refuses to split a document whose file was deleted', async () => {
    const id = await bulk('gone.pdf');
    await h.bus.request(
      Documents.deleteDocument,
      { companyId: company(), path: '', documentName: 'gone.pdf', isFolder: false },
      { actor: actor() },
    );
    const before = await holdings();
    await expect(split(id, [{ name: 'Gone A', pages: '1' }])).rejects.toMatchObject({
      status: 404,
      message: Messages.notFound,
    });
    expect(await holdings()).toEqual(before);
  });

  it('refuses a range past the last page at once, however large, and writes nothing', async () => {
    const id = await bulk('range.pdf');
    const before = await holdings();
    const started = Date.now();
    for (const pages of ['6', '1-999999999', '1-99999999999999999999'])
      await expect(split(id, [{ name: 'Range', pages }])).rejects.toMatchObject({
        status: 400,
        message: Messages.pageOutOfRange(5),
      });
    // A valid first part is not written when a later one is refused.
    await expect(
      split(id, [
        { name: 'Range A', pages: '1-2' },
        { name: 'Range B', pages: '3-99999999999999999999' },
      ]),
    ).rejects.toMatchObject({ status: 400, message: Messages.pageOutOfRange(5) });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await holdings()).toEqual(before);
    expect(await statusOf(id)).toBe('review_required');
  });

  it('refuses a part whose path would be too long, and leaves nothing of the others', async () => {
    // A source deep enough that a long part name passes the 2,000 characters a path may have.
    let folder = '';
    for (let level = 0; level < 8; level++) {
      const name = `${level}${'d'.repeat(230)}`;
      await h.bus.request(
        Documents.createFolder,
        { companyId: company(), path: folder, name },
        { actor: actor() },
      );
      folder = `${folder}/${name}`;
    }
    const res = await h.upload(actor(), company(), [{ name: 'deep.pdf', body: await pdf(3) }], {
      documentType: 'bulk_document',
      path: folder,
    });
    const id = res.files[0]?.extractedDocumentId as string;
    const before = await holdings();
    await expect(
      split(id, [
        { name: 'Short', pages: '1' },
        { name: 'p'.repeat(200), pages: '2-3' },
      ]),
    ).rejects.toMatchObject({ status: 400, message: Messages.pathTooLong });
    expect(await holdings()).toEqual(before);
    expect(await statusOf(id)).toBe('review_required');
  });

  it('copies the parts of a split folder, and not the source the split hid', async () => {
    await h.bus.request(
      Documents.createFolder,
      { companyId: company(), name: 'Bundles' },
      { actor: actor() },
    );
    const res = await h.upload(actor(), company(), [{ name: 'pack.pdf', body: await pdf(3) }], {
      documentType: 'bulk_document',
      path: '/Bundles',
    });
    await split(res.files[0]?.extractedDocumentId as string, [{ name: 'Pack A', pages: '1-3' }]);
    const copy = await h.bus.request(
      Documents.moveItem,
      { companyId: company(), oldPath: '/Bundles', newPath: '', deleteOldPath: false, isFolder: true },
      { actor: actor() },
    );
    const copied = await h.list(actor(), company(), copy.document?.link as string);
    expect(copied.documents.map((d) => d.name)).toEqual(['Pack A.pdf']);
    const [stored] = await h.documents.query<{ n: number }>(
      `select count(*)::int as n from items where company_id = $1 and folder = $2`,
      [company(), copy.document?.link],
    );
    expect(stored?.n).toBe(1);
  });

  it('deletes, restores and removes an extracted document with its file', async () => {
    const get = (id: string) =>
      h.bus.request(Documents.getExtractedDocument, { id, companyId: company() }, { actor: actor() });
    const remove = (path: string) =>
      h.bus.request(Documents.deletePath, { companyId: company(), path }, { actor: actor() });
    const restore = (path: string) =>
      h.bus.request(Documents.restoreDeletedDocument, { companyId: company(), path }, { actor: actor() });
    const id = await bulk('follows.pdf');
    // Deleted from the tree: the extracted document goes too; restored from the tree, it is back.
    await remove('/follows.pdf');
    await expect(get(id)).rejects.toMatchObject({ status: 404 });
    await restore('/follows.pdf');
    expect(await get(id)).toMatchObject({ status: 'review_required', documentLocation: '/follows.pdf' });
    // Deleted as an extracted document: its file goes; restoring the file brings both back.
    await h.bus.request(Documents.deleteExtractedDocument, { id, companyId: company() }, { actor: actor() });
    expect((await h.list(actor(), company())).documents.map((d) => d.name)).not.toContain('follows.pdf');
    await restore('/follows.pdf');
    expect(await get(id)).toMatchObject({ documentLocation: '/follows.pdf' });
    // Moved to another company: the file there is a new one, and the extracted document here is gone.
    await h.bus.request(
      Documents.moveItem,
      {
        companyId: company(),
        oldPath: '/follows.pdf',
        newPath: '',
        deleteOldPath: true,
        newCompanyId: h.firm.companies.individual?.id as string,
      },
      { actor: actor() },
    );
    await expect(get(id)).rejects.toMatchObject({ status: 404 });
    const [left] = await h.documents.query<{ n: number }>(
      'select count(*)::int as n from extracted_documents where id = $1',
      [id],
    );
    expect(left?.n).toBe(0);
  });

  it("splits and removes a document named by its id alone (spec 2 s.7), and not another firm's", async () => {
    const id = await bulk('by id.pdf', 3);
    const stranger = { actor: h.actorOf(h.other, 'partner') };
    const parts = [{ name: 'By id A', pages: '1-2' }];
    const before = await holdings();
    // Another firm's partner, with or without a company: not found, and nothing written.
    for (const companyId of ['', company()])
      await expect(
        h.bus.request(Documents.splitDocuments, { id, companyId, documents: parts }, stranger),
      ).rejects.toMatchObject({ status: 404 });
    await expect(h.bus.request(Documents.deleteExtractedDocument, { id }, stranger)).rejects.toMatchObject({
      status: 404,
    });
    // A company sent that is not the document's: not found either.
    await expect(
      h.bus.request(
        Documents.splitDocuments,
        { id, companyId: h.firm.companies.individual?.id as string, documents: parts },
        { actor: actor() },
      ),
    ).rejects.toMatchObject({ status: 404 });
    expect(await holdings()).toEqual(before);
    const res = await h.bus.request(Documents.splitDocuments, { id, documents: parts }, { actor: actor() });
    expect(res.documents.map((d) => d.name)).toEqual(['By id A.pdf']);
    const part = res.documents[0]?.id as string;
    expect(await h.bus.request(Documents.deleteExtractedDocument, { id: part }, { actor: actor() })).toEqual(
      expect.objectContaining({ message: Messages.removed }),
    );
    expect((await h.list(actor(), company())).documents.map((d) => d.name)).not.toContain('By id A.pdf');
  });

  it("keeps a part's name, and its numbered name, within the longest name", async () => {
    const id = await bulk('long parts.pdf', 2);
    const long = 'p'.repeat(255);
    const res = await split(id, [
      { name: long, pages: '1' },
      { name: long, pages: '2' },
    ]);
    expect(res.documents.map((d) => d.name)).toEqual([
      `${'p'.repeat(251)}.pdf`,
      `${'p'.repeat(247)} (1).pdf`,
    ]);
  });

  it('names a part without a name after its source and pages, sanitised as every name is', async () => {
    const id = await bulk('ledger.pdf');
    const res = await split(id, [{ name: '', pages: '1,3-4' }]);
    expect(res.documents.map((d) => d.name)).toEqual(['ledger pages 1 3-4.pdf']);
  });

  it('numbers a part whose name another writer took between its check and its insert', async () => {
    const id = await bulk('w2s.pdf');
    // Another split's part, written after this split found 'W-2.pdf' free: the first look finds nothing.
    const taken = await bulk('other.pdf');
    await split(taken, [{ name: 'W-2', pages: '1' }]);
    const db = openDatabase(h.documents.databaseUrl, schema, { max: 2 });
    try {
      const items = new ItemsRepository(db.db);
      const realTakenAmong = items.takenAmong.bind(items);
      let looks = 0;
      items.takenAmong = (async (...args: Parameters<ItemsRepository['takenAmong']>) => {
        looks += 1;
        return looks === 1 ? new Set<number>() : realTakenAmong(...args);
      }) as ItemsRepository['takenAmong'];
      const service = new ExtractedService(
        new ExtractedRepository(db.db),
        items,
        new AccessClient(h.bus),
        new S3ObjectStore(s3Options()),
        createLogger('split-test', 'silent'),
      );
      const res = await service.split(actor(), request(id, [{ name: 'W-2', pages: '2' }]));
      expect(res.documents.map((d) => d.name)).toEqual(['W-2 (1).pdf']);
      expect(await statusOf(id)).toBe('split_succeeded');
    } finally {
      await db.close();
    }
  });

  it('numbers many parts of one name from one read of the names taken, as a look at each name did', async () => {
    // Taken in the folder already: 'W-2.pdf' and 'W-2 (1).pdf' (the test before), and 'w-2 (3).pdf'.
    await h.upload(actor(), company(), [{ name: 'w-2 (3).pdf', body: await pdf(1) }]);
    const parts = 30;
    const id = await bulk('many w2s.pdf', parts);
    // Each look at one name was a query (two when free), in the transaction that holds the folder: a
    // split of 200 parts all named 'W-2' made 20,100 of them.
    const items = h.documents.provider(ItemsRepository);
    const looks = jest.spyOn(items, 'findChild');
    try {
      const res = await split(
        id,
        Array.from({ length: parts }, (_, i) => ({ name: 'W-2', pages: String(i + 1) })),
      );
      const numbers = [2, ...Array.from({ length: parts - 1 }, (_, i) => i + 4)];
      expect(res.documents.map((d) => d.name)).toEqual(numbers.map((n) => `W-2 (${n}).pdf`));
      expect(looks.mock.calls.length).toBeLessThan(5);
    } finally {
      looks.mockRestore();
    }
  });

  it("finds a file's extracted document by an index on its item, not by reading the table", async () => {
    // Deletes, restores and moves to another company follow the file to its extracted document by
    // (firm_id, item_id), in the transaction holding the file's folder: a scan of every row grew with them.
    const db = openDatabase(h.documents.databaseUrl, schema, { max: 1 });
    try {
      const { rows } = await db.pool.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where tablename = 'extracted_documents'`,
      );
      expect(rows).toContainEqual({
        indexname: 'extracted_item_idx',
        indexdef: expect.stringMatching(/USING btree \(firm_id, item_id\)$/),
      });
    } finally {
      await db.close();
    }
  });

  describe('with a store that fails', () => {
    const database = () => openDatabase(h.documents.databaseUrl, schema, { max: 2 });
    /** The service as the module builds it, on the real database and identity, with the given store. */
    function serviceWith(db: ReturnType<typeof database>, store: ObjectStore) {
      const log = createLogger('split-test', 'silent');
      const service = new ExtractedService(
        new ExtractedRepository(db.db),
        new ItemsRepository(db.db),
        new AccessClient(h.bus),
        store,
        log,
      );
      return { service, warn: jest.spyOn(log, 'warn') };
    }

    it('deletes the parts already written when a later PUT fails, and leaves no rows', async () => {
      /** The real store, but its second PUT fails, as a store dropping out halfway does. */
      class SecondPutFails extends S3ObjectStore {
        readonly puts: string[] = [];
        override async put(key: string, body: Buffer, contentType: string) {
          this.puts.push(key);
          if (this.puts.length === 2) throw new Error('socket hang up');
          await super.put(key, body, contentType);
        }
      }
      const id = await bulk('partial.pdf');
      const db = database();
      const store = new SecondPutFails(s3Options());
      try {
        const { service, warn } = serviceWith(db, store);
        const before = await holdings();
        await expect(
          service.split(
            actor(),
            request(id, [
              { name: 'Partial A', pages: '1' },
              { name: 'Partial B', pages: '2' },
              { name: 'Partial C', pages: '3' },
            ]),
          ),
        ).rejects.toThrow('socket hang up');
        expect(store.puts).toHaveLength(2);
        expect(await store.head(store.puts[0] as string)).toBeUndefined();
        expect(await holdings()).toEqual(before);
        expect(warn).not.toHaveBeenCalled();
        expect(await statusOf(id)).toBe('review_required');
        // The source is still splittable once the store is back.
        const res = await split(id, [{ name: 'Partial A', pages: '1' }]);
        expect(res.documents).toHaveLength(1);
      } finally {
        store.destroy();
        await db.close();
      }
    });

    it('logs a part it cannot delete and still answers the first failure', async () => {
      class NothingSticks extends S3ObjectStore {
        override async put(): Promise<void> {
          throw new Error('socket hang up');
        }
        override async delete(): Promise<void> {
          throw new Error('connection refused');
        }
      }
      const id = await bulk('stuck.pdf');
      const db = database();
      const store = new NothingSticks(s3Options());
      try {
        const { service, warn } = serviceWith(db, store);
        await expect(service.split(actor(), request(id, [{ name: 'Stuck', pages: '1' }]))).rejects.toThrow(
          'socket hang up',
        );
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]?.[0]).toMatchObject({ key: expect.stringContaining('/files/') });
      } finally {
        store.destroy();
        await db.close();
      }
    });

    it('answers a storage read failure as the store failed, not as an INVALID file', async () => {
      class ReadFails extends S3ObjectStore {
        override async read(): Promise<Buffer> {
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        }
      }
      const id = await bulk('unreadable.pdf');
      const db = database();
      const store = new ReadFails(s3Options());
      try {
        const { service } = serviceWith(db, store);
        const err = await service
          .split(actor(), request(id, [{ name: 'Unreadable', pages: '1' }]))
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ message: 'read ECONNRESET' });
        expect(err instanceof AppError && err.status === 400).toBe(false);
      } finally {
        store.destroy();
        await db.close();
      }
    });
  });

  it('still refuses a PDF that cannot be opened as INVALID', async () => {
    const id = await bulk('broken.pdf');
    const [row] = await h.documents.query<{ storage_key: string; size: string }>(
      'select storage_key, size from items where company_id = $1 and name = $2',
      [company(), 'broken.pdf'],
    );
    // Of the same size: the store refuses a file whose size changed after it was checked.
    const broken = Buffer.alloc(Number(row?.size), ' ');
    broken.write('%PDF-1.7 not really');
    const store = new S3ObjectStore(s3Options());
    try {
      await store.put(row?.storage_key as string, broken, 'application/pdf');
    } finally {
      store.destroy();
    }
    await expect(split(id, [{ name: 'Broken', pages: '1' }])).rejects.toMatchObject({
      status: 400,
      message: Messages.invalidFiles,
    });
  });
});
