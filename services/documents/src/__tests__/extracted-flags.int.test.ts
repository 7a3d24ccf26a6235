import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type BuiltFirm, testFirmSpec } from '@portico/identity/testing';
import type { Actor } from '@portico/platform';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

const ACCOUNT_READ_ONLY =
  'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.';
const ENTITY_READ_ONLY =
  'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.';

const annotation = { page: 1, x: 10, y: 20, width: 100, text: 'Sign here', color: 'red', mode: 'textbox' };

/** Every change of an extracted document, as the extracted calls name it (spec 1 s.7.6). */
const changesOf = (
  h: DocumentsHarness,
  companyId: string,
  id: string,
): [string, (a: Actor) => Promise<unknown>][] => [
  [
    'annotations',
    (a) =>
      h.bus.request(Documents.saveAnnotations, { id, companyId, annotations: [annotation] }, { actor: a }),
  ],
  [
    'split',
    (a) =>
      h.bus.request(
        Documents.splitDocuments,
        { id, companyId, documents: [{ name: 'Part', pages: '1', differentiator: '' }] },
        { actor: a },
      ),
  ],
  [
    'description',
    (a) =>
      h.bus.request(
        Documents.updateDescription,
        { extractedDocumentId: id, companyId, description: 'Changed' },
        { actor: a },
      ),
  ],
  [
    'tags',
    (a) =>
      h.bus.request(
        Documents.updateTags,
        { extractedDocumentId: id, companyId, tags: ['changed'] },
        { actor: a },
      ),
  ],
  [
    'attach',
    (a) =>
      h.bus.request(
        Documents.attachToQuestionnaire,
        { questionnaireId: 'q-1', companyId, extractedDocumentIds: [id] },
        { actor: a },
      ),
  ],
  [
    'marked as others',
    (a) =>
      h.bus.request(
        Documents.updateMarkedAsOthers,
        { extractedDocumentId: id, companyId, markedAsOthers: true },
        { actor: a },
      ),
  ],
  [
    'extracted delete',
    (a) => h.bus.request(Documents.deleteExtractedDocument, { id, companyId }, { actor: a }),
  ],
];

/**
 * Spec 1 s.6 and s.4.2 (read-only users and entities, inactive entities change nothing) and s.4.3 (split
 * only with bulk_upload_processor and never while processing; tags with document_tags_enabled; clients'
 * file edits switched off by the firm), for extracted documents: each refusal answers the spec's message
 * and leaves every row and object as it was.
 */
