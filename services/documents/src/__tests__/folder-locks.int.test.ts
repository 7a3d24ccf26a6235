import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents } from '@portico/proto';
import { ItemsRepository } from '../items/items.repository.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';

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
 * A folder is not deleted from under files being filed into it: the delete waits for the upload and
 * takes its files with it, so no live item is left under a folder that is gone. (The other way round,
 * an upload after a delete that holds the folder makes the folder again.)
 */
describe('deleting a folder while an upload files into it', () => {
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
    h = await startDocumentsHarness('folder_locks');
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
});
