import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Actor } from '@portico/platform';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

const STAFF = '/2022/Tax Returns and Tax Organizers (STAFF ONLY)';
/** As a client may type it: two spaces, which the lookup still matches by the folder's sanitised name. */
const TYPED = '/2022/Tax Returns and Tax Organizers (STAFF  ONLY)';
const RETURN = `${TYPED}/2022 return.pdf`;
const NOT_FOUND = [404, 'Document not found'];

/**
 * A path is found as the tree spells it (folders matched also by their sanitised names), so a client's
 * STAFF ONLY and blocked-folder rules are read on the path of what was found, not on the path as typed:
 * '(STAFF  ONLY)' reaches the '(STAFF ONLY)' folder, '/Tax  Returns' the blocked '/Tax Returns'.
 */
describe('documents: client rules on the stored path of what a typed path finds', () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const llc = () => h.firm.companies.llc?.id as string;
  const now = () => state.of(h.firm.firmId, llc());

  const download = (who: Actor, link: string, isDownload = true) =>
    h.bus.request(Documents.downloadDocument, { companyId: llc(), link, isDownload }, { actor: who });
  const zip = (who: Actor, link: string) =>
    h.bus.request(Documents.downloadMultipleDocuments, { companyId: llc(), links: [link] }, { actor: who });
  const move = (who: Actor, oldPath: string, newPath: string, deleteOldPath: boolean) =>
    h.bus.request(
      Documents.moveItem,
      { companyId: llc(), oldPath, newPath, deleteOldPath, isFolder: false, newCompanyId: '' },
      { actor: who },
    );
  const rename = (who: Actor, path: string, itemName: string, newName: string) =>
    h.bus.request(Documents.renameItem, { companyId: llc(), path, itemName, newName }, { actor: who });
  const list = (who: Actor, path: string, lean: boolean) =>
    h.bus.request(Documents.getDocuments, { companyId: llc(), path, lean }, { actor: who });
  const deletePath = (who: Actor, path: string) =>
    h.bus.request(Documents.deletePath, { companyId: llc(), path }, { actor: who });
  const deleteDocument = (who: Actor, path: string, documentName: string) =>
    h.bus.request(Documents.deleteDocument, { companyId: llc(), path, documentName }, { actor: who });
  const isLive = async (folder: string, name: string) =>
    (
      await h.documents.query<{ n: number }>(
        'select count(*)::int as n from items where company_id = $1 and folder = $2 and name = $3 and deleted_at is null',
        [llc(), folder, name],
      )
    )[0]?.n === 1;

  beforeAll(async () => {
    h = await startDocumentsHarness('typed-paths');
    state = writtenState(h);
    const partner = actor('partner');
    const body = await pdf();
    await h.list(partner, llc());
    await h.upload(partner, llc(), [{ name: '2022 return.pdf', body }], {
      documentType: 'prior_year_document',
      taxYear: '2022',
    });
    await h.bus.request(
      Documents.createFolder,
      { companyId: llc(), path: STAFF, name: 'Sub' },
      { actor: partner },
    );
    await h.upload(partner, llc(), [{ name: 'inner.pdf', body }], { path: `${STAFF}/Sub` });
    await h.upload(partner, llc(), [{ name: 'x.pdf', body }], { path: '/Tax Returns' });
    await h.bus.request(
      Documents.createFolder,
      { companyId: llc(), name: 'Mine' },
      { actor: actor('client') },
    );
    await h.identity.query(
      `update companies set settings = '{"folders_where_client_actions_disabled": ["/Tax Returns"]}' where id = $1`,
      [llc()],
    );
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  it.each<[string, () => Promise<unknown>]>([
    ['a download link', () => download(actor('client'), RETURN)],
    ['a preview link', () => download(actor('client'), RETURN, false)],
    ['a zip', () => zip(actor('client'), RETURN)],
    ['a copy of the file', () => move(actor('client'), RETURN, '/Mine', false)],
    ['a copy of a folder inside', () => move(actor('client'), `${TYPED}/Sub`, '/Mine', false)],
    ['a move of the file', () => move(actor('client'), RETURN, '/Mine', true)],
    ['a rename', () => rename(actor('client'), TYPED, '2022 return.pdf', 'mine')],
    ['the lean listing of the folder', () => list(actor('client'), TYPED, true)],
    ['the lean listing of a folder inside', () => list(actor('client'), `${TYPED}/Sub`, true)],
    ['the listing of a folder inside', () => list(actor('client'), `${TYPED}/Sub`, false)],
    ['delete_path', () => deletePath(actor('client'), RETURN)],
    ['delete_document', () => deleteDocument(actor('client'), TYPED, '2022 return.pdf')],
  ])("answers a client's %s through '(STAFF  ONLY)' with 404 and changes nothing", async (_, call) => {
    const before = await now();
    expect(await outcome(call())).toEqual(NOT_FOUND);
    expect(await now()).toEqual(before);
    expect(await isLive(STAFF, '2022 return.pdf')).toBe(true);
  });

  it.each<[string, () => Promise<unknown>]>([
    ['delete_path', () => deletePath(actor('client'), '/Tax  Returns/x.pdf')],
    ['delete_document', () => deleteDocument(actor('client'), '/Tax  Returns', 'x.pdf')],
  ])("refuses a client's %s through '/Tax  Returns' with 403 and keeps the file", async (_, call) => {
    const before = await now();
    expect(await outcome(call())).toEqual([403, 'Disabled by firm']);
    expect(await now()).toEqual(before);
    expect(await isLive('/Tax Returns', 'x.pdf')).toBe(true);
  });

  it('leaves advisors every one of those paths', async () => {
    const partner = actor('partner');
    expect((await download(partner, RETURN)).document?.data?.fileName).toBe('2022 return.pdf');
    const lean = await list(partner, `${TYPED}/Sub`, true);
    expect(lean.path).toBe(`${STAFF}/Sub`);
    expect(lean.leanItems).toContain('inner.pdf');
    expect((await move(partner, RETURN, '/Mine', false)).document?.link).toBe('/Mine/2022 return.pdf');
    expect(await outcome(deleteDocument(partner, TYPED, '2022 return.pdf'))).toBe('done');
    expect(await outcome(deletePath(partner, '/Tax  Returns/x.pdf'))).toBe('done');
    expect(await isLive(STAFF, '2022 return.pdf')).toBe(false);
    expect(await isLive('/Tax Returns', 'x.pdf')).toBe(false);
  });
});
