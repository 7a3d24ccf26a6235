import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENTS_STREAM } from '@portico/platform';
import { waitFor } from '@portico/platform/testing';
import { Documents, DocumentsEvents, Identity } from '@portico/proto';
import { degrees, PDFDocument } from 'pdf-lib';
import { DROP_OFF_NOTIFICATIONS_CONSUMER } from '../drop-links/drop-off-notifier.js';
import { Messages } from '../messages.js';
import { seedDemoDocuments } from '../seed/demo-documents.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf, png } from './samples.js';

jest.setTimeout(60_000);

describe('extracted documents and the firm drop link', () => {
  let h: DocumentsHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const company = (key: string) => h.firm.companies[key]?.id as string;
  let bulkId = '';

  beforeAll(async () => {
    h = await startDocumentsHarness('extracted', {
      bulk_upload_processor: true,
      annotation_enabled: true,
      document_tags_enabled: true,
    });
    const res = await h.upload(
      actor('partner'),
      company('llc'),
      [{ name: 'bundle.pdf', body: await pdf(5) }],
      {
        documentType: 'bulk_document',
      },
    );
    bulkId = res.files[0]?.extractedDocumentId as string;
  });
  afterAll(async () => {
    await h.stop();
  });

  it('creates an extracted document for a bulk upload, with its page count', async () => {
    const doc = await h.bus.request(
      Documents.getExtractedDocument,
      { id: bulkId, companyId: company('llc') },
      { actor: actor('client') },
    );
    expect(doc).toMatchObject({ status: 'review_required', pageCount: 5, documentLocation: '/bundle.pdf' });
  });

  it('splits by page ranges into new PDFs and hides the source', async () => {
    await expect(
      h.bus.request(
        Documents.splitDocuments,
        { id: bulkId, companyId: company('llc'), documents: [{ name: 'W-2', pages: '1-2' }] },
        { actor: actor('client') },
      ),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      h.bus.request(
        Documents.splitDocuments,
        { id: bulkId, companyId: company('llc'), documents: [{ name: 'W-2', pages: '1-9' }] },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject({ status: 400 });
    const res = await h.bus.request(
      Documents.splitDocuments,
      {
        id: bulkId,
        companyId: company('llc'),
        documents: [
          { name: 'W-2', pages: '1..2', differentiator: 'Acme' },
          { name: '1099', pages: '3, 5' },
        ],
      },
      { actor: actor('partner') },
    );
    expect(res.documents.map((d) => [d.name, d.parentPages, d.parentDocumentId])).toEqual([
      ['W-2.pdf', '1-2', bulkId],
      ['1099.pdf', '3,5', bulkId],
    ]);
    const root = await h.list(actor('partner'), company('llc'));
    const names = root.documents.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['W-2.pdf', '1099.pdf']));
    expect(names).not.toContain('bundle.pdf');
    const link = await h.bus.request(
      Documents.downloadDocument,
      { companyId: company('llc'), link: '/1099.pdf', isDownload: true },
      { actor: actor('partner') },
    );
    const part = await PDFDocument.load(
      await (await fetch(link.document?.data?.link as string)).arrayBuffer(),
    );
    expect(part.getPageCount()).toBe(2);
    const source = await h.bus.request(
      Documents.getExtractedDocument,
      { id: bulkId, companyId: company('llc') },
      { actor: actor('partner') },
    );
    expect(source.status).toBe('split_succeeded');
    // The parts are uploaded and the hidden source leaves the tree.
    const announced = async (event: { subject: string }, path: string) =>
      (await h.eventsOn(event.subject, (e) => e.path === path && e.firm_id === h.firm.firmId)).length;
    expect(await announced(DocumentsEvents.uploaded, '/W-2.pdf')).toBe(1);
    expect(await announced(DocumentsEvents.deleted, '/bundle.pdf')).toBe(1);
  });

  it("keeps the split's hidden source from clients: its downloads and its extracted document answer 404", async () => {
    // The source has every page of its parts, wherever the parts go (a STAFF ONLY folder included).
    const asClient = { actor: actor('client') };
    await expect(
      h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/bundle.pdf', isDownload: true },
        asClient,
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      h.bus.request(
        Documents.downloadMultipleDocuments,
        { companyId: company('llc'), links: ['/bundle.pdf', '/W-2.pdf'] },
        asClient,
      ),
    ).rejects.toMatchObject({ status: 404 });
    for (const call of [
      () =>
        h.bus.request(Documents.getExtractedDocument, { id: bulkId, companyId: company('llc') }, asClient),
      () => h.bus.request(Documents.getAnnotations, { id: bulkId, companyId: company('llc') }, asClient),
      () =>
        h.bus.request(
          Documents.updateMarkedAsOthers,
          { extractedDocumentId: bulkId, companyId: company('llc'), markedAsOthers: true },
          asClient,
        ),
      () =>
        h.bus.request(Documents.deleteExtractedDocument, { id: bulkId, companyId: company('llc') }, asClient),
    ])
      await expect(call()).rejects.toMatchObject({ status: 404 });
    // The parts are the client's to open; the source stays the firm's.
    await expect(
      h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/W-2.pdf', isDownload: true },
        asClient,
      ),
    ).resolves.toBeDefined();
    await expect(
      h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/bundle.pdf', isDownload: true },
        { actor: actor('partner') },
      ),
    ).resolves.toBeDefined();
  });

  it("leaves the advisors' description and tags out of a client's extracted documents", async () => {
    const res = await h.upload(
      actor('partner'),
      company('llc'),
      [{ name: 'receipt.pdf', body: await pdf(1) }],
      {
        documentType: 'bulk_document',
      },
    );
    const id = res.files[0]?.extractedDocumentId as string;
    await h.bus.request(
      Documents.updateDescription,
      { extractedDocumentId: id, description: 'Check the VAT' },
      { actor: actor('partner') },
    );
    await h.bus.request(
      Documents.updateTags,
      { extractedDocumentId: id, tags: ['vat'] },
      { actor: actor('partner') },
    );
    const get = (key: string) =>
      h.bus.request(Documents.getExtractedDocument, { id, companyId: company('llc') }, { actor: actor(key) });
    expect(await get('partner')).toMatchObject({ description: 'Check the VAT', tags: ['vat'] });
    expect(await get('client')).toMatchObject({
      documentLocation: '/receipt.pdf',
      description: '',
      tags: [],
    });
    const marked = await h.bus.request(
      Documents.updateMarkedAsOthers,
      { extractedDocumentId: id, companyId: company('llc'), markedAsOthers: true },
      { actor: actor('client') },
    );
    expect(marked).toMatchObject({ markedAsOthers: true, description: '', tags: [] });
  });

  it('refuses to split what is not a PDF', async () => {
    const res = await h.upload(actor('partner'), company('llc'), [{ name: 'img.png', body: await png() }], {
      documentType: 'bulk_document',
    });
    await expect(
      h.bus.request(
        Documents.splitDocuments,
        {
          id: res.files[0]?.extractedDocumentId as string,
          companyId: company('llc'),
          documents: [{ name: 'x', pages: '1' }],
        },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject({ status: 400, message: 'This document is not a PDF' });
  });

  it('saves and reads annotations with the editor rules', async () => {
    const annotation = {
      page: 1,
      x: 10,
      y: 20,
      width: 500,
      text: 'Sign here',
      color: 'red',
      mode: 'textbox',
    };
    await expect(
      h.bus.request(
        Documents.saveAnnotations,
        { id: bulkId, companyId: company('llc'), annotations: [annotation] },
        { actor: actor('client') },
      ),
    ).rejects.toMatchObject({ status: 403 });
    const saved = await h.bus.request(
      Documents.saveAnnotations,
      { id: bulkId, companyId: company('llc'), annotations: [annotation] },
      { actor: actor('partner') },
    );
    expect(saved.annotations[0]).toMatchObject({ width: 400, fontSize: 12, color: 'red' });
    const updated = await h.eventsOn(DocumentsEvents.updated.subject, (e) => e.path === '/bundle.pdf');
    expect(updated).toHaveLength(1);
    await expect(
      h.bus.request(
        Documents.saveAnnotations,
        { id: bulkId, companyId: company('llc'), annotations: [{ ...annotation, text: ' ' }] },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject({ status: 400 });
    const read = await h.bus.request(
      Documents.getAnnotations,
      { id: bulkId, companyId: company('llc') },
      { actor: actor('partner') },
    );
    expect(read.annotations).toHaveLength(1);
    // Spec 1 s.7.6 gives the call no payload: the document's company is found, and access to it checked.
    const alone = await h.bus.request(Documents.getAnnotations, { id: bulkId }, { actor: actor('partner') });
    expect(alone.annotations).toEqual(read.annotations);
    // A client of the firm with no access to the document's company is not told of it either.
    await expect(
      h.bus.request(Documents.getAnnotations, { id: bulkId }, { actor: actor('other') }),
    ).rejects.toMatchObject({ status: 404 });
    // A company sent with it must be the document's.
    const other = Object.entries(h.firm.companies).find(([key]) => key !== 'llc')?.[1]?.id as string;
    await expect(
      h.bus.request(Documents.getAnnotations, { id: bulkId, companyId: other }, { actor: actor('partner') }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('keeps annotations on their page, by the page sizes kept at upload and split, or measured once for an older document', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 300]);
    doc.addPage([612, 792]).setRotation(degrees(90));
    const body = Buffer.from(await doc.save());
    const res = await h.upload(actor('partner'), company('llc'), [{ name: 'sized.pdf', body }], {
      documentType: 'bulk_document',
    });
    const id = res.files[0]?.extractedDocumentId as string;
    const sizesOf = async (extractedId: string | undefined) =>
      (
        await h.documents.query<{ page_sizes: unknown }>(
          'select page_sizes from extracted_documents where id = $1',
          [extractedId],
        )
      )[0]?.page_sizes;
    // The second page is turned a quarter: shown landscape.
    expect(await sizesOf(id)).toEqual([
      [200, 300],
      [792, 612],
    ]);
    const save = (annotations: object[]) =>
      h.bus.request(
        Documents.saveAnnotations,
        { id, companyId: company('llc'), annotations: annotations as never },
        { actor: actor('partner') },
      );
    const note = { page: 1, x: 10, y: 20, width: 100, text: 'Sign here', color: 'red', mode: 'textbox' };
    const saved = await save([
      { ...note, x: 5_000, y: -3 },
      { ...note, page: 7, x: 700, y: 700 },
    ]);
    expect(saved.annotations.map((a) => [a.page, a.x, a.y])).toEqual([
      [1, 200, 0],
      [2, 700, 612],
    ]);
    // A document filed before the sizes were kept: its PDF is measured on the first save, and kept.
    await h.documents.query('update extracted_documents set page_sizes = null where id = $1', [id]);
    const again = await save([{ ...note, x: 5_000 }]);
    expect(again.annotations[0]).toMatchObject({ page: 1, x: 200 });
    expect(await sizesOf(id)).toEqual([
      [200, 300],
      [792, 612],
    ]);
    // One that cannot be measured (its file is not a PDF that opens) is kept as no sizes, and not read
    // on every save after.
    const [stored] = await h.documents.query<{ storage_key: string }>(
      'select storage_key from items where extracted_document_id = $1',
      [id],
    );
    const key = stored?.storage_key as string;
    const original = await h.store.read(key);
    await h.store.put(key, Buffer.alloc(original.length, 'x'), 'application/pdf');
    await h.documents.query('update extracted_documents set page_sizes = null where id = $1', [id]);
    await expect(save([note])).resolves.toMatchObject({ annotations: [{ page: 1 }] });
    expect(await sizesOf(id)).toEqual([]);
    await h.store.put(key, original, 'application/pdf');
    const split = await h.bus.request(
      Documents.splitDocuments,
      { id, companyId: company('llc'), documents: [{ name: 'Landscape', pages: '2' }] },
      { actor: actor('partner') },
    );
    expect(await sizesOf(split.documents[0]?.id)).toEqual([[792, 612]]);
  });

  it("edits description and tags of a document named alone, as the spec's payloads name it, within the firm only", async () => {
    const uploaded = await h.upload(
      actor('partner'),
      company('llc'),
      [{ name: 'wages.pdf', body: await pdf(1) }],
      { documentType: 'bulk_document' },
    );
    const id = uploaded.files[0]?.extractedDocumentId as string;
    const described = await h.bus.request(
      Documents.updateDescription,
      { extractedDocumentId: id, description: 'Wages' },
      { actor: actor('partner') },
    );
    expect(described.description).toBe('Wages');
    const tagged = await h.bus.request(
      Documents.updateTags,
      { extractedDocumentId: id, tags: ['Wages'] },
      { actor: actor('partner') },
    );
    expect(tagged).toMatchObject({ description: 'Wages', tags: ['Wages'] });
    const stranger = h.actorOf(h.other, 'partner');
    for (const [request, who] of [
      [{ extractedDocumentId: id, description: 'x' }, stranger],
      [{ extractedDocumentId: 'not-a-uuid', description: 'x' }, actor('partner')],
      // A company named is the document's, or the document is not found.
      [{ extractedDocumentId: id, description: 'x', companyId: company('individual') }, actor('partner')],
    ] as const)
      await expect(h.bus.request(Documents.updateDescription, request, { actor: who })).rejects.toMatchObject(
        {
          status: 404,
        },
      );
    await expect(
      h.bus.request(Documents.updateTags, { extractedDocumentId: id, tags: ['x'] }, { actor: stranger }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      h.bus.request(
        Documents.updateDescription,
        { extractedDocumentId: id, description: 'x' },
        { actor: actor('client') },
      ),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('shows on the extracted document the description and tags edited in the tree', async () => {
    const uploaded = await h.upload(
      actor('partner'),
      company('llc'),
      [{ name: 'payslip.pdf', body: await pdf(1) }],
      { documentType: 'bulk_document' },
    );
    const id = uploaded.files[0]?.extractedDocumentId as string;
    await h.bus.request(
      Documents.updateItem,
      {
        companyId: company('llc'),
        link: '/payslip.pdf',
        description: 'March payslip',
        updateTags: true,
        tags: ['Payroll'],
      },
      { actor: actor('partner') },
    );
    // Before, only the tree's item took them, and the extracted document kept the old ones.
    expect(
      await h.bus.request(
        Documents.getExtractedDocument,
        { id, companyId: company('llc') },
        { actor: actor('partner') },
      ),
    ).toMatchObject({ description: 'March payslip', tags: ['Payroll'] });
  });

  it('updates description, tags and marked-as-others; attaches once to a questionnaire; removes', async () => {
    const [w2] = (await h.list(actor('partner'), company('llc'))).documents.filter(
      (d) => d.name === 'W-2.pdf',
    );
    const id = w2?.extractedDocumentId as string;
    await expect(
      h.bus.request(
        Documents.updateDescription,
        { extractedDocumentId: id, description: 'x', companyId: company('llc') },
        { actor: actor('client') },
      ),
    ).rejects.toMatchObject({ status: 403 });
    await h.bus.request(
      Documents.updateDescription,
      { extractedDocumentId: id, description: 'Employer W-2', companyId: company('llc') },
      { actor: actor('partner') },
    );
    const tagged = await h.bus.request(
      Documents.updateTags,
      { extractedDocumentId: id, tags: ['W-2', 'W-2', ' 2024 '], companyId: company('llc') },
      { actor: actor('partner') },
    );
    expect(tagged).toMatchObject({ description: 'Employer W-2', tags: ['W-2', '2024'] });
    const marked = await h.bus.request(
      Documents.updateMarkedAsOthers,
      { extractedDocumentId: id, markedAsOthers: true, companyId: company('llc') },
      { actor: actor('client') },
    );
    expect(marked.markedAsOthers).toBe(true);
    await expect(
      h.bus.request(
        Documents.attachToQuestionnaire,
        { questionnaireId: 'q-1', companyId: company('llc'), extractedDocumentIds: [id] },
        { actor: actor('client') },
      ),
    ).rejects.toMatchObject({ status: 403 });
    // Two advisors attach it at once: one is attached, the other told it already is.
    const attaches = await Promise.allSettled(
      ['q-1', 'q-2'].map((questionnaireId) =>
        h.bus.request(
          Documents.attachToQuestionnaire,
          { questionnaireId, companyId: company('llc'), extractedDocumentIds: [id] },
          { actor: actor('partner') },
        ),
      ),
    );
    const attached = attaches.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(attached.map((a) => a.message)).toEqual(['Successfully attached']);
    expect(attaches.filter((a) => a.status === 'rejected').map((a) => a.reason.status)).toEqual([409]);
    const [stored] = await h.documents.query<{ questionnaire_id: string }>(
      'select questionnaire_id from extracted_documents where id = $1',
      [id],
    );
    expect(stored?.questionnaire_id).toBe(attached[0]?.documents[0]?.questionnaireId);
    await expect(
      h.bus.request(
        Documents.attachToQuestionnaire,
        { questionnaireId: 'q-2', companyId: company('llc'), extractedDocumentIds: [id] },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject({ status: 409 });
    // Description, tags, marked as others and the attachment: one event each.
    const updates = await h.eventsOn(DocumentsEvents.updated.subject, (e) => e.path === '/W-2.pdf', 4);
    expect(updates.map((e) => e.actor_user_id)).toEqual([
      h.firm.users.partner?.id,
      h.firm.users.partner?.id,
      h.firm.users.client?.id,
      h.firm.users.partner?.id,
    ]);
    await h.bus.request(
      Documents.deleteExtractedDocument,
      { id, companyId: company('llc') },
      { actor: actor('partner') },
    );
    expect((await h.list(actor('partner'), company('llc'))).documents.map((d) => d.name)).not.toContain(
      'W-2.pdf',
    );
    await expect(
      h.bus.request(
        Documents.getExtractedDocument,
        { id, companyId: h.other.companies.otto?.id as string },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  describe('drop link', () => {
    it('needs at least one chosen user, and only partners, admins and full users manage it', async () => {
      await expect(
        h.bus.request(Documents.saveDropLink, { notifyUserIds: [] }, { actor: actor('partner') }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Please select at least one user to receive notifications',
      });
      await expect(h.bus.request(Documents.getDropLink, {}, { actor: actor('group') })).rejects.toMatchObject(
        {
          status: 403,
        },
      );
      await expect(
        h.bus.request(Documents.getDropLink, {}, { actor: actor('client') }),
      ).rejects.toMatchObject({
        status: 403,
      });
      const saved = await h.bus.request(
        Documents.saveDropLink,
        { notifyUserIds: [h.firm.users.full?.id as string] },
        { actor: actor('admin') },
      );
      expect(saved.notifyUserIds).toEqual([h.firm.users.full?.id]);
      expect(saved.firmUsers.map((u) => u.id)).toContain(h.firm.users.full?.id);
      expect(saved.id).toMatch(/^[A-Za-z0-9_-]+$/);
      // Its secure upload page names the firm by slug.
      expect(saved.firmSlug).toMatch(/^firm-/);
    });

    it('takes public uploads, keeps valid ones and emails the chosen users', async () => {
      const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      const info = await h.bus.request(Documents.dropLinkInfo, { dropLinkId: id });
      expect(info.firmName).toMatch(/^Firm extracted-/);
      // The public page's branding and Sign in button come with the link, not from the URL.
      expect(info).toMatchObject({ firmSlug: expect.stringMatching(/^firm-/), hideSignInButton: false });
      expect(info.primary).toMatch(/^#[0-9a-f]{6}$/i);
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { hide_sign_in_button_on_drop_link: true } },
        { actor: actor('partner') },
      );
      const hidden = await h.bus.request(Documents.dropLinkInfo, { dropLinkId: id });
      expect(hidden.hideSignInButton).toBe(true);
      const files = [
        { name: 'receipt.pdf', body: await pdf() },
        { name: 'fake.pdf', body: await png() },
      ];
      const { links } = await h.bus.request(Documents.createDropOffLinks, {
        dropLinkId: id,
        files: files.map((f) => ({ name: f.name, size: BigInt(f.body.length) })),
      });
      for (const [i, link] of links.entries())
        await fetch(link.url, { method: 'PUT', headers: link.headers, body: files[i]?.body });
      await expect(
        h.bus.request(Documents.processDropOff, {
          dropLinkId: id,
          uploadIds: links.map((l) => l.uploadId),
          uploaderName: 'Visitor',
          uploaderEmail: 'not-an-email',
        }),
      ).rejects.toMatchObject({ status: 400 });
      const res = await h.bus.request(Documents.processDropOff, {
        dropLinkId: id,
        uploadIds: links.map((l) => l.uploadId),
        uploaderName: 'Visitor',
        uploaderEmail: 'visitor@example.com',
      });
      expect(res.invalidFiles).toEqual(['fake.pdf']);
      const list = await h.bus.request(Documents.listDropOffs, {}, { actor: actor('full') });
      expect(list.dropOffs.map((d) => d.name)).toEqual(['receipt.pdf']);
      const [mail] = await h.messagesTo(h.firm.users.full?.email as string);
      expect(mail?.text).toContain('receipt.pdf');
      // The link opens the page that lists the drop-offs to download.
      expect(mail?.text).toMatch(/https?:\/\/\S+\/drop-link-settings$/);
      expect(await h.lastMessageTo(h.firm.users.partner?.email as string)).toBeUndefined();
      await expect(
        h.bus.request(Documents.dropLinkInfo, { dropLinkId: `${id.slice(0, -4)}AAAA` }),
      ).rejects.toMatchObject({ status: 404 });
    });

    it('files a drop-off while the notifications service is away, and emails the chosen users once it is back', async () => {
      const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      const to = h.firm.users.full?.email as string;
      const before = (await h.messagesTo(to, 0)).length;
      const body = await pdf();
      const { links } = await h.bus.request(Documents.createDropOffLinks, {
        dropLinkId: id,
        files: [{ name: 'while-away.pdf', size: BigInt(body.length) }],
      });
      for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
      const jsm = await jetstreamManager(h.nc);
      const deliveries = async () =>
        (await jsm.consumers.info(EVENTS_STREAM, DROP_OFF_NOTIFICATIONS_CONSUMER)).delivered.consumer_seq;
      const deliveredBefore = await deliveries();
      const away = await h.stopNotifications();
      try {
        const res = await h.bus.request(Documents.processDropOff, {
          dropLinkId: id,
          uploadIds: links.map((l) => l.uploadId),
          uploaderName: 'Visitor',
          uploaderEmail: 'visitor@example.com',
        });
        expect(res.message).toBe('Document(s) uploaded successfully');
        // Back only once the event was tried while it was away: that try fails, and the email comes
        // from a later delivery.
        await waitFor(
          async () => (await deliveries()) > deliveredBefore,
          20_000,
          'a delivery of the event while notifications is away',
        );
      } finally {
        await away.resume();
      }
      // The event is delivered again (5 s after the failed try) until the email is queued, and only once.
      const deadline = Date.now() + 20_000;
      let mails = await h.messagesTo(to, before + 1);
      while (mails.length <= before && Date.now() < deadline) mails = await h.messagesTo(to, before + 1);
      expect(mails.length).toBe(before + 1);
      expect(mails[0]?.text).toContain('while-away.pdf');
      // Counted again once the notifier's consumer has nothing left to deliver or to be acked: a second
      // email could only come from a delivery still to come (the next one 5 s or more after a failure).
      await waitFor(
        async () => {
          const info = await jsm.consumers.info(EVENTS_STREAM, DROP_OFF_NOTIFICATIONS_CONSUMER);
          return info.num_pending === 0 && info.num_ack_pending === 0;
        },
        30_000,
        `the ${DROP_OFF_NOTIFICATIONS_CONSUMER} consumer to have no event pending or unacked`,
      );
      expect((await h.messagesTo(to, 0)).length).toBe(before + 1);
    });

    it('files the same uploads once when they are sent twice at once, and refuses bad ids and text', async () => {
      const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      const body = await pdf();
      const { links } = await h.bus.request(Documents.createDropOffLinks, {
        dropLinkId: id,
        files: [{ name: 'twice.pdf', size: BigInt(body.length) }],
      });
      for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
      const send = (extra: Partial<{ uploadIds: string[]; uploaderName: string; note: string }>) =>
        h.bus.request(Documents.processDropOff, {
          dropLinkId: id,
          uploadIds: links.map((l) => l.uploadId),
          uploaderName: 'Visitor',
          uploaderEmail: 'visitor@example.com',
          ...extra,
        });
      // A NUL (PostgreSQL refuses it in text) or another control character: 400, and the uploads stay.
      await expect(send({ uploaderName: 'Vis\u0000itor' })).rejects.toMatchObject({
        status: 400,
        message: 'Your name contains characters that are not allowed',
      });
      await expect(send({ note: 'see \u0007 attached' })).rejects.toMatchObject({ status: 400 });
      // An id that is not a UUID names no upload: 404, not a database error.
      await expect(send({ uploadIds: ['not-a-uuid'] })).rejects.toMatchObject({ status: 404 });
      const results = await Promise.allSettled([
        send({ note: 'first\nline two' }),
        send({ note: 'first\nline two' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 404 } });
      const list = await h.bus.request(Documents.listDropOffs, {}, { actor: actor('full') });
      expect(list.dropOffs.filter((d) => d.name === 'twice.pdf')).toHaveLength(1);
      // Sent again once filed, they are gone.
      await expect(send({})).rejects.toMatchObject({ status: 404 });
    });

    it('refuses uploads an hour past their link with 410, as the upload call does', async () => {
      const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      const body = await pdf();
      const { links } = await h.bus.request(Documents.createDropOffLinks, {
        dropLinkId: id,
        files: [{ name: 'late.pdf', size: BigInt(body.length) }],
      });
      for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
      await h.documents.query(`update uploads set expires_at = now() - interval '61 minutes' where id = $1`, [
        links[0]?.uploadId,
      ]);
      await expect(
        h.bus.request(Documents.processDropOff, {
          dropLinkId: id,
          uploadIds: links.map((l) => l.uploadId.toUpperCase()),
          uploaderName: 'Visitor',
          uploaderEmail: 'visitor@example.com',
        }),
      ).rejects.toMatchObject({
        status: 410,
        message: 'This upload link has expired. Please upload the file again.',
      });
    });

    it("lists received files a page at a time and deletes them with their objects, for the firm's managers only", async () => {
      const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      const body = await pdf();
      const names = ['p1.pdf', 'p2.pdf', 'p3.pdf', 'p4.pdf', 'p5.pdf'];
      const { links } = await h.bus.request(Documents.createDropOffLinks, {
        dropLinkId: id,
        files: names.map((name) => ({ name, size: BigInt(body.length) })),
      });
      for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
      // Filed by one statement: the five rows share their time to the microsecond.
      await h.bus.request(Documents.processDropOff, {
        dropLinkId: id,
        uploadIds: links.map((l) => l.uploadId),
        uploaderName: 'Spammer',
        uploaderEmail: 'spam@example.com',
      });
      const all = await h.bus.request(Documents.listDropOffs, { limit: 500 }, { actor: actor('full') });
      const pages: string[][] = [];
      let page = '';
      do {
        const res = await h.bus.request(Documents.listDropOffs, { page, limit: 2 }, { actor: actor('full') });
        pages.push(res.dropOffs.map((d) => d.id));
        page = res.nextPage;
      } while (page && pages.length < 100);
      expect(pages.flat()).toEqual(all.dropOffs.map((d) => d.id));
      expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true);
      expect(all.nextPage).toBe('');
      await expect(
        h.bus.request(Documents.listDropOffs, { page: 'not-a-page' }, { actor: actor('full') }),
      ).rejects.toMatchObject({ status: 400, message: 'This page of received files is not valid' });

      const spam = all.dropOffs.filter((d) => names.includes(d.name)).map((d) => d.id);
      expect(spam).toHaveLength(5);
      const keys = (
        await h.documents.query<{ storage_key: string }>(
          'select storage_key from drop_offs where id = any($1)',
          [spam],
        )
      ).map((r) => r.storage_key);
      // Not a client's, a group user's or another firm's to delete.
      for (const who of [actor('client'), actor('group'), h.actorOf(h.other, 'partner')])
        await expect(
          h.bus.request(Documents.deleteDropOffs, { ids: spam }, { actor: who }),
        ).rejects.toMatchObject({
          status: who.firm_id === h.firm.firmId ? 403 : 404,
        });
      await expect(
        h.bus.request(Documents.deleteDropOffs, { ids: [] }, { actor: actor('admin') }),
      ).rejects.toMatchObject({ status: 400 });
      const done = await h.bus.request(
        Documents.deleteDropOffs,
        { ids: spam.map((i) => i.toUpperCase()) },
        { actor: actor('admin') },
      );
      expect(done).toMatchObject({ deleted: 5, message: 'Deleted successfully' });
      const left = await h.bus.request(Documents.listDropOffs, { limit: 500 }, { actor: actor('full') });
      expect(left.dropOffs.map((d) => d.id)).toEqual(
        all.dropOffs.map((d) => d.id).filter((i) => !spam.includes(i)),
      );
      for (const key of keys) expect(await h.store.head(key)).toBeUndefined();
      // Their links may put them back until they expire: the sweep deletes the keys again after that.
      const discarded = await h.documents.query<{ n: number }>(
        'select count(*)::int as n from uploads where storage_key = any($1) and discarded',
        [keys],
      );
      expect(discarded[0]?.n).toBe(5);
      await expect(
        h.bus.request(Documents.downloadDropOff, { id: spam[0] as string }, { actor: actor('full') }),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        h.bus.request(Documents.deleteDropOffs, { ids: spam }, { actor: actor('admin') }),
      ).rejects.toMatchObject({ status: 404 });
    });
  });

  it("answers the portal's secure upload page by the firm's slug, while the drop link is on", async () => {
    const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
    const { firmSlug } = await h.bus.request(Documents.dropLinkInfo, { dropLinkId: id });
    const bySlug = await h.bus.request(Documents.dropLinkInfo, { firmSlug: ` ${firmSlug.toUpperCase()} ` });
    // The page uploads through the firm's own drop link.
    expect(bySlug).toMatchObject({ dropLinkId: id, firmSlug });
    const { links } = await h.bus.request(Documents.createDropOffLinks, {
      dropLinkId: bySlug.dropLinkId,
      files: [{ name: 'w2.pdf', size: 10n }],
    });
    expect(links).toHaveLength(1);
    for (const firmSlug of ['no-such-firm', '', 'x'.repeat(201)])
      await expect(h.bus.request(Documents.dropLinkInfo, { firmSlug })).rejects.toMatchObject({
        status: 404,
        message: Messages.dropLinkInvalid,
      });
    await h.bus.request(
      Identity.updatePreferences,
      { preferences: { drop_link_enabled: false } },
      { actor: actor('partner') },
    );
    try {
      await expect(h.bus.request(Documents.dropLinkInfo, { firmSlug })).rejects.toMatchObject({
        status: 404,
        message: Messages.dropLinkDisabled,
      });
    } finally {
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { drop_link_enabled: true } },
        { actor: actor('partner') },
      );
    }
  });

  it('seeds demo documents once per company through the service, skipping read-only and inactive ones', async () => {
    const { slug } = await h.bus.request(Identity.currentFirm, {}, { actor: h.actorOf(h.other, 'partner') });
    expect(await seedDemoDocuments(h.bus, slug)).toBeGreaterThan(3);
    expect(await seedDemoDocuments(h.bus, slug)).toBe(0);
    const otto = h.other.companies.otto?.id as string;
    const root = await h.list(h.actorOf(h.other, 'partner'), otto);
    expect(root.documents.map((d) => d.name)).toEqual(expect.arrayContaining(['Engagement letter.pdf']));
    const roCompany = await h.list(h.actorOf(h.other, 'partner'), h.other.companies.rex_ro?.id as string);
    expect(roCompany.documents.filter((d) => !d.isSystem)).toEqual([]);
    // The drop link tells the advisor the seed acts as of drop-offs until the firm chooses otherwise.
    const link = await h.bus.request(Documents.getDropLink, {}, { actor: h.actorOf(h.other, 'partner') });
    expect(link.notifyUserIds).toHaveLength(1);
    expect(link.firmUsers.map((u) => u.id)).toContain(link.notifyUserIds[0]);
  });
});
