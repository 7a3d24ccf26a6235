import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

/** Characters beyond U+FFFF: JavaScript counts each twice, PostgreSQL once. */
const WIDE = '𝐀𝐁';

/**
 * Names the service and PostgreSQL must read alike: characters beyond the basic plane in the paths a
 * rename or move rewrites in SQL, and names whose STAFF ONLY only shows after Unicode normalisation.
 */
describe('documents: names beyond ASCII', () => {
  let h: DocumentsHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const companyId = () => h.firm.companies.individual?.id as string;
  const asPartner = () => ({ actor: actor('partner') });
  const asClient = () => ({ actor: actor('client') });
  const names = async (path: string, who = asPartner()) =>
    (await h.bus.request(Documents.getDocuments, { companyId: companyId(), path }, who)).documents
      .map((d) => d.name)
      .sort();
  const createFolder = (path: string, name: string, who = asPartner()) =>
    h.bus.request(Documents.createFolder, { companyId: companyId(), path, name }, who);
  const rename = (path: string, itemName: string, newName: string, who = asPartner()) =>
    h.bus.request(Documents.renameItem, { companyId: companyId(), path, itemName, newName }, who);

  beforeAll(async () => {
    h = await startDocumentsHarness('unicode_names');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps every level below a renamed or moved folder whose name has characters beyond U+FFFF', async () => {
    await createFolder('', WIDE);
    await createFolder(`/${WIDE}`, 'STAFF ONLY');
    await createFolder(`/${WIDE}`, 'Inner');
    await createFolder(`/${WIDE}/Inner`, 'Deep');
    await h.upload(actor('partner'), companyId(), [{ name: 'secret.pdf', body: await pdf() }], {
      path: `/${WIDE}/STAFF ONLY`,
    });
    await h.upload(actor('partner'), companyId(), [{ name: 'deep.pdf', body: await pdf() }], {
      path: `/${WIDE}/Inner/Deep`,
    });

    await rename('', WIDE, 'B');
    expect(await names('/B')).toEqual(['Inner', 'STAFF ONLY']);
    expect(await names('/B/STAFF ONLY')).toEqual(['secret.pdf']);
    expect(await names('/B/Inner/Deep')).toEqual(['deep.pdf']);
    // Still STAFF ONLY to the client: found by no search, downloaded by no link.
    const found = await h.bus.request(
      Documents.searchDocuments,
      { companyId: companyId(), searchTerm: 'secret' },
      asClient(),
    );
    expect(found.documents).toEqual([]);
    await expect(
      h.bus.request(
        Documents.downloadDocument,
        { companyId: companyId(), link: '/B/STAFF ONLY/secret.pdf', isDownload: true },
        asClient(),
      ),
    ).rejects.toMatchObject({ status: 404 });

    // Into a folder of such a name and back under another.
    await createFolder('', `${WIDE} archive`);
    await h.bus.request(
      Documents.moveItem,
      {
        companyId: companyId(),
        oldPath: '/B',
        newPath: `/${WIDE} archive`,
        deleteOldPath: true,
        isFolder: true,
      },
      asPartner(),
    );
    expect(await names(`/${WIDE} archive/B/Inner/Deep`)).toEqual(['deep.pdf']);
    await rename('', `${WIDE} archive`, `${WIDE}${WIDE}`);
    expect(await names(`/${WIDE}${WIDE}/B/Inner/Deep`)).toEqual(['deep.pdf']);
    expect(await names(`/${WIDE}${WIDE}/B/STAFF ONLY`)).toEqual(['secret.pdf']);
  });

  it('does not let a rename carry a client’s folders into the system folder', async () => {
    // '/𝐀' renamed to '/_' once rewrote '/𝐀/portico/Mine' as '/_portico/Mine'.
    await createFolder('', '𝐀', asClient());
    await createFolder('/𝐀', 'portico', asClient());
    await createFolder('/𝐀/portico', 'Mine', asClient());
    await rename('', '𝐀', '_', asClient());
    expect(await names('/_/portico', asClient())).toEqual(['Mine']);
    // The root's first listing makes the system folders; nothing of the client's is in them.
    expect(await names('', asClient())).toEqual(expect.arrayContaining(['_', '_portico']));
    expect(await names('/_portico', asClient())).toEqual(['Signature Requests', 'Tax Return Delivery']);
  });

  it('reads STAFF ONLY through ligatures and full-width letters alike in every listing, for clients too', async () => {
    for (const name of ['Staﬀ Only', 'ＳＴＡＦＦ ＯＮＬＹ notes']) await createFolder('', name);
    const lean = async (who: { actor: ReturnType<typeof actor> }) =>
      JSON.parse(
        `[${(await h.bus.request(Documents.getDocuments, { companyId: companyId(), path: '', lean: true }, who)).leanItems}]`,
      ) as { name: string; staff_only?: boolean }[];
    const advisorSees = await lean(asPartner());
    for (const name of ['Staﬀ Only', 'ＳＴＡＦＦ ＯＮＬＹ notes'])
      expect(advisorSees.find((d) => d.name === name)?.staff_only).toBe(true);
    const clientSees = (await lean(asClient())).map((d) => d.name);
    expect(clientSees).not.toContain('Staﬀ Only');
    expect(clientSees).not.toContain('ＳＴＡＦＦ ＯＮＬＹ notes');
    expect(await names('', asClient())).not.toContain('Staﬀ Only');
  });
});
