import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Actor } from '@portico/platform';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

/** Names of this firm's records: none may appear in what another firm is answered. */
const SECRETS = [
  'Secret Folder',
  'Confidential Ledger',
  'Bundle Alpha',
  'Bundle Beta',
  'Bundle Gamma',
  'Removed Memo',
];

/**
 * Spec 1 s.6 and the README's isolation rule: another firm's partner naming this firm's company and a
 * real path or id is answered 404 on every call, learns no name, and changes nothing. The same calls by
 * this firm's partner then succeed, so the names and ids asked were real.
 */
describe("documents: another firm's partner naming this firm's records", () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const llc = () => h.firm.companies.llc?.id as string;
  let alpha = '';
  let beta = '';
  let gamma = '';
  let removedId = '';

  beforeAll(async () => {
    h = await startDocumentsHarness('otherfirm', {
      bulk_upload_processor: true,
      annotation_enabled: true,
      document_tags_enabled: true,
    });
    state = writtenState(h);
    const partner = actor('partner');
    await h.bus.request(
      Documents.createFolder,
      { companyId: llc(), name: 'Secret Folder' },
      { actor: partner },
    );
    await h.upload(partner, llc(), [{ name: 'Confidential Ledger.pdf', body: await pdf() }], {
      path: '/Secret Folder',
    });
    const bulk = await h.upload(
      partner,
      llc(),
      await Promise.all(
        ['Bundle Alpha.pdf', 'Bundle Beta.pdf', 'Bundle Gamma.pdf'].map(async (name) => ({
          name,
          body: await pdf(2),
        })),
      ),
      { documentType: 'bulk_document' },
    );
    [alpha, beta, gamma] = bulk.files.map((f) => f.extractedDocumentId) as [string, string, string];
    await h.upload(partner, llc(), [{ name: 'Removed Memo.pdf', body: await pdf() }]);
    await h.bus.request(
      Documents.deletePath,
      { companyId: llc(), path: '/Removed Memo.pdf' },
      { actor: partner },
    );
    const withDeleted = await h.list(partner, llc(), '', true);
    removedId = withDeleted.documents.find((d) => d.name === 'Removed Memo.pdf')?.id as string;
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  /**
   * Every call that names a company's record, in an order this firm's partner can run them all; a call
   * naming a document alone answers that the document is not found (its company is never reached).
   */
  const calls = (): [string, (a: Actor) => Promise<unknown>, string?][] => [
    [
      'search',
      (a) =>
        h.bus.request(
          Documents.searchDocuments,
          { companyId: llc(), searchTerm: 'Confidential' },
          { actor: a },
        ),
    ],
    [
      'search with deleted',
      (a) =>
        h.bus.request(
          Documents.searchDocuments,
          { companyId: llc(), searchTerm: 'Memo', showWithDeleted: true },
          { actor: a },
        ),
    ],
    [
      'single-file download',
      (a) =>
        h.bus.request(
          Documents.downloadDocument,
          { companyId: llc(), link: '/Secret Folder/Confidential Ledger.pdf', isDownload: true },
          { actor: a },
        ),
    ],
    [
      'multi-file download',
      (a) =>
        h.bus.request(
          Documents.downloadMultipleDocuments,
          { companyId: llc(), links: ['/Secret Folder/Confidential Ledger.pdf', '/Bundle Gamma.pdf'] },
          { actor: a },
        ),
    ],
    [
      'folder download',
      (a) =>
        h.bus.request(Documents.downloadFolder, { companyId: llc(), path: '/Secret Folder' }, { actor: a }),
    ],
    [
      'extracted get',
      (a) => h.bus.request(Documents.getExtractedDocument, { id: alpha, companyId: llc() }, { actor: a }),
    ],
    [
      'annotations read',
      (a) => h.bus.request(Documents.getAnnotations, { id: alpha, companyId: llc() }, { actor: a }),
    ],
    [
      'annotations read without a company',
      (a) => h.bus.request(Documents.getAnnotations, { id: alpha }, { actor: a }),
      'Document not found',
    ],
    [
      'annotations save',
      (a) =>
        h.bus.request(
          Documents.saveAnnotations,
          {
            id: alpha,
            companyId: llc(),
            annotations: [{ page: 1, x: 10, y: 10, width: 100, text: 'Sign', color: 'red', mode: 'textbox' }],
          },
          { actor: a },
        ),
    ],
    [
      'extracted description',
      (a) =>
        h.bus.request(
          Documents.updateDescription,
          { extractedDocumentId: alpha, companyId: llc(), description: 'Changed' },
          { actor: a },
        ),
    ],
    [
      'extracted tags',
      (a) =>
        h.bus.request(
          Documents.updateTags,
          { extractedDocumentId: alpha, companyId: llc(), tags: ['changed'] },
          { actor: a },
        ),
    ],
    [
      'marked as others',
      (a) =>
        h.bus.request(
          Documents.updateMarkedAsOthers,
          { extractedDocumentId: alpha, companyId: llc(), markedAsOthers: true },
          { actor: a },
        ),
    ],
    [
      'attach to questionnaire',
      (a) =>
        h.bus.request(
          Documents.attachToQuestionnaire,
          { questionnaireId: 'q-1', companyId: llc(), extractedDocumentIds: [alpha] },
          { actor: a },
        ),
    ],
    [
      'description and tags update',
      (a) =>
        h.bus.request(
          Documents.updateItem,
          {
            companyId: llc(),
            link: '/Secret Folder/Confidential Ledger.pdf',
            description: 'Changed',
            tags: ['changed'],
            updateTags: true,
          },
          { actor: a },
        ),
    ],
    [
      'create folder',
      (a) =>
        h.bus.request(
          Documents.createFolder,
          { companyId: llc(), path: '/Secret Folder', name: 'Fresh' },
          { actor: a },
        ),
    ],
    [
      'restore',
      (a) =>
        h.bus.request(
          Documents.restoreDeletedDocument,
          { companyId: llc(), path: '/Removed Memo.pdf', id: removedId },
          { actor: a },
        ),
    ],
    [
      'split',
      (a) =>
        h.bus.request(
          Documents.splitDocuments,
          { id: beta, companyId: llc(), documents: [{ name: 'Part One', pages: '1', differentiator: '' }] },
          { actor: a },
        ),
    ],
    [
      'extracted delete',
      (a) => h.bus.request(Documents.deleteExtractedDocument, { id: gamma, companyId: llc() }, { actor: a }),
    ],
    [
      'upload links',
      (a) =>
        h.bus.request(
          Documents.createUploadLinks,
          { companyId: llc(), path: '/Secret Folder', files: [{ name: 'planted.pdf', size: 10n }] },
          { actor: a },
        ),
    ],
    [
      'rename',
      (a) =>
        h.bus.request(
          Documents.renameItem,
          {
            companyId: llc(),
            path: '/Secret Folder',
            itemName: 'Confidential Ledger.pdf',
            newName: 'Renamed',
          },
          { actor: a },
        ),
    ],
  ];

  it('answers 404 to every call, names nothing of this firm, and writes nothing', async () => {
    const stranger = h.actorOf(h.other, 'partner');
    const before = await state.of(h.firm.firmId);
    // The snapshot holds what a change would touch: rows of each kind and the files' objects.
    expect([before.items.length > 5, before.extracted.length, before.objects.length > 4]).toEqual([
      true,
      3,
      true,
    ]);
    const answers: [string, number, string, string[]][] = [];
    for (const [what, call] of calls()) {
      const err = await call(stranger).then(
        () => ({ status: 200, message: 'done' }) as { status: number; message: string },
        (e: { status: number; message: string }) => e,
      );
      const body = `${err.message} ${JSON.stringify(err)}`;
      answers.push([what, err.status, err.message, SECRETS.filter((s) => body.includes(s))]);
    }
    expect(answers).toEqual(calls().map(([what, , message = 'Not found']) => [what, 404, message, []]));
    expect(await state.of(h.firm.firmId)).toEqual(before);
  });

  it("runs the same calls for this firm's own partner: the paths and ids were real", async () => {
    const partner = actor('partner');
    const done: [string, unknown][] = [];
    for (const [what, call] of calls()) done.push([what, await outcome(call(partner))]);
    expect(done).toEqual(calls().map(([what]) => [what, 'done']));
  });
});