describe('extracted documents: read-only and inactive flags, and the preferences that switch changes off', () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  const actor = (key: string, extra: Partial<Actor> = {}) => h.actorOf(h.firm, key, extra);
  const company = (key: string) => h.firm.companies[key]?.id as string;
  /** One extracted document per company, by the company's key. */
  const docs: Record<string, string> = {};

  const bundle = async (who: Actor, companyId: string, name: string, options: { path?: string } = {}) => {
    const res = await h.upload(who, companyId, [{ name, body: await pdf(3) }], {
      documentType: 'bulk_document',
      ...options,
    });
    return res.files[0]?.extractedDocumentId as string;
  };
  /** An upload into a company the service will not write into: its flag lifted in identity's table meanwhile. */
  const withFlagLifted = async <T>(
    companyId: string,
    flag: 'readonly_access' | 'inactive',
    work: () => Promise<T>,
  ) => {
    await h.identity.query(`update companies set ${flag} = false where id = $1`, [companyId]);
    try {
      return await work();
    } finally {
      await h.identity.query(`update companies set ${flag} = true where id = $1`, [companyId]);
    }
  };

  beforeAll(async () => {
    h = await startDocumentsHarness('xflags', {
      bulk_upload_processor: true,
      annotation_enabled: true,
      document_tags_enabled: true,
    });
    state = writtenState(h);
    const partner = actor('partner');
    docs.rita = await bundle(partner, company('rita'), 'rita bundle.pdf');
    docs.llc = await bundle(partner, company('llc'), 'llc bundle.pdf');
    docs.rex_ro = await withFlagLifted(company('rex_ro'), 'readonly_access', () =>
      bundle(partner, company('rex_ro'), 'rex bundle.pdf'),
    );
    docs.inactive = await withFlagLifted(company('inactive'), 'inactive', () =>
      bundle(partner, company('inactive'), 'old bundle.pdf'),
    );
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  it("refuses a read-only client's marked-as-others and extracted delete with the account message, writing nothing", async () => {
    const client = actor('readonly');
    expect(client.readonly_access).toBe(true);
    const before = await state.of(h.firm.firmId, company('rita'));
    const refused = changesOf(h, company('rita'), docs.rita as string).filter(([what]) =>
      ['marked as others', 'extracted delete'].includes(what),
    );
    expect(refused).toHaveLength(2);
    for (const [what, change] of refused)
      expect([what, await outcome(change(client))]).toEqual([what, [403, ACCOUNT_READ_ONLY]]);
    expect(await state.of(h.firm.firmId, company('rita'))).toEqual(before);
    // The document is theirs to see: the refusal is the flag's, not a 404.
    await expect(
      h.bus.request(
        Documents.getExtractedDocument,
        { id: docs.rita as string, companyId: company('rita') },
        {
          actor: client,
        },
      ),
    ).resolves.toMatchObject({ documentLocation: '/rita bundle.pdf', markedAsOthers: false });
  });

  it.each([
    ['a read-only entity', 'rex_ro', {}, ENTITY_READ_ONLY],
    ['an inactive entity', 'inactive', {}, 'This entity is inactive'],
    ['an advisor whose account is read-only', 'llc', { readonly_access: true }, ACCOUNT_READ_ONLY],
  ])(
    "%s: a partner's annotations, split, description, tags, attach, marked-as-others and delete are refused",
    async (_, companyKey, extra, message) => {
      const companyId = company(companyKey);
      const before = await state.of(h.firm.firmId, companyId);
      expect(before.extracted).toHaveLength(1);
      for (const [what, change] of changesOf(h, companyId, docs[companyKey] as string))
        expect([what, await outcome(change(actor('partner', extra)))]).toEqual([what, [403, message]]);
      expect(await state.of(h.firm.firmId, companyId)).toEqual(before);
    },
  );

  it('lets the same partner make every one of those changes where no flag holds them', async () => {
    const done = [];
    for (const [what, change] of changesOf(h, company('llc'), docs.llc as string))
      done.push([what, await outcome(change(actor('partner')))]);
    expect(done).toEqual(changesOf(h, '', '').map(([what]) => [what, 'done']));
  });

  it("refuses a client's extracted delete with disable_file_edit_action on; the firm's staff are not held", async () => {
    const firm: BuiltFirm = await h.identity.buildFirm(
      testFirmSpec('no-file-edit', { preferences: { disable_file_edit_action: true } }),
    );
    const llc = firm.companies.llc?.id as string;
    const id = await bundle(h.actorOf(firm, 'partner'), llc, 'held bundle.pdf');
    const remove = (who: Actor) =>
      h.bus.request(Documents.deleteExtractedDocument, { id, companyId: llc }, { actor: who });
    const before = await state.of(firm.firmId);
    expect(await outcome(remove(h.actorOf(firm, 'client')))).toEqual([403, 'Disabled by firm']);
    expect(await state.of(firm.firmId)).toEqual(before);
    expect(await outcome(remove(h.actorOf(firm, 'partner')))).toBe('done');
    // Without the preference, the client removes a document of their own.
    const own = await bundle(actor('client'), company('llc'), 'client bundle.pdf');
    expect(
      await outcome(
        h.bus.request(
          Documents.deleteExtractedDocument,
          { id: own, companyId: company('llc') },
          { actor: actor('client') },
        ),
      ),
    ).toBe('done');
  });

  it("refuses a client's extracted delete in a folder the company blocks for clients", async () => {
    const individual = company('individual');
    await h.identity.query(
      `update companies set settings = '{"folders_where_client_actions_disabled": ["/Locked"]}' where id = $1`,
      [individual],
    );
    const id = await bundle(actor('partner'), individual, 'locked bundle.pdf', { path: '/Locked' });
    const before = await state.of(h.firm.firmId, individual);
    expect(
      await outcome(
        h.bus.request(
          Documents.deleteExtractedDocument,
          { id, companyId: individual },
          { actor: actor('client') },
        ),
      ),
    ).toEqual([403, 'Disabled by firm']);
    expect(await state.of(h.firm.firmId, individual)).toEqual(before);
  });

  describe('with the firm preferences off', () => {
    let firm: BuiltFirm;
    let llc = '';
    let id = '';
    beforeAll(async () => {
      firm = await h.identity.buildFirm(
        testFirmSpec('prefs-off', {
          preferences: {
            bulk_upload_processor: false,
            annotation_enabled: false,
            document_tags_enabled: false,
          },
        }),
      );
      llc = firm.companies.llc?.id as string;
      id = await bundle(h.actorOf(firm, 'partner'), llc, 'off bundle.pdf');
    });

    it.each([
      ['split (bulk_upload_processor off)', 'split', 'Splitting is not enabled for your firm'],
      ['annotations (annotation_enabled off)', 'annotations', 'Disabled by firm'],
      ['tags (document_tags_enabled off)', 'tags', 'Document tags are not enabled for your firm'],
    ])('refuses %s with 403 and writes nothing', async (_, which, message) => {
      const [, change] = changesOf(h, llc, id).find(([what]) => what === which) as [
        string,
        (a: Actor) => Promise<unknown>,
      ];
      const before = await state.of(firm.firmId);
      expect(await outcome(change(h.actorOf(firm, 'partner')))).toEqual([403, message]);
      expect(await state.of(firm.firmId)).toEqual(before);
    });

    it('still takes the description, which no preference holds', async () => {
      const [, describeIt] = changesOf(h, llc, id).find(([what]) => what === 'description') as [
        string,
        (a: Actor) => Promise<unknown>,
      ];
      await expect(describeIt(h.actorOf(firm, 'partner'))).resolves.toMatchObject({ description: 'Changed' });
    });
  });

  it('refuses to split a document while it is processing with 409, writing nothing, and splits it once processed', async () => {
    const llc = company('llc');
    const id = await bundle(actor('partner'), llc, 'processing bundle.pdf');
    await h.documents.query(`update extracted_documents set status = 'processing' where id = $1`, [id]);
    const split = () =>
      h.bus.request(
        Documents.splitDocuments,
        { id, companyId: llc, documents: [{ name: 'Early', pages: '1', differentiator: '' }] },
        { actor: actor('partner') },
      );
    const before = await state.of(h.firm.firmId, llc);
    expect(await outcome(split())).toEqual([409, 'This document is still processing']);
    expect(await state.of(h.firm.firmId, llc)).toEqual(before);
    await h.documents.query(`update extracted_documents set status = 'review_required' where id = $1`, [id]);
    await expect(split()).resolves.toMatchObject({
      documents: [{ name: 'Early.pdf', parentDocumentId: id }],
    });
  });
});
