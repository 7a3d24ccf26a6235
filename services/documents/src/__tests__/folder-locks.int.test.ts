import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents } from '@portico/proto';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { ItemsRepository } from '../items/items.repository.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

/**
 * A folder is not deleted from under files being filed into it (an upload, a split's parts): the delete
 * waits for the writer and takes its files with it, so no live item is left under a folder that is gone.
 * (The other way round, an upload after a delete that holds the folder makes the folder again.) And a
 * folder moved to another company deletes the objects of what it removed, not of what left it meanwhile.
 */
describe('deleting or moving a folder while something is written into it', () => {
  let h: DocumentsHarness;
  const actor = () => h.actorOf(h.firm, 'partner');
  const companyId = () => h.firm.companies.individual?.id as string;
  /** Live items whose folder is not a live folder (the root aside). */
  const orphans = async () =>
    h.documents.query<{ name: string }>(
      `select i.name from items i
        where i.company_id = $1 and i.deleted_at is null and i.folder <> ''
          and not exists (select 1 from items f
                           where f.company_id = i.company_id and f.deleted_at is null and f.type = 'folder'
                             and (case when f.folder = '' then '' else f.folder end) || '/' || f.name = i.folder)`,
      [companyId()],
    );

  beforeAll(async () => {
    h = await startDocumentsHarness('folder_locks', { bulk_upload_processor: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('waits for the upload, then deletes what it filed', async () => {
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: 'Race' },
      { actor: actor() },
    );
    // The upload's filing transaction is held open once its files are written.
    const repo = h.documents.provider(ItemsRepository);
    const insertFiles = repo.insertFiles.bind(repo);
    const filed = gate();
    const release = gate();
    repo.insertFiles = (async (...args: Parameters<ItemsRepository['insertFiles']>) => {
      const ids = await insertFiles(...args);
      filed.open();
      await release.opened;
      return ids;
    }) as ItemsRepository['insertFiles'];
    try {
      const uploading = h.upload(
        actor(),
        companyId(),
        [{ name: 'late.pdf', body: Buffer.from('%PDF-1.4\n%%EOF\n') }],
        {
          path: '/Race',
        },
      );
      await filed.opened;
      const deleting = h.bus.request(
        Documents.deletePath,
        { companyId: companyId(), path: '/Race' },
        { actor: actor() },
      );
      expect(await settledWithin(deleting, 1_500)).toBe(false);
      release.open();
      await uploading;
      await deleting;
    } finally {
      repo.insertFiles = insertFiles;
      release.open();
    }
    expect(await orphans()).toEqual([]);
  });
  it("waits for a split's parts, then deletes them with the folder", async () => {
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: 'Split race' },
      { actor: actor() },
    );
    const res = await h.upload(actor(), companyId(), [{ name: 'bundle.pdf', body: await pdf(3) }], {
      path: '/Split race',
      documentType: 'bulk_document',
    });
    // The split's filing transaction is held open once its first part is written.
    const extracted = h.documents.provider(ExtractedRepository);
    const insert = extracted.insert.bind(extracted);
    const filed = gate();
    const release = gate();
    extracted.insert = (async (...args: Parameters<ExtractedRepository['insert']>) => {
      const row = await insert(...args);
      filed.open();
      await release.opened;
      return row;
    }) as ExtractedRepository['insert'];
    try {
      const splitting = h.bus.request(
        Documents.splitDocuments,
        {
          id: res.files[0]?.extractedDocumentId as string,
          companyId: companyId(),
          documents: [
            { name: 'Part A', pages: '1' },
            { name: 'Part B', pages: '2-3' },
          ],
        },
        { actor: actor() },
      );
      await filed.opened;
      const deleting = h.bus.request(
        Documents.deletePath,
        { companyId: companyId(), path: '/Split race' },
        { actor: actor() },
      );
      expect(await settledWithin(deleting, 1_500)).toBe(false);
      release.open();
      await splitting;
      await deleting;
    } finally {
      extracted.insert = insert;
      release.open();
    }
    expect(await orphans()).toEqual([]);
  });

  it('moving a folder to another company deletes the objects of the rows it removed, not of a file deleted meanwhile', async () => {
    const otherCompany = h.firm.companies.llc?.id as string;
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: 'Moving' },
      { actor: actor() },
    );
    await h.upload(
      actor(),
      companyId(),
      [
        { name: 'kept.pdf', body: await pdf(1) },
        { name: 'moved.pdf', body: await pdf(1) },
      ],
      { path: '/Moving' },
    );
    const keyOf = async (name: string) =>
      (
        await h.documents.query<{ storage_key: string }>(
          `select storage_key from items where company_id = $1 and folder = '/Moving' and name = $2`,
          [companyId(), name],
        )
      )[0]?.storage_key as string;
    const kept = await keyOf('kept.pdf');
    const moved = await keyOf('moved.pdf');
    // The move is held after its copies, just before it removes the rows it moved.
    const repo = h.documents.provider(ItemsRepository);
    const removeMoved = repo.removeMoved.bind(repo);
    const reached = gate();
    const release = gate();
    repo.removeMoved = (async (...args: Parameters<ItemsRepository['removeMoved']>) => {
      reached.open();
      await release.opened;
      return removeMoved(...args);
    }) as ItemsRepository['removeMoved'];
    try {
      const moving = h.bus.request(
        Documents.moveItem,
        {
          companyId: companyId(),
          oldPath: '/Moving',
          newPath: '',
          deleteOldPath: true,
          isFolder: true,
          newCompanyId: otherCompany,
        },
        { actor: actor() },
      );
      await reached.opened;
      // Meanwhile one of its files is deleted: its row stays here, deleted, and can be restored.
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: companyId(), path: '/Moving', documentName: 'kept.pdf', isFolder: false },
        { actor: actor() },
      );
      release.open();
      await moving;
    } finally {
      repo.removeMoved = removeMoved;
      release.open();
    }
    expect(await h.store.head(moved)).toBeUndefined();
    expect(await h.store.head(kept)).toBeDefined();
    await h.bus.request(
      Documents.restoreDeletedDocument,
      { companyId: companyId(), path: '/Moving/kept.pdf' },
      { actor: actor() },
    );
    const link = await h.bus.request(
      Documents.downloadDocument,
      { companyId: companyId(), link: '/Moving/kept.pdf', isDownload: true },
      { actor: actor() },
    );
    expect((await fetch(link.document?.data?.link as string)).status).toBe(200);
  });
});
