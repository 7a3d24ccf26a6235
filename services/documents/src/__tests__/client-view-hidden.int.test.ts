import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Actor } from '@portico/platform';
import { Documents, Identity } from '@portico/proto';
import { Messages } from '../messages.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

const DELIVERED = '/_portico/Tax Return Delivery/return.pdf';

describe("the firm's hide_documents_view_from_clients, enforced by the service", () => {
  let h: DocumentsHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const company = (key: string) => h.firm.companies[key]?.id as string;
  const llc = () => company('llc');

  const setHidden = (hidden: boolean) =>
    h.bus.request(
      Identity.updatePreferences,
      { preferences: { hide_documents_view_from_clients: hidden } },
      { actor: actor('partner') },
    );

  /** What a client's Documents view does, one call each. */
  const treeCalls = (as: Actor, companyId: string) => ({
    list: () => h.list(as, companyId),
    search: () => h.bus.request(Documents.searchDocuments, { companyId, searchTerm: 'notes' }, { actor: as }),
    download: () =>
      h.bus.request(
        Documents.downloadDocument,
        { companyId, link: '/notes.pdf', isDownload: true },
        { actor: as },
      ),
    zip: () =>
      h.bus.request(Documents.downloadMultipleDocuments, { companyId, links: ['/notes.pdf'] }, { actor: as }),
    createFolder: () =>
      h.bus.request(Documents.createFolder, { companyId, path: '', name: 'Made by client' }, { actor: as }),
    rename: () =>
      h.bus.request(
        Documents.renameItem,
        { companyId, path: '', itemName: 'notes.pdf', newName: 'renamed.pdf' },
        { actor: as },
      ),
    copy: () =>
      h.bus.request(
        Documents.moveItem,
        { companyId, oldPath: '/notes.pdf', newPath: '/Kept', deleteOldPath: false },
        { actor: as },
      ),
    delete: () => h.bus.request(Documents.deletePath, { companyId, path: '/notes.pdf' }, { actor: as }),
  });

  /** Rows and outbox events of the firm, to show a refused call wrote nothing. */
  const written = async () => {
    const [items] = await h.documents.query<{ n: number }>(
      'select count(*)::int as n from items where firm_id = $1',
      [h.firm.firmId],
    );
    const [events] = await h.documents.query<{ n: number }>('select count(*)::int as n from outbox_events');
    return { items: items?.n, events: events?.n };
  };

  beforeAll(async () => {
    h = await startDocumentsHarness('hidden-view');
    const partner = actor('partner');
    await h.upload(partner, llc(), [{ name: 'notes.pdf', body: await pdf() }]);
    await h.bus.request(
      Documents.createFolder,
      { companyId: llc(), path: '', name: 'Kept' },
      { actor: partner },
    );
    await h.upload(partner, llc(), [{ name: 'return.pdf', body: await pdf() }], {
      documentType: 'tax_return_delivery',
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('leaves the Documents view to clients while the flag is off', async () => {
    const calls = treeCalls(actor('client'), llc());
    expect((await calls.list()).documents.map((d) => d.name)).toContain('notes.pdf');
    expect((await calls.search()).documents.map((d) => d.name)).toEqual(['notes.pdf']);
    expect((await calls.download()).document?.data?.link).toBeTruthy();
    await calls.createFolder();
    await h.bus.request(
      Documents.deletePath,
      { companyId: llc(), path: '/Made by client' },
      {
        actor: actor('client'),
      },
    );
  });

  describe('with the flag on', () => {
    beforeAll(async () => {
      await setHidden(true);
    });
    afterAll(async () => {
      await setHidden(false);
    });

    it("refuses a client's listing, search, downloads, zips and tree changes with 403, writing nothing", async () => {
      const before = await written();
      const calls = treeCalls(actor('client'), llc());
      for (const [name, call] of Object.entries(calls))
        await expect(call().then(() => name)).rejects.toMatchObject({
          status: 403,
          message: Messages.disabledByFirm,
        });
      // A company never listed before: refused before its system folders would be made.
      await expect(h.list(actor('client'), company('individual'))).rejects.toMatchObject({ status: 403 });
      expect(await written()).toEqual(before);
      const names = (await h.list(actor('partner'), llc())).documents.map((d) => d.name);
      expect(names).toEqual(expect.arrayContaining(['notes.pdf', 'Kept']));
      expect(names).not.toEqual(expect.arrayContaining(['renamed.pdf']));
      expect(names).not.toContain('Made by client');
    });

    it('still answers 404 first for a company that is not the client’s', async () => {
      await expect(h.list(actor('client'), h.firm.companies.otto?.id as string)).rejects.toMatchObject({
        status: 404,
      });
    });

    it('leaves advisors the tree', async () => {
      const calls = treeCalls(actor('partner'), llc());
      expect((await calls.list()).documents.map((d) => d.name)).toContain('notes.pdf');
      expect((await calls.search()).documents.map((d) => d.name)).toEqual(['notes.pdf']);
      expect((await calls.download()).document?.data?.link).toBeTruthy();
      expect((await calls.createFolder()).document?.name).toBe('Made by client');
    });

    it('keeps what a client reaches outside the view: questionnaire uploads, their downloads and removal, delivered returns', async () => {
      const client = actor('client');
      const uploaded = await h.upload(client, llc(), [{ name: 'w2.pdf', body: await pdf() }], {
        path: '/Questionnaire',
        questionnaireId: 'questionnaire-1',
      });
      expect(uploaded.files[0]?.documentLocation).toBe('/Questionnaire/w2.pdf');
      const open = (link: string) =>
        h.bus.request(
          Documents.downloadDocument,
          { companyId: llc(), link, isDownload: true },
          { actor: client },
        );
      expect((await open('/Questionnaire/w2.pdf')).document?.data?.link).toBeTruthy();
      expect((await open(DELIVERED)).document?.data?.link).toBeTruthy();
      // A missing file is still 404, not 403.
      await expect(open('/Questionnaire/none.pdf')).rejects.toMatchObject({ status: 404 });
      await h.bus.request(
        Documents.deletePath,
        { companyId: llc(), path: '/Questionnaire/w2.pdf' },
        {
          actor: client,
        },
      );
      // The delivered return is opened there, not removed.
      await expect(
        h.bus.request(Documents.deletePath, { companyId: llc(), path: DELIVERED }, { actor: client }),
      ).rejects.toMatchObject({ status: 403, message: Messages.disabledByFirm });
      const folder = await h.list(actor('partner'), llc(), '/Questionnaire');
      expect(folder.documents.map((d) => d.name)).toEqual([]);
    });
  });

  it('gives the client the view back once the flag is off again', async () => {
    const calls = treeCalls(actor('client'), llc());
    expect((await calls.list()).documents.map((d) => d.name)).toContain('notes.pdf');
    expect((await calls.search()).documents.map((d) => d.name)).toEqual(['notes.pdf']);
    expect((await calls.download()).document?.data?.link).toBeTruthy();
  });
});
