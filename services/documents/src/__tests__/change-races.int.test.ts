import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents, DocumentsEvents } from '@portico/proto';
import { ExtractedRepository } from '../extracted/extracted.repository.js';
import { ItemsRepository } from '../items/items.repository.js';
import { Messages } from '../messages.js';
import { type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { OBJECT_STORE } from '../tokens.js';
import { gate } from './gates.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf, realHeic } from './samples.js';

jest.setTimeout(60_000);

/**
 * One item changed by two calls at once: what the second finds is what the first left, and only what
 * happened is announced (a restore, a delete), and nothing is left in storage that no row points at.
 */
describe('two changes of one item at once', () => {
  let h: DocumentsHarness;
  const partner = () => ({ actor: h.actorOf(h.firm, 'partner') });
  const individual = () => h.firm.companies.individual?.id as string;
  const llc = () => h.firm.companies.llc?.id as string;
  /** The outbox events `subject` recorded for `path` in `companyId`. */
  const eventsFor = async (subject: string, companyId: string, path: string) =>
    (
      await h.documents.query<{ n: number }>(
        `select count(*)::int as n from outbox_events
          where subject = $1 and payload->>'company_id' = $2 and payload->>'path' = $3`,
        [subject, companyId, path],
      )
    )[0]?.n;

  beforeAll(async () => {
    h = await startDocumentsHarness('change_races', { document_tags_enabled: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('deletes a HEIC preview made after its file moved to another company', async () => {
    // The preview's object is held back until the file has moved.
    const store = h.documents.provider<ObjectStore>(OBJECT_STORE);
    const put = store.put.bind(store);
    const reached = gate();
    const release = gate();
    store.put = async (key, body, contentType) => {
      if (key.includes('/previews/')) {
        reached.open();
        await release.opened;
      }
      return put(key, body, contentType);
    };
    let id = '';
    try {
      const res = await h.upload(partner().actor, individual(), [{ name: 'moved.heic', body: realHeic() }]);
      id = res.files[0]?.uploadId as string;
      await reached.opened;
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: individual(),
          oldPath: '/moved.heic',
          newPath: '',
          deleteOldPath: true,
          newCompanyId: llc(),
        },
        partner(),
      );
      release.open();
      await h.documents.previewsIdle();
    } finally {
      store.put = put;
      release.open();
    }
    // Under the old company, with no row pointing at it: before, it stayed for good.
    expect(await h.store.head(StorageKeys.preview(h.firm.firmId, individual(), id))).toBeUndefined();
  });

  it('restores an item once when two restores come at once: one event, and the other answers as after it', async () => {
    await h.upload(partner().actor, individual(), [{ name: 'twice.pdf', body: await pdf(1) }]);
    await h.bus.request(Documents.deletePath, { companyId: individual(), path: '/twice.pdf' }, partner());
    // Both have found it deleted before either restores it.
    const repo = h.documents.provider(ItemsRepository);
    const restore = repo.restore.bind(repo);
    const both = gate();
    let arrived = 0;
    repo.restore = (async (...args: Parameters<ItemsRepository['restore']>) => {
      arrived += 1;
      if (arrived === 2) both.open();
      await both.opened;
      return restore(...args);
    }) as ItemsRepository['restore'];
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled(
        [1, 2].map(() =>
          h.bus.request(
            Documents.restoreDeletedDocument,
            { companyId: individual(), path: '/twice.pdf' },
            partner(),
          ),
        ),
      );
    } finally {
      repo.restore = restore;
      both.open();
    }
    expect(await eventsFor(DocumentsEvents.restored.subject, individual(), '/twice.pdf')).toBe(1);
    // As a restore of an item no longer deleted answers.
    expect(
      outcomes.map((o) => (o.status === 'fulfilled' ? 'restored' : `${o.reason.status} ${o.reason.message}`)),
    ).toEqual(expect.arrayContaining(['restored', `400 ${Messages.notDeleted}`]));
    expect((await h.list(partner().actor, individual())).documents.map((d) => d.name)).toContain('twice.pdf');
  });

  it.each([
    ['deleted', 'gone'],
    ['moved to another company', 'away'],
  ])(
    "answers an extracted document's delete with 404 when its file was %s from the tree meanwhile, announcing nothing",
    async (change, stem) => {
      const name = `${stem}.pdf`;
      const res = await h.upload(partner().actor, individual(), [{ name, body: await pdf(1) }], {
        documentType: 'bulk_document',
      });
      const id = res.files[0]?.extractedDocumentId as string;
      // The extracted delete has read the document and its file, and is held before it writes.
      const repo = h.documents.provider(ItemsRepository);
      const byIds = repo.byIds.bind(repo);
      const reached = gate();
      const release = gate();
      repo.byIds = (async (...args: Parameters<ItemsRepository['byIds']>) => {
        const rows = await byIds(...args);
        reached.open();
        await release.opened;
        return rows;
      }) as ItemsRepository['byIds'];
      let outcome: unknown;
      try {
        const removing = h.bus
          .request(Documents.deleteExtractedDocument, { id, companyId: individual() }, partner())
          .then(
            (answer) => answer.message,
            (err) => err,
          );
        await reached.opened;
        repo.byIds = byIds;
        if (change === 'deleted')
          await h.bus.request(Documents.deletePath, { companyId: individual(), path: `/${name}` }, partner());
        else
          await h.bus.request(
            Documents.moveItem,
            {
              companyId: individual(),
              oldPath: `/${name}`,
              newPath: '',
              deleteOldPath: true,
              newCompanyId: llc(),
            },
            partner(),
          );
        release.open();
        outcome = await removing;
      } finally {
        repo.byIds = byIds;
        release.open();
      }
      // The tree's delete announced itself; the move is no delete. Before, each got a 'deleted' of its own.
      expect(await eventsFor(DocumentsEvents.deleted.subject, individual(), `/${name}`)).toBe(
        change === 'deleted' ? 1 : 0,
      );
      expect(outcome).toMatchObject({ status: 404 });
    },
  );

  it('takes a file and its extracted document in one order: an edit in the tree and one of the extracted document at once both succeed', async () => {
    const res = await h.upload(partner().actor, individual(), [{ name: 'both.pdf', body: await pdf(1) }], {
      documentType: 'bulk_document',
    });
    const id = res.files[0]?.extractedDocumentId as string;
    // The tree's edit has written (and holds) the file, and is held before it writes the extracted document.
    const repo = h.documents.provider(ExtractedRepository);
    const update = repo.update.bind(repo);
    const reached = gate();
    const release = gate();
    let armed = true;
    repo.update = (async (...args: Parameters<ExtractedRepository['update']>) => {
      if (armed) {
        armed = false;
        reached.open();
        await release.opened;
      }
      return update(...args);
    }) as ExtractedRepository['update'];
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      const tree = h.bus.request(
        Documents.updateItem,
        {
          companyId: individual(),
          link: '/both.pdf',
          description: 'From the tree',
          updateTags: false,
          tags: [],
        },
        partner(),
      );
      await reached.opened;
      const extracted = h.bus.request(
        Documents.updateTags,
        { extractedDocumentId: id, tags: ['extracted'] },
        partner(),
      );
      // The extracted edit waits on a row lock (before, it wrote the extracted document first and then
      // waited for the file, and the tree's edit then waited for it: a deadlock, answered 503).
      const deadline = Date.now() + 10_000;
      while (
        !(
          await h.documents.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          )
        )[0]?.n
      ) {
        if (Date.now() > deadline) throw new Error('the extracted edit never waited');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release.open();
      outcomes = await Promise.allSettled([tree, extracted]);
    } finally {
      repo.update = update;
      release.open();
    }
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'done' : o.reason.status))).toEqual([
      'done',
      'done',
    ]);
    expect(
      await h.bus.request(Documents.getExtractedDocument, { id, companyId: individual() }, partner()),
    ).toMatchObject({ description: 'From the tree', tags: ['extracted'] });
  });
});
