import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Logger } from '@portico/platform';
import { Documents } from '@portico/proto';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { ItemsRepository } from '../items/items.repository.js';
import { Messages } from '../messages.js';
import type { ObjectStore } from '../storage/object-store.js';
import { LOG, OBJECT_STORE } from '../tokens.js';
import { gate, settledWithin } from './gates.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

/**
 * A folder is not deleted from under files being filed into it (an upload, a split's parts): the delete
 * waits for the writer and takes its files with it, so no live item is left under a folder that is gone.
 * (The other way round, an upload after a delete that holds the folder makes the folder again.) A
 * folder moved to another company holds what is in it while it copies, and deletes the objects of what
 * it removed, not of what left before. An upload does not file under a folder made meanwhile in another
 * case than the one it makes.
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

  /** The company's label ('here' or 'there'), folder, name and deleted flag of every row named one of `names`. */
  const placesOf = async (names: string[]) =>
    h.documents.query<{ company: string; folder: string; name: string; deleted: boolean }>(
      `select case when company_id = $1 then 'here' else 'there' end as company, folder, name,
              deleted_at is not null as deleted
         from items where company_id in ($1, $2) and name = any($3) order by name, company, folder`,
      [companyId(), h.firm.companies.llc?.id, names],
    );

  /** Holds the ItemsRepository step `step` (before it runs) until `release`; `reached` once it is there. */
  const holdRepository = (step: 'removeMoved' | 'subtree' | 'ensureFolders') => {
    const repo = h.documents.provider(ItemsRepository);
    const real = repo[step].bind(repo) as (...args: unknown[]) => Promise<unknown>;
    const reached = gate();
    const release = gate();
    let armed = true;
    (repo as unknown as Record<string, unknown>)[step] = async (...args: unknown[]) => {
      if (armed) {
        armed = false;
        reached.open();
        await release.opened;
      }
      return real(...args);
    };
    return {
      reached: reached.opened,
      release: release.open,
      restore: () => {
        release.open();
        (repo as unknown as Record<string, unknown>)[step] = real;
      },
    };
  };

  it('moving a folder to another company deletes the objects of the rows it removed, not of a file deleted before it read them', async () => {
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
    // The move holds the folder and is held before it reads (and holds) what is in it.
    const held = holdRepository('subtree');
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
      await held.reached;
      // Meanwhile one of its files is deleted: its row stays here, deleted, and can be restored.
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: companyId(), path: '/Moving', documentName: 'kept.pdf', isFolder: false },
        { actor: actor() },
      );
      held.release();
      await moving;
    } finally {
      held.restore();
    }
    expect(await h.store.head(moved)).toBeUndefined();
    expect(await h.store.head(kept)).toBeDefined();
    // Not copied: the file deleted here is not live there.
    expect(await placesOf(['kept.pdf', 'moved.pdf'])).toEqual([
      { company: 'here', folder: '/Moving', name: 'kept.pdf', deleted: true },
      { company: 'there', folder: '/Moving', name: 'moved.pdf', deleted: false },
    ]);
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

  it('moving a folder to another company holds its files: a delete, move out or rename of one waits, then finds it gone', async () => {
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: 'Held' },
      { actor: actor() },
    );
    await h.upload(
      actor(),
      companyId(),
      await Promise.all(
        ['gone.pdf', 'out.pdf', 'titled.pdf'].map(async (name) => ({ name, body: await pdf(1) })),
      ),
      { path: '/Held' },
    );
    // The move has copied the folder's rows and objects and is held before it removes them here.
    const held = holdRepository('removeMoved');
    let waited = false;
    let outcomes: PromiseSettledResult<unknown>[] = [];
    try {
      const moving = h.bus.request(
        Documents.moveItem,
        {
          companyId: companyId(),
          oldPath: '/Held',
          newPath: '',
          deleteOldPath: true,
          isFolder: true,
          newCompanyId: h.firm.companies.llc?.id as string,
        },
        { actor: actor() },
      );
      await held.reached;
      const changes = Promise.allSettled([
        h.bus.request(
          Documents.deleteDocument,
          { companyId: companyId(), path: '/Held', documentName: 'gone.pdf', isFolder: false },
          { actor: actor() },
        ),
        h.bus.request(
          Documents.moveItem,
          { companyId: companyId(), oldPath: '/Held/out.pdf', newPath: '', deleteOldPath: true },
          { actor: actor() },
        ),
        h.bus.request(
          Documents.renameItem,
          { companyId: companyId(), path: '/Held', itemName: 'titled.pdf', newName: 'retitled.pdf' },
          { actor: actor() },
        ),
      ]);
      waited = !(await settledWithin(changes, 1_500));
      held.release();
      await moving;
      outcomes = await changes;
    } finally {
      held.restore();
    }
    // Each file is in one company, as the move left it: before, the deleted file was live there and
    // restorable here, the one moved out was in both, and the rename was lost there.
    expect(await placesOf(['gone.pdf', 'out.pdf', 'titled.pdf', 'retitled.pdf'])).toEqual([
      { company: 'there', folder: '/Held', name: 'gone.pdf', deleted: false },
      { company: 'there', folder: '/Held', name: 'out.pdf', deleted: false },
      { company: 'there', folder: '/Held', name: 'titled.pdf', deleted: false },
    ]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? o.reason.status : 'done'))).toEqual([
      404, 404, 404,
    ]);
    expect(waited).toBe(true);
  });

  it('refuses an upload whose new folder another request made meanwhile in another case, filing nothing; sent again, it files there', async () => {
    const body = await pdf(1);
    const { links } = await h.bus.request(
      Documents.createUploadLinks,
      {
        companyId: companyId(),
        path: '/receipts',
        documentType: '',
        taxYear: '',
        files: [{ name: 'march.pdf', size: BigInt(body.length) }],
      },
      { actor: actor() },
    );
    for (const link of links)
      expect((await fetch(link.url, { method: 'PUT', headers: link.headers, body })).ok).toBe(true);
    const processing = () =>
      h.bus.request(
        Documents.processDocument,
        {
          companyId: companyId(),
          path: '/receipts',
          documentType: '',
          taxYear: '',
          newName: '',
          tags: [],
          questionnaireId: '',
          uploadIds: links.map((l) => l.uploadId),
        },
        { actor: actor() },
      );
    // The upload found no '/receipts' and is held before it makes it; another request makes 'Receipts'.
    const held = holdRepository('ensureFolders');
    let outcome: unknown;
    try {
      const first = processing().then(
        () => 'filed',
        (err) => err,
      );
      await held.reached;
      await h.bus.request(
        Documents.createFolder,
        { companyId: companyId(), path: '', name: 'Receipts' },
        { actor: actor() },
      );
      held.release();
      outcome = await first;
    } finally {
      held.restore();
    }
    // Before, the file was filed under '/receipts', a folder that does not exist: out of the tree.
    expect(await orphans()).toEqual([]);
    expect(outcome).toMatchObject({ status: 409, message: Messages.uploadFailed });
    expect((await h.list(actor(), companyId(), '/Receipts')).documents).toEqual([]);
    // Its uploads were let go: sent again, the path finds the folder made meanwhile.
    expect((await processing()).files.map((f) => f.documentLocation)).toEqual(['/Receipts/march.pdf']);
    expect((await h.list(actor(), companyId(), '/Receipts')).documents.map((d) => d.name)).toEqual([
      'march.pdf',
    ]);
    expect(await orphans()).toEqual([]);
  });

  /** Holds the object store's copies (the first one, before it runs) until `release`; notes their keys. */
  const holdCopies = () => {
    const store = h.documents.provider<ObjectStore>(OBJECT_STORE);
    const copy = store.copy.bind(store);
    const reached = gate();
    const release = gate();
    const made: string[] = [];
    store.copy = async (from, to) => {
      made.push(to);
      reached.open();
      await release.opened;
      return copy(from, to);
    };
    return {
      reached: reached.opened,
      release: release.open,
      made,
      restore: () => {
        release.open();
        store.copy = copy;
      },
    };
  };

  const folderWith = async (folder: string, names: string[]) => {
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: folder },
      { actor: actor() },
    );
    await h.upload(
      actor(),
      companyId(),
      await Promise.all(names.map(async (name) => ({ name, body: await pdf(1) }))),
      { path: `/${folder}` },
    );
  };

  const copyToOther = (folder: string) =>
    h.bus.request(
      Documents.moveItem,
      {
        companyId: companyId(),
        oldPath: `/${folder}`,
        newPath: '',
        deleteOldPath: false,
        isFolder: true,
        newCompanyId: h.firm.companies.llc?.id as string,
      },
      { actor: actor() },
    );

  it('copying a folder holds nothing inside it while its objects are copied: an edit of a file there is not held back', async () => {
    await folderWith('Copied', ['edited.pdf']);
    const held = holdCopies();
    try {
      const copying = copyToOther('Copied');
      await held.reached;
      const editing = h.bus.request(
        Documents.updateItem,
        {
          companyId: companyId(),
          link: '/Copied/edited.pdf',
          description: 'Edited',
          updateTags: false,
          tags: [],
        },
        { actor: actor() },
      );
      // Before, the copy held the file until its objects were copied (up to the request's limit).
      expect(await settledWithin(editing, 5_000)).toBe(true);
      await editing;
      held.release();
      await copying;
    } finally {
      held.restore();
    }
    // The copy takes the file as it is once copied.
    const [copied] = await h.documents.query<{ description: string }>(
      `select description from items where company_id = $1 and folder = '/Copied' and name = 'edited.pdf'`,
      [h.firm.companies.llc?.id],
    );
    expect(copied?.description).toBe('Edited');
  });

  it('copying a folder whose file is deleted while its objects are copied answers 409 and leaves nothing there', async () => {
    await folderWith('Changing', ['dropped.pdf', 'stays.pdf']);
    const held = holdCopies();
    let outcome: unknown;
    try {
      const copying = copyToOther('Changing').then(
        () => 'copied',
        (err) => err,
      );
      await held.reached;
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: companyId(), path: '/Changing', documentName: 'dropped.pdf', isFolder: false },
        { actor: actor() },
      );
      held.release();
      outcome = await copying;
    } finally {
      held.restore();
    }
    expect(outcome).toMatchObject({ status: 409 });
    expect(await placesOf(['Changing', 'dropped.pdf', 'stays.pdf'])).toEqual([
      { company: 'here', folder: '', name: 'Changing', deleted: false },
      { company: 'here', folder: '/Changing', name: 'dropped.pdf', deleted: true },
      { company: 'here', folder: '/Changing', name: 'stays.pdf', deleted: false },
    ]);
    expect(held.made).toHaveLength(2);
    for (const key of held.made) expect(await h.store.head(key)).toBeUndefined();
    // Sent again, it copies the folder as it is now.
    await copyToOther('Changing');
    expect((await placesOf(['dropped.pdf', 'stays.pdf'])).filter((p) => p.company === 'there')).toEqual([
      { company: 'there', folder: '/Changing', name: 'stays.pdf', deleted: false },
    ]);
  });
  it('copying a file to another company holds neither it nor the folders while its object is copied: an edit of it is not held back', async () => {
    await folderWith('Single', ['single.pdf']);
    const held = holdCopies();
    let copied: Awaited<ReturnType<typeof copyToOther>> | undefined;
    try {
      const copying = h.bus.request(
        Documents.moveItem,
        {
          companyId: companyId(),
          oldPath: '/Single/single.pdf',
          newPath: '',
          deleteOldPath: false,
          newCompanyId: h.firm.companies.llc?.id as string,
        },
        { actor: actor() },
      );
      await held.reached;
      const editing = h.bus.request(
        Documents.updateItem,
        {
          companyId: companyId(),
          link: '/Single/single.pdf',
          description: 'Edited meanwhile',
          updateTags: false,
          tags: [],
        },
        { actor: actor() },
      );
      // Before, the copy held the file 'share' (and the destination's folders, and a pooled connection)
      // until its object was copied: the edit waited for it.
      expect(await settledWithin(editing, 1_500)).toBe(true);
      await editing;
      held.release();
      copied = await copying;
    } finally {
      held.restore();
    }
    expect(copied?.document?.name).toBe('single.pdf');
    const [there] = await h.documents.query<{ description: string; storage_key: string }>(
      `select description, storage_key from items where company_id = $1 and folder = '' and name = 'single.pdf'`,
      [h.firm.companies.llc?.id],
    );
    expect(there?.description).toBe('Edited meanwhile');
    expect(held.made).toEqual([there?.storage_key]);
    expect(await h.store.head(there?.storage_key as string)).toBeDefined();
  });

  it('moving a folder to another company holds nothing while its objects are copied: an upload into it files, and the move answers 409 and leaves nothing there', async () => {
    await folderWith('Busy', ['first.pdf']);
    const held = holdCopies();
    let outcome: unknown;
    try {
      const moving = h.bus
        .request(
          Documents.moveItem,
          {
            companyId: companyId(),
            oldPath: '/Busy',
            newPath: '',
            deleteOldPath: true,
            isFolder: true,
            newCompanyId: h.firm.companies.llc?.id as string,
          },
          { actor: actor() },
        )
        .then(
          () => 'moved',
          (err) => err,
        );
      await held.reached;
      // Before, the move held the folder FOR UPDATE while it copied: every upload into it waited.
      const uploading = h.upload(actor(), companyId(), [{ name: 'second.pdf', body: await pdf(1) }], {
        path: '/Busy',
      });
      expect(await settledWithin(uploading, 1_500)).toBe(true);
      await uploading;
      held.release();
      outcome = await moving;
    } finally {
      held.restore();
    }
    expect(outcome).toMatchObject({ status: 409, message: Messages.folderChangedWhileCopied });
    expect(await placesOf(['Busy', 'first.pdf', 'second.pdf'])).toEqual([
      { company: 'here', folder: '', name: 'Busy', deleted: false },
      { company: 'here', folder: '/Busy', name: 'first.pdf', deleted: false },
      { company: 'here', folder: '/Busy', name: 'second.pdf', deleted: false },
    ]);
    expect(held.made.length).toBeGreaterThan(0);
    for (const key of held.made) expect(await h.store.head(key)).toBeUndefined();
  });
  it("warns once of a moved file's object it could not delete, and still moves it", async () => {
    await folderWith('Leaving', ['leaving.pdf']);
    const store = h.documents.provider<ObjectStore>(OBJECT_STORE);
    const log = h.documents.provider<Logger>(LOG);
    const realDelete = store.delete.bind(store);
    store.delete = async () => {
      throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied' });
    };
    const warn = jest.spyOn(log, 'warn');
    let warnings: unknown[][] = [];
    try {
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: companyId(),
          oldPath: '/Leaving/leaving.pdf',
          newPath: '',
          deleteOldPath: true,
          newCompanyId: h.firm.companies.llc?.id as string,
        },
        { actor: actor() },
      );
      warnings = [...warn.mock.calls];
    } finally {
      store.delete = realDelete;
      warn.mockRestore();
    }
    // Before, the failure was dropped: the old object stayed, named by nothing, and no one knew.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[0]).toMatchObject({ failed: 1, of: 1, err: { message: 'Access Denied' } });
    expect(await placesOf(['leaving.pdf'])).toEqual([
      { company: 'there', folder: '', name: 'leaving.pdf', deleted: false },
    ]);
  });
});
