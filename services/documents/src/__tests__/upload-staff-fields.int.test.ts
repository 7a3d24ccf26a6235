import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Actor } from '@portico/platform';
import { Documents, Identity } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

const ADVISOR_ONLY = 'Only your firm can do that';
const TAGS_DISABLED = 'Document tags are not enabled for your firm';

/**
 * Descriptions and tags are the advisors' (spec 1 s.2.7), tags only with document_tags_enabled: an upload
 * writes them under the same rules as update_description and update_tags, and a refused one files
 * nothing and leaves its upload to be processed again.
 */
describe("documents: an upload's description and tags", () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  let body: Buffer;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const llc = () => h.firm.companies.llc?.id as string;
  const now = () => state.of(h.firm.firmId, llc());

  /** Links for one file at the root, PUT; the process call is left to the test. */
  const putOne = async (who: Actor, name: string) => {
    const { links } = await h.bus.request(
      Documents.createUploadLinks,
      { companyId: llc(), files: [{ name, size: BigInt(body.length) }] },
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
    fields: { description?: string; tags?: string[]; questionnaireId?: string } = {},
  ) =>
    h.bus.request(
      Documents.processDocument,
      { companyId: llc(), uploadIds: [uploadId], ...fields },
      { actor: who },
    );
  const filed = async (name: string) =>
    (await h.list(actor('partner'), llc())).documents.find((d) => d.name === name);
  const setTags = (enabled: boolean) =>
    h.bus.request(
      Identity.updatePreferences,
      { preferences: { document_tags_enabled: enabled } },
      { actor: actor('partner') },
    );

  beforeAll(async () => {
    h = await startDocumentsHarness('upload-fields', { document_tags_enabled: true });
    state = writtenState(h);
    body = await pdf();
    await h.list(actor('partner'), llc());
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  it("refuses a client's description or tags with 403, files nothing and leaves the upload theirs", async () => {
    const client = actor('client');
    const uploadId = await putOne(client, 'mine.pdf');
    const before = await now();
    for (const fields of [
      { description: 'x', tags: ['t'] },
      { description: 'x' },
      { tags: ['t'] },
      { description: 'x', questionnaireId: 'questionnaire-1' },
    ])
      expect(await outcome(processUpload(client, uploadId, fields))).toEqual([403, ADVISOR_ONLY]);
    expect(await now()).toEqual(before);
    expect(await filed('mine.pdf')).toBeUndefined();
    // Blank ones write nothing, so they are no advisor's field.
    await expect(processUpload(client, uploadId, { description: '  ', tags: [' '] })).resolves.toMatchObject({
      documentLocation: '/mine.pdf',
    });
    expect(await filed('mine.pdf')).toMatchObject({ description: '', tags: [] });
  });

  it('refuses tags from anyone while document tags are off, and files nothing', async () => {
    await setTags(false);
    try {
      const uploadId = await putOne(actor('partner'), 'tagged.pdf');
      const before = await now();
      expect(await outcome(processUpload(actor('partner'), uploadId, { tags: ['W-2'] }))).toEqual([
        403,
        TAGS_DISABLED,
      ]);
      expect(await now()).toEqual(before);
      expect(await filed('tagged.pdf')).toBeUndefined();
      await setTags(true);
      await processUpload(actor('partner'), uploadId, { description: 'Front of card', tags: ['W-2'] });
      expect(await filed('tagged.pdf')).toMatchObject({ description: 'Front of card', tags: ['W-2'] });
    } finally {
      await setTags(true);
    }
  });
});
