import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Actor } from '@portico/platform';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

const VAULT = '/Vault (STAFF ONLY)';
const ADVISOR_ONLY = 'Only your firm can do that';

/**
 * Spec 1 s.4.3 and s.6: a STAFF ONLY folder does not exist for a client, so nothing of theirs goes into
 * one or becomes one (404, as for any path they cannot see); the upload types that file into STAFF ONLY
 * or product folders are the firm's (403). The tree, the uploads and the objects stay as they were.
 */
describe("documents: a client's writes into STAFF ONLY folders", () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const llc = () => h.firm.companies.llc?.id as string;
  let body: Buffer;

  /** Links for one file in `path` (plain upload), PUT; the process call is left to the test. */
  const putOne = async (who: Actor, name: string, path = '') => {
    const { links } = await h.bus.request(
      Documents.createUploadLinks,
      { companyId: llc(), path, files: [{ name, size: BigInt(body.length) }] },
      { actor: who },
    );
    const link = links[0] as (typeof links)[number];
    const res = await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    if (!res.ok) throw new Error(`PUT failed with ${res.status}`);
    return link.uploadId;
  };
  const processUpload = (
    who: Actor,
    uploadId: string,
    options: { path?: string; documentType?: string; taxYear?: string },
  ) =>
    h.bus.request(
      Documents.processDocument,
      { companyId: llc(), uploadIds: [uploadId], path: '', documentType: '', taxYear: '', ...options },
      { actor: who },
    );
  const links = (who: Actor, options: { path?: string; documentType?: string; taxYear?: string }) =>
    h.bus.request(
      Documents.createUploadLinks,
      { companyId: llc(), path: '', files: [{ name: 'planted.pdf', size: 100n }], ...options },
      { actor: who },
    );
  const move = (who: Actor, oldPath: string, newPath: string, deleteOldPath: boolean) =>
    h.bus.request(
      Documents.moveItem,
      { companyId: llc(), oldPath, newPath, deleteOldPath, isFolder: false, newCompanyId: '' },
      { actor: who },
    );
  const rename = (who: Actor, path: string, itemName: string, newName: string) =>
    h.bus.request(Documents.renameItem, { companyId: llc(), path, itemName, newName }, { actor: who });
  const createFolder = (who: Actor, path: string, name: string) =>
    h.bus.request(Documents.createFolder, { companyId: llc(), path, name }, { actor: who });

  beforeAll(async () => {
    h = await startDocumentsHarness('staffonly');
    state = writtenState(h);
    body = await pdf();
    await createFolder(actor('partner'), '', 'Vault (STAFF ONLY)');
    await h.upload(actor('client'), llc(), [{ name: 'mine.pdf', body }]);
    await createFolder(actor('client'), '', 'My Folder');
    await h.upload(actor('client'), llc(), [{ name: 'inner.pdf', body }], { path: '/My Folder' });
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  it.each<[string, () => Promise<unknown>]>([
    ["a folder named '... (STAFF ONLY)'", () => createFolder(actor('client'), '', 'Notes (STAFF ONLY)')],
    [
      "a folder named '... (staff only)' in small letters",
      () => createFolder(actor('client'), '', 'Notes (staff only)'),
    ],
    ['a folder inside a STAFF ONLY folder', () => createFolder(actor('client'), VAULT, 'Sub')],
    [
      'a STAFF ONLY folder inside their own folder',
      () => createFolder(actor('client'), '/My Folder', 'Hidden STAFF ONLY'),
    ],
    ['upload links into a STAFF ONLY folder', () => links(actor('client'), { path: VAULT })],
    [
      'upload links into a new STAFF ONLY folder',
      () => links(actor('client'), { path: '/New (STAFF ONLY)/Deeper' }),
    ],
    ['moving their own file into a STAFF ONLY folder', () => move(actor('client'), '/mine.pdf', VAULT, true)],
    [
      'copying their own file into a STAFF ONLY folder',
      () => move(actor('client'), '/mine.pdf', VAULT, false),
    ],
    [
      'moving their own folder into a STAFF ONLY folder',
      () => move(actor('client'), '/My Folder', VAULT, true),
    ],
    [
      'copying their own folder into a STAFF ONLY folder',
      () => move(actor('client'), '/My Folder', VAULT, false),
    ],
    [
      'renaming their own folder to a STAFF ONLY name',
      () => rename(actor('client'), '', 'My Folder', 'My Folder (STAFF ONLY)'),
    ],
    [
      'renaming their own file to a STAFF ONLY name',
      () => rename(actor('client'), '', 'mine.pdf', 'mine STAFF ONLY'),
    ],
  ])('refuses %s with 404 and changes nothing', async (_, change) => {
    const before = await state.of(h.firm.firmId, llc());
    expect(await outcome(change())).toEqual([404, 'Document not found']);
    expect(await state.of(h.firm.firmId, llc())).toEqual(before);
  });

  it('refuses the processing of uploads put through plain links into a STAFF ONLY folder, and files nothing', async () => {
    const uploadId = await putOne(actor('client'), 'sneaky.pdf');
    const before = await state.of(h.firm.firmId, llc());
    expect(await outcome(processUpload(actor('client'), uploadId, { path: VAULT }))).toEqual([
      404,
      'Document not found',
    ]);
    expect(await outcome(processUpload(actor('client'), uploadId, { path: '/Fresh (STAFF ONLY)' }))).toEqual([
      404,
      'Document not found',
    ]);
    expect(await state.of(h.firm.firmId, llc())).toEqual(before);
    // The upload is still the client's to file where they may.
    await expect(processUpload(actor('client'), uploadId, { path: '/My Folder' })).resolves.toMatchObject({
      documentLocation: '/My Folder/sneaky.pdf',
    });
  });

  it.each([
    ['prior_year_document', '2023'],
    ['signature_request', ''],
    ['tax_return_delivery', ''],
  ])(
    'refuses a client the %s upload type, at the links and at processing, and files nothing',
    async (documentType, taxYear) => {
      const before = await state.of(h.firm.firmId, llc());
      expect(await outcome(links(actor('client'), { documentType, taxYear }))).toEqual([403, ADVISOR_ONLY]);
      expect(await state.of(h.firm.firmId, llc())).toEqual(before);
      const uploadId = await putOne(actor('client'), `typed ${documentType}.pdf`);
      const put = await state.of(h.firm.firmId, llc());
      expect(await outcome(processUpload(actor('client'), uploadId, { documentType, taxYear }))).toEqual([
        403,
        ADVISOR_ONLY,
      ]);
      expect(await state.of(h.firm.firmId, llc())).toEqual(put);
    },
  );

  it("lets the firm's staff do each of those, and the client the same where nothing is STAFF ONLY", async () => {
    const partner = actor('partner');
    const client = actor('client');
    const done = [
      await outcome(createFolder(partner, '', 'Notes (STAFF ONLY)')),
      await outcome(createFolder(partner, VAULT, 'Sub')),
      await outcome(links(partner, { path: VAULT })),
      await outcome(
        h.upload(partner, llc(), [{ name: 'prior.pdf', body }], {
          documentType: 'prior_year_document',
          taxYear: '2023',
        }),
      ),
      await outcome(createFolder(client, '', 'Notes')),
      await outcome(links(client, { path: '/My Folder' })),
      await outcome(move(client, '/mine.pdf', '/My Folder', false)),
      await outcome(move(partner, '/mine.pdf', VAULT, true)),
      await outcome(rename(partner, '', 'My Folder', 'My Folder (STAFF ONLY)')),
    ];
    expect(done).toEqual(done.map(() => 'done'));
    const vault = (await h.list(partner, llc(), VAULT)).documents.map((d) => d.name).sort();
    expect(vault).toEqual(['Sub', 'mine.pdf']);
  });
});
