import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { testFirmSpec } from '@portico/identity/testing';
import type { Actor } from '@portico/platform';
import { Documents, DocumentsEvents } from '@portico/proto';
import sharp from 'sharp';
import { ItemsRepository } from '../items/items.repository.js';
import { Messages } from '../messages.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import {
  encryptedPdf,
  handWrittenPdf,
  heicHeader,
  jpeg,
  pdf,
  png,
  quadrantColours,
  REAL_HEIC,
  REAL_HEIC_QUADRANTS,
  realHeic,
  zipEntries,
} from './samples.js';

const INVALID =
  'We were unable to process some of uploaded files as they appear to be INVALID. Kindly check those files and try uploading them again.';
const TOO_LARGE =
  "Unfortunately, that folder/file is too large to download. Can you split it up into smaller batches? Generally, the total size should be less than 150MB. And if you're converting images to PDF, it should be less than 15MB.";

/** The bytes of each entry of a zip. */
async function unzip(bytes: Buffer): Promise<Record<string, Buffer>> {
  const entries = await zipEntries(bytes);
  return Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, entry.bytes]));
}

jest.setTimeout(60_000);

describe('documents: uploads, the tree, downloads and permissions', () => {
  let h: DocumentsHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const company = (key: string) => h.firm.companies[key]?.id as string;
  const names = (docs: { name: string }[]) => docs.map((d) => d.name);
  /** 'done', or the refusal's status and message. */
  const outcome = (call: Promise<unknown>) =>
    call.then(
      () => 'done',
      (err: { status: number; message: string }) => [err.status, err.message],
    );

  beforeAll(async () => {
    h = await startDocumentsHarness('docs');
  });
  afterAll(async () => {
    await h.stop();
  });

  describe('upload: presigned link, direct PUT, process', () => {
    it('stores a file under the type of its cleaned name, which its preview is served with', async () => {
      const body = await pdf();
      const res = await h.bus.request(
        Documents.createUploadLinks,
        { companyId: company('llc'), files: [{ name: 'W2 copy.pdf,', size: BigInt(body.length) }] },
        { actor: actor('partner') },
      );
      const link = res.links[0];
      expect(link?.headers['content-type']).toBe('application/pdf');
      await fetch(link?.url as string, { method: 'PUT', headers: link?.headers, body });
      const filed = await h.bus.request(
        Documents.processDocument,
        { companyId: company('llc'), uploadIds: [link?.uploadId as string] },
        { actor: actor('partner') },
      );
      expect(filed.files.map((f) => f.documentName)).toEqual(['W2 copy.pdf']);
      const preview = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/W2 copy.pdf', isDownload: false },
        { actor: actor('partner') },
      );
      const got = await fetch(preview.document?.data?.link as string);
      expect(got.headers.get('content-type')).toBe('application/pdf');
      await h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/W2 copy.pdf' },
        { actor: actor('partner') },
      );
    });

    it('takes upload ids in capitals, and refuses uploads an hour past their link with 410', async () => {
      const body = await pdf();
      const links = async (name: string) => {
        const res = await h.bus.request(
          Documents.createUploadLinks,
          { companyId: company('llc'), files: [{ name, size: BigInt(body.length) }] },
          { actor: actor('partner') },
        );
        for (const link of res.links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
        return res.links.map((l) => l.uploadId);
      };
      const process = (uploadIds: string[]) =>
        h.bus.request(
          Documents.processDocument,
          { companyId: company('llc'), uploadIds },
          { actor: actor('partner') },
        );
      const capitals = await links('capitals.pdf');
      const filed = await process(capitals.map((id) => id.toUpperCase()));
      expect(filed.files.map((f) => f.documentName)).toEqual(['capitals.pdf']);
      const [late] = await links('late.pdf');
      await h.documents.query(`update uploads set expires_at = now() - interval '61 minutes' where id = $1`, [
        late,
      ]);
      await expect(process([late as string])).rejects.toMatchObject({
        status: 410,
        message: 'This upload link has expired. Please upload the file again.',
      });
      await h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/capitals.pdf' },
        { actor: actor('partner') },
      );
    });

    it('files valid files with sanitised names and reports the spec fields', async () => {
      const res = await h.upload(actor('partner'), company('llc'), [
        { name: 'W-2 form #1 (final).pdf', body: await pdf(2) },
        { name: 'photo.png', body: await png() },
        { name: 'scan.JPG', body: await jpeg() },
        { name: 'notes.txt', body: Buffer.from('plain text') },
      ]);
      expect(res.message).toBe('Document(s) uploaded successfully');
      expect(res.files.map((f) => f.documentLocation)).toEqual([
        '/W-2 form 1 (final).pdf',
        '/photo.png',
        '/scan.JPG',
        '/notes.txt',
      ]);
      const root = await h.list(actor('partner'), company('llc'));
      expect(names(root.documents)).toEqual(
        expect.arrayContaining(['_portico', 'W-2 form 1 (final).pdf', 'photo.png', 'scan.JPG', 'notes.txt']),
      );
      const file = root.documents.find((d) => d.name === 'photo.png');
      expect(file).toMatchObject({
        type: 'file',
        link: '/photo.png',
        contentType: 'image/png',
        isProtected: false,
      });
    });

    it('skips a PNG renamed .pdf as INVALID, files nothing for it and deletes its object', async () => {
      const res = await h.upload(actor('partner'), company('llc'), [
        { name: 'fake.pdf', body: await png() },
        { name: 'real.pdf', body: await pdf() },
      ]);
      expect(res.message).toBe(INVALID);
      expect(res.invalidFiles).toEqual(['fake.pdf']);
      expect(res.files.find((f) => f.documentName === 'fake.pdf')).toMatchObject({ invalid: true });
      const root = await h.list(actor('partner'), company('llc'));
      expect(names(root.documents)).not.toContain('fake.pdf');
      expect(names(root.documents)).toContain('real.pdf');
      const [count] = await h.documents.query<{ n: string }>(
        `select count(*) as n from items where name = 'fake.pdf'`,
      );
      expect(Number(count?.n)).toBe(0);
    });

    it('files a batch in one call: order kept, duplicates in the call and in the folder, one event per file', async () => {
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), path: '', name: 'Batch' },
        { actor: actor('partner') },
      );
      await h.upload(actor('partner'), company('llc'), [{ name: 'taken.pdf', body: await pdf() }], {
        path: '/Batch',
      });
      const before = await h.documents.query<{ n: string }>(
        `select count(*) as n from outbox_events where subject = 'events.documents.item.uploaded.v1'`,
      );
      const batch = [
        ...(await Promise.all(
          Array.from({ length: 12 }, async (_, i) => ({ name: `b${i}.pdf`, body: await pdf() })),
        )),
        { name: 'TAKEN.pdf', body: await pdf() },
        { name: 'twice.png', body: await png() },
        { name: 'Twice.png', body: await png() },
        { name: 'bad.jpg', body: await png() },
      ];
      const res = await h.upload(actor('partner'), company('llc'), batch, { path: '/Batch' });
      expect(res.files.map((f) => f.documentName)).toEqual(batch.map((f) => f.name));
      expect(res.files.filter((f) => f.isDuplicate).map((f) => f.message)).toEqual([
        'TAKEN.pdf was already uploaded',
        'Twice.png was already uploaded',
      ]);
      expect(res.invalidFiles).toEqual(['bad.jpg']);
      const listed = names((await h.list(actor('partner'), company('llc'), '/Batch')).documents);
      expect(listed.sort()).toEqual(
        ['taken.pdf', 'twice.png', ...Array.from({ length: 12 }, (_, i) => `b${i}.pdf`)].sort(),
      );
      const after = await h.documents.query<{ n: string }>(
        `select count(*) as n from outbox_events where subject = 'events.documents.item.uploaded.v1'`,
      );
      expect(Number(after[0]?.n) - Number(before[0]?.n)).toBe(13);
      const consumed = await h.documents.query<{ n: string }>(
        `select count(*) as n from uploads where consumed_at is null and id = any($1::uuid[])`,
        [res.files.map((f) => f.uploadId)],
      );
      expect(Number(consumed[0]?.n)).toBe(0);
      // Processing the same ids again finds nothing pending.
      await expect(
        h.bus.request(
          Documents.processDocument,
          { companyId: company('llc'), path: '/Batch', uploadIds: [res.files[0]?.uploadId as string] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 404 });
    });

    it('answers 400 with the INVALID message when every file is invalid', async () => {
      await expect(
        h.upload(actor('partner'), company('llc'), [{ name: 'x.gif', body: await png() }]),
      ).rejects.toMatchObject({ status: 400, message: INVALID });
      await expect(
        h.upload(actor('partner'), company('llc'), [{ name: 'empty.png', body: Buffer.alloc(0) }]),
      ).rejects.toMatchObject({ status: 400, message: INVALID });
    });

    it('flags an encrypted PDF as password-protected and accepts a HEIC by its first bytes', async () => {
      const res = await h.upload(actor('partner'), company('llc'), [
        { name: 'locked.pdf', body: encryptedPdf() },
        { name: 'phone.heic', body: heicHeader() },
        // Read by their trailers: at the end of the file, and where a linearized file's startxref points.
        { name: 'locked-long.pdf', body: handWrittenPdf({ encrypted: true, padBytes: 40_000 }) },
        {
          name: 'locked-linearized.pdf',
          body: handWrittenPdf({ encrypted: true, padBytes: 40_000, sectionFirst: true, xrefStream: true }),
        },
        { name: 'open-long.pdf', body: handWrittenPdf({ padBytes: 40_000, sectionFirst: true }) },
      ]);
      expect(res.files.map((f) => [f.isProtected, f.invalid])).toEqual([
        [true, false],
        [false, false],
        [true, false],
        [true, false],
        [false, false],
      ]);
      const root = await h.list(actor('partner'), company('llc'));
      expect(root.documents.find((d) => d.name === 'locked.pdf')?.isProtected).toBe(true);
      // Not a decodable image: the preview conversion runs off the request path and records the failure.
      await h.documents.previewsIdle();
      await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/phone.heic', isDownload: false },
        { actor: actor('partner') },
      );
      await h.documents.previewsIdle();
      const preview = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/phone.heic', isDownload: false },
        { actor: actor('partner') },
      );
      expect(preview.document?.data?.previewStatus).toBe('failed');
    });

    it('files a real HEIC photo by its first bytes and serves a JPEG preview of it once converted', async () => {
      const res = await h.upload(actor('partner'), company('llc'), [
        { name: 'IMG_0042.HEIC', body: realHeic() },
      ]);
      expect(res.files[0]).toMatchObject({ invalid: false, documentLocation: '/IMG_0042.HEIC' });
      const filed = (await h.list(actor('partner'), company('llc'))).documents.find(
        (d) => d.name === 'IMG_0042.HEIC',
      );
      expect(filed).toMatchObject({ contentType: 'image/heic', size: BigInt(realHeic().length) });
      await h.documents.previewsIdle();
      const preview = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/IMG_0042.HEIC', isDownload: false },
        { actor: actor('client') },
      );
      expect(preview.document?.data?.previewStatus).toBe('ready');
      // The finished preview is announced, so an open file manager can show it without asking again.
      const announced = await h.eventsOn(
        DocumentsEvents.updated.subject,
        (e) => e.path === '/IMG_0042.HEIC' && !e.actor_user_id,
      );
      expect(announced).toHaveLength(1);
      const got = await fetch(preview.document?.data?.link as string);
      expect(got.status).toBe(200);
      const jpegBytes = Buffer.from(await got.arrayBuffer());
      expect(await sharp(jpegBytes).metadata()).toMatchObject({ format: 'jpeg', ...REAL_HEIC });
      expect(await quadrantColours(jpegBytes)).toEqual(REAL_HEIC_QUADRANTS);
      // The download itself is still the original HEIC.
      const original = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/IMG_0042.HEIC', isDownload: true },
        { actor: actor('partner') },
      );
      const raw = Buffer.from(await (await fetch(original.document?.data?.link as string)).arrayBuffer());
      expect(raw.equals(realHeic())).toBe(true);
      // Moved to another company, the photo leaves no preview behind in storage.
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: company('llc'),
          oldPath: '/IMG_0042.HEIC',
          newPath: '',
          deleteOldPath: true,
          newCompanyId: company('individual'),
        },
        { actor: actor('partner') },
      );
      expect((await fetch(preview.document?.data?.link as string)).status).toBe(404);
    });

    it("answers '{file} was already uploaded' with is_duplicate for a name already in the folder", async () => {
      const res = await h.upload(actor('partner'), company('llc'), [
        { name: 'photo.png', body: await png(8, 8) },
      ]);
      expect(res).toMatchObject({ isDuplicate: true, message: 'photo.png was already uploaded' });
    });

    it("answers a duplicate uploaded from a questionnaire with the questionnaire's message (spec 2 s.5)", async () => {
      const res = await h.upload(
        actor('client'),
        company('llc'),
        [{ name: 'photo.png', body: await png(8, 8) }],
        {
          questionnaireId: 'q-1',
        },
      );
      expect(res.files[0]).toMatchObject({
        isDuplicate: true,
        message: 'photo.png has already been uploaded in this questionnaire. It will not be uploaded again.',
      });
    });

    it('refuses more than 999 files, a file over 150 MB, unknown types and a prior-year upload without a year', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}.txt`, size: 1n }));
      await expect(
        h.bus.request(
          Documents.createUploadLinks,
          { companyId: company('llc'), files: many },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400 });
      await expect(
        h.bus.request(
          Documents.createUploadLinks,
          { companyId: company('llc'), files: [{ name: 'big.pdf', size: BigInt(150 * 1024 * 1024 + 1) }] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 413 });
      await expect(
        h.bus.request(
          Documents.createUploadLinks,
          { companyId: company('llc'), documentType: 'nonsense', files: [{ name: 'a.pdf', size: 1n }] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400 });
      await expect(
        h.bus.request(
          Documents.createUploadLinks,
          {
            companyId: company('llc'),
            documentType: 'prior_year_document',
            files: [{ name: 'a.pdf', size: 1n }],
          },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'missing year' });
    });

    it('files the upload types in their folders: prior year (STAFF ONLY), signature requests', async () => {
      const prior = await h.upload(
        actor('full'),
        company('llc'),
        [{ name: '2022 return.pdf', body: await pdf() }],
        {
          documentType: 'prior_year_document',
          taxYear: '2022',
        },
      );
      expect(prior.documentLocation).toBe(
        '/2022/Tax Returns and Tax Organizers (STAFF ONLY)/2022 return.pdf',
      );
      const sig = await h.upload(actor('full'), company('llc'), [{ name: 'form.pdf', body: await pdf() }], {
        documentType: 'signature_request',
      });
      expect(sig.documentLocation).toBe('/_portico/Signature Requests/form.pdf');
      await expect(
        h.upload(actor('client'), company('llc'), [{ name: 'form.pdf', body: await pdf() }], {
          documentType: 'tax_return_delivery',
        }),
      ).rejects.toMatchObject({ status: 403 });
    });

    it('never processes another user’s upload ids', async () => {
      const { links } = await h.bus.request(
        Documents.createUploadLinks,
        { companyId: company('llc'), files: [{ name: 'mine.txt', size: 2n }] },
        { actor: actor('partner') },
      );
      await fetch(links[0]?.url as string, { method: 'PUT', headers: links[0]?.headers, body: 'hi' });
      await expect(
        h.bus.request(
          Documents.processDocument,
          { companyId: company('llc'), uploadIds: [links[0]?.uploadId as string] },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('listing large folders a page at a time', () => {
    /** Fills /Big with `n` files and a STAFF ONLY folder straight in the table, as an old archive would be. */
    async function seedBig(n: number) {
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('individual'), path: '', name: 'Big' },
        { actor: actor('partner') },
      );
      await h.documents.query(
        `insert into items (firm_id, company_id, folder, name, type, size, tags, created_at)
         select $1::uuid, $2::uuid, '/Big', 'file ' || lpad(g::text, 4, '0') || '.pdf', 'file', g,
                case when g % 5 = 0 then array['t' || g] else '{}'::text[] end, now() - g * interval '1 second'
         from generate_series(1, $3::int) g
         union all select $1::uuid, $2::uuid, '/Big', 'Notes (STAFF ONLY)', 'folder', 0, '{}', now()`,
        [h.firm.firmId, company('individual'), n],
      );
    }
    /** Every page of a listing of /Big (or `path`), following next_page_token. */
    const pagesOf = async (
      key: string,
      request: { path?: string; pageSize: number; columnar?: boolean; lean?: boolean },
    ) => {
      const pages = [];
      let pageToken = '';
      do {
        const page = await h.bus.request(
          Documents.getDocuments,
          { companyId: company('individual'), path: '/Big', ...request, pageToken },
          { actor: actor(key) },
        );
        pages.push(page);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return pages;
    };
    const all = (key: string, pageSize: number, columnar: boolean) => pagesOf(key, { pageSize, columnar });

    it('follows next_page_token through every item once, in order, as documents or as columns', async () => {
      await seedBig(45);
      const expected = [
        'Notes (STAFF ONLY)',
        ...Array.from({ length: 45 }, (_, i) => `file ${String(i + 1).padStart(4, '0')}.pdf`),
      ];
      const pages = await all('partner', 10, false);
      expect(pages.map((p) => p.count)).toEqual([10, 10, 10, 10, 6]);
      const documents = pages.flatMap((p) => p.documents);
      expect(documents.map((d) => d.name)).toEqual(expected);
      expect(documents[5]).toMatchObject({
        link: '/Big/file 0005.pdf',
        path: '/Big',
        size: 5n,
        tags: ['t5'],
      });

      const columns = (await all('partner', 10, true)).map((p) => p.columns);
      expect(columns.flatMap((c) => c?.name)).toEqual(expected);
      const last = columns[4];
      expect(last?.companyId).toBe(company('individual'));
      expect(last?.taggedIndex).toEqual([0, 5]);
      expect(last?.tagged.map((t) => t.tags)).toEqual([['t40'], ['t45']]);
      expect(columns[0]?.staffOnly[0]).toBe(true);
      expect(columns[0]?.createdAt[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('checks access on every page, keeps STAFF ONLY from clients and refuses a forged token', async () => {
      const clientNames = (await all('client', 20, true)).flatMap((p) => p.columns?.name ?? []);
      expect(clientNames).toHaveLength(45);
      expect(clientNames).not.toContain('Notes (STAFF ONLY)');
      const first = await h.bus.request(
        Documents.getDocuments,
        { companyId: company('individual'), path: '/Big', pageSize: 10 },
        { actor: actor('partner') },
      );
      await expect(
        h.bus.request(
          Documents.getDocuments,
          { companyId: company('individual'), path: '/Big', pageToken: first.nextPageToken },
          { actor: h.actorOf(h.other, 'partner') },
        ),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        h.bus.request(
          Documents.getDocuments,
          { companyId: company('individual'), path: '/Big', pageToken: 'bm90IGEgdG9rZW4' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'This list has changed; please reload it' });
    });

    const leanPages = async (key: string, path: string, pageSize: number) =>
      (await pagesOf(key, { path, pageSize, lean: true })).map((page) => ({
        ...page,
        items: JSON.parse(`[${page.leanItems}]`) as Record<string, unknown>[],
      }));

    it('pages the lean shape too: every item once, in order, STAFF ONLY marked for advisors and left out for clients', async () => {
      const partner = await leanPages('partner', '/Big', 10);
      expect(partner.map((p) => p.count)).toEqual([10, 10, 10, 10, 6]);
      const items = partner.flatMap((p) => p.items);
      expect(items.map((i) => i.name)).toEqual([
        'Notes (STAFF ONLY)',
        ...Array.from({ length: 45 }, (_, i) => `file ${String(i + 1).padStart(4, '0')}.pdf`),
      ]);
      expect(items[0]).toMatchObject({ type: 'folder', staff_only: true });
      expect(items[5]).toMatchObject({ name: 'file 0005.pdf', size: '5', tags: ['t5'] });
      expect(items[5]).not.toHaveProperty('staff_only');
      // Without a page size, one page holds the folder.
      expect((await leanPages('partner', '/Big', 0)).map((p) => p.count)).toEqual([46]);
      const client = await leanPages('client', '/Big', 20);
      expect(client.map((p) => p.count)).toEqual([20, 20, 5]);
      expect(client.flatMap((p) => p.items).map((i) => i.name)).not.toContain('Notes (STAFF ONLY)');

      // The stored listing JSON follows every change of the row: renamed, then deleted (listed with deleted).
      await h.bus.request(
        Documents.renameItem,
        {
          companyId: company('individual'),
          path: '/Big',
          itemName: 'file 0001.pdf',
          newName: "renamed 'one'",
        },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: company('individual'), path: '/Big', documentName: 'file 0002.pdf', isFolder: false },
        { actor: actor('partner') },
      );
      const after = (await leanPages('partner', '/Big', 0))[0]?.items ?? [];
      const renamed = after.find((i) => i.name === "renamed 'one'.pdf");
      expect(renamed).toMatchObject({ size: '1', type: 'file' });
      expect(String(renamed?.updated_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(after.map((i) => i.name)).not.toContain('file 0002.pdf');
      const withDeleted = await h.bus.request(
        Documents.getDocuments,
        { companyId: company('individual'), path: '/Big', lean: true, showWithDeleted: true },
        { actor: actor('partner') },
      );
      expect(
        JSON.parse(`[${withDeleted.leanItems}]`).find((i: { name: string }) => i.name === 'file 0002.pdf'),
      ).toMatchObject({
        deleted_at: expect.stringMatching(/Z$/),
      });
    });

    it('answers a token the query could not take with the bad-token 400, not a 500', async () => {
      const first = await h.bus.request(
        Documents.getDocuments,
        { companyId: company('individual'), path: '/Big', pageSize: 10 },
        { actor: actor('partner') },
      );
      const cursor = JSON.parse(Buffer.from(first.nextPageToken, 'base64url').toString('utf8'));
      for (const forged of [
        { ...cursor, id: '-'.repeat(36) },
        { ...cursor, createdAt: '2024-02-30 10:00:00+00' },
        { ...cursor, createdAt: '2024-13-01 10:00:00+00' },
      ])
        for (const lean of [false, true])
          await expect(
            h.bus.request(
              Documents.getDocuments,
              {
                companyId: company('individual'),
                path: '/Big',
                lean,
                pageToken: Buffer.from(JSON.stringify(forged)).toString('base64url'),
              },
              { actor: actor('partner') },
            ),
          ).rejects.toMatchObject({ status: 400, message: 'This list has changed; please reload it' });
    });

    it('cuts a lean page before it would pass the bus limit, and the next page carries on', async () => {
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('individual'), path: '', name: 'Heavy' },
        { actor: actor('partner') },
      );
      // 120 items with descriptions of 100,000 characters, half of them quotes: each quote takes four
      // bytes once the item's JSON travels inside the reply's JSON, so about 250 KB an item, 30 MB in
      // all: four pages of the 8 MB bus.
      await h.documents.query(
        `insert into items (firm_id, company_id, folder, name, type, description)
         select $1::uuid, $2::uuid, '/Heavy', 'scan ' || lpad(g::text, 3, '0') || '.pdf', 'file',
                repeat('a"', 50000)
         from generate_series(1, 120) g`,
        [h.firm.firmId, company('individual')],
      );
      const pages = await leanPages('partner', '/Heavy', 0);
      expect(pages.map((p) => p.count)).toEqual([33, 33, 33, 21]);
      for (const page of pages)
        expect(Buffer.byteLength(JSON.stringify(page.leanItems))).toBeLessThan(8 * 1024 * 1024);
      expect(pages.flatMap((p) => p.items).map((i) => i.name)).toEqual(
        Array.from({ length: 120 }, (_, i) => `scan ${String(i + 1).padStart(3, '0')}.pdf`),
      );
    });
  });

  describe('folders, rename, move and copy, delete and restore', () => {
    it('creates folders with sanitised names and refuses empty names and duplicates', async () => {
      const res = await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), path: '', name: '  Receipts / 2024?? ' },
        { actor: actor('partner') },
      );
      expect(res.document?.link).toBe('/Receipts 2024');
      // A name of dots would be a path step ('/..'): no later call could reach the folder.
      for (const name of [' /// ', '..', '.']) {
        await expect(
          h.bus.request(
            Documents.createFolder,
            { companyId: company('llc'), name },
            { actor: actor('partner') },
          ),
        ).rejects.toMatchObject({ status: 400, message: 'Please enter a folder name' });
      }
      await expect(
        h.bus.request(
          Documents.createFolder,
          { companyId: company('llc'), name: 'receipts 2024' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 409 });
    });

    it('answers 409 to all but one of the same folder made at once, and to a rename racing onto it', async () => {
      const make = (name: string) =>
        h.bus
          .request(Documents.createFolder, { companyId: company('llc'), name }, { actor: actor('partner') })
          .then(
            () => 200,
            (err: { status?: number }) => err.status,
          );
      const statuses = await Promise.all([1, 2, 3, 4].map(() => make('Race')));
      expect(statuses.sort()).toEqual([200, 409, 409, 409]);
      await make('Race B');
      const outcomes = await Promise.all([
        make('Race C'),
        h.bus
          .request(
            Documents.renameItem,
            { companyId: company('llc'), path: '', itemName: 'Race B', newName: 'Race C' },
            { actor: actor('partner') },
          )
          .then(
            () => 200,
            (err: { status?: number }) => err.status,
          ),
      ]);
      expect(outcomes.sort()).toEqual([200, 409]);
      for (const name of ['Race', 'Race B', 'Race C'].filter((n) => n !== 'Race B' || outcomes[0] !== 200))
        await h.bus
          .request(
            Documents.deleteDocument,
            { companyId: company('llc'), path: '', documentName: name, isFolder: true },
            { actor: actor('partner') },
          )
          .catch(() => undefined);
    });

    it('renames a file keeping its extension, and a folder with its contents', async () => {
      await h.upload(actor('partner'), company('llc'), [{ name: 'inv.pdf', body: await pdf() }], {
        path: '/Receipts 2024',
      });
      const renamed = await h.bus.request(
        Documents.renameItem,
        { companyId: company('llc'), path: '/Receipts 2024', itemName: 'inv.pdf', newName: 'Invoice March' },
        { actor: actor('partner') },
      );
      expect(renamed.document?.name).toBe('Invoice March.pdf');
      await h.bus.request(
        Documents.renameItem,
        { companyId: company('llc'), path: '', itemName: 'Receipts 2024', newName: 'Receipts' },
        { actor: actor('partner') },
      );
      const inside = await h.list(actor('partner'), company('llc'), '/Receipts');
      expect(names(inside.documents)).toEqual(['Invoice March.pdf']);
      await expect(
        h.bus.request(
          Documents.renameItem,
          { companyId: company('llc'), path: '/Receipts', itemName: 'Invoice March.pdf', newName: '  ' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400 });
    });

    it('keeps every name within the longest the gateway takes, so each item can be renamed and deleted again', async () => {
      const as = { actor: actor('partner') };
      const llc = company('llc');
      const path = '/Long names';
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Long names' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'a.pdf', body: await pdf() }], { path });
      // 255 characters typed, and the extension put back: cut to the 255 a name holds, not 259.
      const long = 'n'.repeat(255);
      const renamed = await h.bus.request(
        Documents.renameItem,
        { companyId: llc, path, itemName: 'a.pdf', newName: long },
        as,
      );
      const stored = `${'n'.repeat(251)}.pdf`;
      expect(renamed.document?.name).toBe(stored);
      // The second step, by the name as stored, which the gateway takes.
      const again = await h.bus.request(
        Documents.renameItem,
        { companyId: llc, path, itemName: stored, newName: long },
        as,
      );
      expect(again.document?.name).toBe(stored);
      // A copy beside it: numbered, the stem cut and the number and extension kept.
      const copy = await h.bus.request(
        Documents.moveItem,
        { companyId: llc, oldPath: `${path}/${stored}`, newPath: path, deleteOldPath: false },
        as,
      );
      const copied = `${'n'.repeat(247)} (1).pdf`;
      expect(copy.document?.name).toBe(copied);
      // An upload's own name and the one it is given: within the limit too.
      const named = await h.upload(actor('partner'), llc, [{ name: 'b.pdf', body: await pdf() }], {
        path,
        newName: 'm'.repeat(255),
      });
      expect(named.files[0]?.documentName).toBe(`${'m'.repeat(251)}.pdf`);
      const listed = names((await h.list(actor('partner'), llc, path)).documents);
      expect(listed.every((name) => name.length <= 255)).toBe(true);
      for (const documentName of [stored, copied])
        await h.bus.request(
          Documents.deleteDocument,
          { companyId: llc, path, documentName, isFolder: false },
          as,
        );
      expect(names((await h.list(actor('partner'), llc, path)).documents)).toEqual([
        `${'m'.repeat(251)}.pdf`,
      ]);
      // A folder an upload would make under a name no longer than a path allows, not than a name does.
      await expect(
        h.upload(actor('partner'), llc, [{ name: 'c.pdf', body: await pdf() }], {
          path: `${path}/${'f'.repeat(256)}`,
        }),
      ).rejects.toMatchObject({ status: 400, message: 'Name is too long' });
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: llc, path: '', documentName: 'Long names', isFolder: true },
        as,
      );
    });

    it('moves within a company, copies with a numbered name, and refuses moving or copying a folder into itself', async () => {
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), name: 'Archive' },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.moveItem,
        { companyId: company('llc'), oldPath: '/notes.txt', newPath: '/Archive', deleteOldPath: true },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: company('llc'),
          oldPath: '/Archive/notes.txt',
          newPath: '/Archive',
          deleteOldPath: false,
        },
        { actor: actor('partner') },
      );
      const archive = await h.list(actor('partner'), company('llc'), '/Archive');
      expect(names(archive.documents).sort()).toEqual(['notes (1).txt', 'notes.txt']);
      const intoItself = [
        [true, 'A folder cannot be moved into itself'],
        [false, 'A folder cannot be copied into itself'],
      ] as const;
      for (const [deleteOldPath, message] of intoItself) {
        await expect(
          h.bus.request(
            Documents.moveItem,
            {
              companyId: company('llc'),
              oldPath: '/Receipts',
              newPath: '/Receipts',
              deleteOldPath,
              isFolder: true,
            },
            { actor: actor('partner') },
          ),
        ).rejects.toMatchObject({ status: 400, message });
      }
    });

    it('copies and moves a folder to another company of the firm, objects included, and 404s another firm', async () => {
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: company('llc'),
          oldPath: '/Receipts',
          newPath: '',
          deleteOldPath: false,
          isFolder: true,
          newCompanyId: company('individual'),
        },
        { actor: actor('partner') },
      );
      const copied = await h.list(actor('partner'), company('individual'), '/Receipts');
      expect(names(copied.documents)).toEqual(['Invoice March.pdf']);
      const link = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('individual'), link: '/Receipts/Invoice March.pdf', isDownload: true },
        { actor: actor('partner') },
      );
      const got = await fetch(link.document?.data?.link as string);
      expect(got.status).toBe(200);
      expect((await got.arrayBuffer()).byteLength).toBeGreaterThan(100);
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: company('llc'),
          oldPath: '/scan.JPG',
          newPath: '',
          deleteOldPath: true,
          newCompanyId: company('individual'),
        },
        { actor: actor('partner') },
      );
      expect(names((await h.list(actor('partner'), company('llc'))).documents)).not.toContain('scan.JPG');
      expect(names((await h.list(actor('partner'), company('individual'))).documents)).toContain('scan.JPG');
      // Moved, not deleted: the old company offers nothing to restore (its object went with the move).
      expect(names((await h.list(actor('partner'), company('llc'), '', true)).documents)).not.toContain(
        'scan.JPG',
      );
      await expect(
        h.bus.request(
          Documents.restoreDeletedDocument,
          { companyId: company('llc'), path: '/scan.JPG' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        h.bus.request(
          Documents.moveItem,
          {
            companyId: company('llc'),
            oldPath: '/photo.png',
            newPath: '',
            deleteOldPath: false,
            newCompanyId: h.other.companies.otto?.id as string,
          },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 404 });
    });

    it("keeps a client's files with their entity: moving or copying to another of their entities is for advisors", async () => {
      const before = names((await h.list(actor('partner'), company('individual'))).documents);
      for (const deleteOldPath of [true, false])
        await expect(
          h.bus.request(
            Documents.moveItem,
            {
              companyId: company('llc'),
              oldPath: '/photo.png',
              newPath: '',
              deleteOldPath,
              newCompanyId: company('individual'),
            },
            { actor: actor('client') },
          ),
        ).rejects.toMatchObject({ status: 403, code: 'advisor_only' });
      expect(names((await h.list(actor('partner'), company('individual'))).documents)).toEqual(before);
      expect(names((await h.list(actor('client'), company('llc'))).documents)).toContain('photo.png');
    });

    it('soft-deletes a folder with its contents, shows them to advisors with deleted, and restores them', async () => {
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: company('llc'), path: '', documentName: 'Archive', isFolder: true },
        { actor: actor('partner') },
      );
      expect(names((await h.list(actor('partner'), company('llc'))).documents)).not.toContain('Archive');
      const withDeleted = await h.list(actor('partner'), company('llc'), '', true);
      const archive = withDeleted.documents.find((d) => d.name === 'Archive');
      expect(archive).toBeDefined();
      expect(archive?.deletedAt).not.toBe('');
      await expect(h.list(actor('client'), company('llc'), '', true)).rejects.toMatchObject({ status: 403 });
      await expect(
        h.bus.request(
          Documents.searchDocuments,
          { companyId: company('llc'), searchTerm: 'Archive', showWithDeleted: true },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      await expect(
        h.bus.request(
          Documents.restoreDeletedDocument,
          { companyId: company('llc'), path: '/Archive' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      const restored = await h.bus.request(
        Documents.restoreDeletedDocument,
        { companyId: company('llc'), path: '/Archive' },
        { actor: actor('partner') },
      );
      expect(restored.message).toBe('Undo was successful');
      expect(names((await h.list(actor('partner'), company('llc'), '/Archive')).documents)).toHaveLength(2);
    });

    it('finds a path asked in another case or Unicode form below its first folder, as making it does', async () => {
      const llc = company('llc');
      const as = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Ärzte Cases' }, as);
      await h.bus.request(
        Documents.createFolder,
        { companyId: llc, path: '/Ärzte Cases', name: 'Zürich' },
        as,
      );
      await h.upload(
        actor('partner'),
        llc,
        ['bill.pdf', 'note.pdf', 'old.pdf'].map((name) => ({ name, body: Buffer.from('%PDF-1.4\n%%EOF\n') })),
        { path: '/Ärzte Cases/Zürich' },
      );
      // Another case, and decomposed ('A' and a combining diaeresis) where the tree holds 'Ä'.
      const asked = '/ÄRZTE CASES/ZÜRICH'.normalize('NFD');
      expect(asked).not.toBe('/ÄRZTE CASES/ZÜRICH');
      const listed = await h.bus.request(Documents.getDocuments, { companyId: llc, path: asked }, as);
      expect(listed.path).toBe('/Ärzte Cases/Zürich');
      expect(names(listed.documents).sort()).toEqual(['bill.pdf', 'note.pdf', 'old.pdf']);
      const lean = await h.bus.request(
        Documents.getDocuments,
        { companyId: llc, path: asked, lean: true },
        as,
      );
      expect(lean).toMatchObject({ path: '/Ärzte Cases/Zürich', count: 3 });
      const renamed = await h.bus.request(
        Documents.renameItem,
        { companyId: llc, path: asked, itemName: 'BILL.PDF', newName: 'invoice' },
        as,
      );
      expect(renamed.document?.link).toBe('/Ärzte Cases/Zürich/invoice.pdf');
      const moved = await h.bus.request(
        Documents.moveItem,
        { companyId: llc, oldPath: `${asked}/NOTE.pdf`, newPath: '/ärzte cases', deleteOldPath: true },
        as,
      );
      expect(moved.document?.link).toBe('/Ärzte Cases/note.pdf');
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: llc, path: asked, documentName: 'Old.pdf', isFolder: false },
        as,
      );
      expect(names((await h.list(actor('partner'), llc, '/Ärzte Cases/Zürich')).documents)).toEqual([
        'invoice.pdf',
      ]);
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/ärzte cases/zürich' }, as);
      for (const path of ['/Ärzte Cases/Zürich', '/ärzte cases/Missing'])
        expect(await outcome(h.list(actor('partner'), llc, path))).toEqual([404, 'Folder not found']);
      expect(names((await h.list(actor('partner'), llc, '/Ärzte Cases')).documents)).toEqual(['note.pdf']);
    });

    it('refuses delete_document without a name, or with a path for one, and deletes nothing', async () => {
      const llc = company('llc');
      const as = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Keep me' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'a.pdf', body: await pdf() }], { path: '/Keep me' });
      const remove = (path: string, documentName: string) =>
        h.bus.request(Documents.deleteDocument, { companyId: llc, path, documentName, isFolder: true }, as);
      // Joined to the folder, an empty name was the folder's own path: the folder was deleted.
      for (const documentName of ['', '   '])
        expect(await outcome(remove('/Keep me', documentName))).toEqual([400, 'Please enter a name']);
      expect(await outcome(remove('', 'Keep me/a.pdf'))).toEqual([404, 'Document not found']);
      expect(names((await h.list(actor('partner'), llc, '/Keep me')).documents)).toEqual(['a.pdf']);
    });

    it('answers a restore by an id that is not a UUID with 404', async () => {
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), name: 'Restore by id' },
        {
          actor: actor('partner'),
        },
      );
      await h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/Restore by id' },
        { actor: actor('partner') },
      );
      for (const id of ['not-a-uuid', '-'.repeat(36)])
        expect(
          await outcome(
            h.bus.request(
              Documents.restoreDeletedDocument,
              { companyId: company('llc'), path: '/Restore by id', id },
              { actor: actor('partner') },
            ),
          ),
        ).toEqual([404, 'Document not found']);
    });

    it('never deletes, renames or moves the system folders', async () => {
      for (const path of ['/_portico', '/_portico/Signature Requests', '/_portico/Tax Return Delivery']) {
        await expect(
          h.bus.request(
            Documents.deletePath,
            { companyId: company('llc'), path },
            { actor: actor('partner') },
          ),
        ).rejects.toMatchObject({ status: 403 });
      }
      await expect(
        h.bus.request(
          Documents.renameItem,
          { companyId: company('llc'), path: '', itemName: '_portico', newName: 'mine' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      const system = await h.list(actor('client'), company('llc'), '/_portico');
      expect(names(system.documents).sort()).toEqual(['Signature Requests', 'Tax Return Delivery']);
    });

    it('refuses a folder, upload, rename or move that would make a path over 2,000 characters', async () => {
      const llc = company('llc');
      const folder = (path: string, name: string) =>
        h.bus.request(Documents.createFolder, { companyId: llc, path, name }, { actor: actor('partner') });
      const tooLong = { status: 400, message: 'Path is too long' };
      // Seven nested folders of 250 characters: 1,757; a leaf of 240 brings the deepest path to 1,998.
      let deep = '';
      for (let i = 1; i <= 7; i++) {
        const name = `Level ${i} `.padEnd(250, 'x');
        await folder(deep, name);
        deep = `${deep}/${name}`;
      }
      await folder(deep, 'leaf '.padEnd(240, 'y'));
      await expect(folder(deep, 'z'.repeat(250))).rejects.toMatchObject(tooLong);
      await expect(
        h.bus.request(
          Documents.createUploadLinks,
          { companyId: llc, path: deep, files: [{ name: `${'f'.repeat(241)}.pdf`, size: 100n }] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject(tooLong);
      const top = deep.split('/')[1] as string;
      // Five more characters on the top folder would push its deepest item to 2,003.
      await expect(
        h.bus.request(
          Documents.renameItem,
          { companyId: llc, path: '', itemName: top, newName: `${top}12345` },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject(tooLong);
      await folder('', 'Other');
      await expect(
        h.bus.request(
          Documents.moveItem,
          { companyId: llc, oldPath: `/${top}`, newPath: '/Other', deleteOldPath: true, isFolder: true },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject(tooLong);
      // Nothing changed: the tree is where it was.
      expect((await h.list(actor('partner'), llc, deep)).documents.map((d) => d.name)).toEqual([
        'leaf '.padEnd(240, 'y'),
      ]);
      expect((await h.list(actor('partner'), llc, '/Other')).count).toBe(0);
      await h.bus.request(
        Documents.deletePath,
        { companyId: llc, path: `/${top}` },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.deletePath,
        { companyId: llc, path: '/Other' },
        { actor: actor('partner') },
      );
    });

    it('opens a deleted folder with deleted items shown, to restore one file of it', async () => {
      const llc = company('llc');
      const as = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Binned' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'keep.pdf', body: await pdf() }], {
        path: '/Binned/Inner',
      });
      await h.upload(actor('partner'), llc, [{ name: 'drop.pdf', body: await pdf() }], {
        path: '/Binned/Inner',
      });
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/Binned' }, as);
      const open = (path: string, showWithDeleted: boolean, who = 'partner', lean = false) =>
        h.bus.request(
          Documents.getDocuments,
          { companyId: llc, path, showWithDeleted, lean },
          { actor: actor(who) },
        );
      await expect(open('/Binned', false)).rejects.toMatchObject({
        status: 404,
        message: 'Folder not found',
      });
      await expect(open('/Binned', true, 'client')).rejects.toMatchObject({ status: 403 });
      expect(names((await open('/binned', true)).documents)).toEqual(['Inner']);
      expect(names((await open('/Binned/Inner', true)).documents).sort()).toEqual(['drop.pdf', 'keep.pdf']);
      expect((await open('/Binned/Inner', true, 'partner', true)).count).toBe(2);
      await h.bus.request(
        Documents.restoreDeletedDocument,
        { companyId: llc, path: '/Binned/Inner/keep.pdf' },
        as,
      );
      expect(names((await h.list(actor('partner'), llc, '/Binned/Inner')).documents)).toEqual(['keep.pdf']);
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/Binned' }, as);
    });

    it('opens a deleted folder on its own items when its name was made again in another case', async () => {
      const llc = company('llc');
      const as = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Taxes' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'old.pdf', body: await pdf() }], { path: '/Taxes' });
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/Taxes' }, as);
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'TAXES' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'new.pdf', body: await pdf() }], { path: '/TAXES' });
      const open = async (path: string, showWithDeleted: boolean) => {
        const listed = await h.bus.request(
          Documents.getDocuments,
          { companyId: llc, path, showWithDeleted },
          as,
        );
        return { path: listed.path, names: names(listed.documents) };
      };
      expect(await open('/Taxes', true)).toEqual({ path: '/Taxes', names: ['old.pdf'] });
      expect(await open('/TAXES', true)).toEqual({ path: '/TAXES', names: ['new.pdf'] });
      // Without deleted items, or spelled as neither, the path names the live folder.
      expect(await open('/Taxes', false)).toEqual({ path: '/TAXES', names: ['new.pdf'] });
      expect(await open('/taxes', true)).toEqual({ path: '/TAXES', names: ['new.pdf'] });
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/TAXES' }, as);
    });

    it('restores into a folder recreated since under another case, as it is spelled now', async () => {
      const llc = company('llc');
      const as = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Ledgers' }, as);
      await h.bus.request(Documents.createFolder, { companyId: llc, path: '/Ledgers', name: 'Q1' }, as);
      await h.upload(actor('partner'), llc, [{ name: 'jan.pdf', body: await pdf() }], {
        path: '/Ledgers/Q1',
      });
      await h.upload(actor('partner'), llc, [{ name: 'feb.pdf', body: await pdf() }], { path: '/Ledgers' });
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/Ledgers' }, as);
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'LEDGERS' }, as);
      // A file and a folder with its contents, each into '/LEDGERS'.
      const file = await h.bus.request(
        Documents.restoreDeletedDocument,
        { companyId: llc, path: '/Ledgers/feb.pdf' },
        as,
      );
      expect(file.document?.link).toBe('/LEDGERS/feb.pdf');
      await h.bus.request(Documents.restoreDeletedDocument, { companyId: llc, path: '/Ledgers/Q1' }, as);
      expect(names((await h.list(actor('partner'), llc, '/LEDGERS')).documents).sort()).toEqual([
        'Q1',
        'feb.pdf',
      ]);
      expect(names((await h.list(actor('partner'), llc, '/LEDGERS/Q1')).documents)).toEqual(['jan.pdf']);
      await h.bus.request(Documents.deletePath, { companyId: llc, path: '/LEDGERS' }, as);
    });

    it('folds the case of names beyond ASCII the same way in the database and in the service', async () => {
      const make = (name: string) =>
        h.bus.request(
          Documents.createFolder,
          { companyId: company('llc'), name },
          { actor: actor('partner') },
        );
      await make('Ärzte École');
      await expect(make('ärzte école')).rejects.toMatchObject({ status: 409 });
      const made = await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), path: '/ärzte ÉCOLE', name: 'Inside' },
        { actor: actor('partner') },
      );
      expect(made.document?.link).toBe('/Ärzte École/Inside');
      // A path asked in another case lists the folder as stored.
      const listed = await h.list(actor('partner'), company('llc'), '/ÄRZTE école');
      expect(listed.count).toBe(1);
      expect(listed.path).toBe('/Ärzte École');
      await h.bus.request(
        Documents.deleteDocument,
        { companyId: company('llc'), path: '', documentName: 'ÄRZTE école', isFolder: true },
        { actor: actor('partner') },
      );
      // Letters whose folds differ between JavaScript and PostgreSQL ('İ', a word-final 'Σ') are found
      // again, as typed and in another case.
      for (const [name, other] of [
        ['İade', 'İADE'],
        ['ΦΟΡΟΣ 2023', 'φοροσ 2023'],
      ] as const) {
        await make(name);
        for (const asked of [name, other]) {
          const found = await h.list(actor('partner'), company('llc'), `/${asked}`);
          expect(found.path).toBe(`/${name}`);
        }
        await h.bus.request(
          Documents.deleteDocument,
          { companyId: company('llc'), path: '', documentName: other, isFolder: true },
          { actor: actor('partner') },
        );
      }
    });

    it('files under the stored folder whatever the case of the path asked, with new folder names sanitised', async () => {
      const llc = company('llc');
      await h.bus.request(
        Documents.createFolder,
        { companyId: llc, path: '', name: 'Statements' },
        { actor: actor('partner') },
      );
      // A dropped folder whose name differs in case from the folder there, holding a new folder.
      const march = await h.upload(actor('client'), llc, [{ name: 'march.pdf', body: await pdf() }], {
        path: 'statements/Bank #1 (2024)',
      });
      expect(march.documentLocation).toBe('/Statements/Bank 1 (2024)/march.pdf');
      // The same folder again, found by its sanitised name.
      const april = await h.upload(actor('client'), llc, [{ name: 'april.pdf', body: await pdf() }], {
        path: '/STATEMENTS/bank #1 (2024)',
      });
      expect(april.documentLocation).toBe('/Statements/Bank 1 (2024)/april.pdf');
      expect(names((await h.list(actor('client'), llc, '/Statements')).documents)).toEqual(['Bank 1 (2024)']);
      expect(
        names((await h.list(actor('client'), llc, '/Statements/Bank 1 (2024)')).documents).sort(),
      ).toEqual(['april.pdf', 'march.pdf']);

      const created = await h.bus.request(
        Documents.createFolder,
        { companyId: llc, path: '/statements', name: 'Q1' },
        { actor: actor('client') },
      );
      expect(created.document?.link).toBe('/Statements/Q1');
      await h.bus.request(
        Documents.moveItem,
        {
          companyId: llc,
          oldPath: '/Statements/bank 1 (2024)',
          newPath: '/STATEMENTS/q1',
          deleteOldPath: true,
        },
        { actor: actor('client') },
      );
      expect(names((await h.list(actor('client'), llc, '/Statements')).documents)).toEqual(['Q1']);
      expect(
        names((await h.list(actor('client'), llc, '/Statements/Q1/Bank 1 (2024)')).documents).sort(),
      ).toEqual(['april.pdf', 'march.pdf']);

      // Deleting the folder takes everything filed under it.
      await h.bus.request(
        Documents.deletePath,
        { companyId: llc, path: '/Statements' },
        { actor: actor('client') },
      );
      const [live] = await h.documents.query<{ n: string }>(
        `select count(*) as n from items where company_id = $1 and folder ilike '/statements%' and deleted_at is null`,
        [llc],
      );
      expect(Number(live?.n)).toBe(0);
    });

    it('announces the folders an upload or a restore creates', async () => {
      const client = actor('client');
      const partner = actor('partner');
      const createdBy = async (path: string, userId: string, count: number) =>
        (
          await h.eventsOn(
            DocumentsEvents.created.subject,
            (e) => e.path === path && e.actor_user_id === userId,
            count,
          )
        ).length;
      expect(await createdBy('/Statements/Bank 1 (2024)', client.user_id, 1)).toBe(1);
      // The file comes back where it was: the deleted folders above it are made again.
      await h.bus.request(
        Documents.restoreDeletedDocument,
        { companyId: company('llc'), path: '/Statements/Q1/Bank 1 (2024)/april.pdf' },
        { actor: partner },
      );
      // '/Statements' was made by the partner once already.
      for (const [path, count] of [
        ['/Statements', 2],
        ['/Statements/Q1', 1],
        ['/Statements/Q1/Bank 1 (2024)', 1],
      ] as const)
        expect([path, await createdBy(path, partner.user_id, count)]).toEqual([path, count]);
    });

    it('publishes uploaded, moved, deleted and restored events on JetStream', async () => {
      const jsm = await jetstream(h.nc).jetstreamManager();
      for (const event of [
        DocumentsEvents.uploaded,
        DocumentsEvents.moved,
        DocumentsEvents.deleted,
        DocumentsEvents.restored,
      ]) {
        const deadline = Date.now() + 5_000;
        let found = false;
        while (!found && Date.now() < deadline) {
          found = await jsm.streams
            .getMessage('EVENTS', { last_by_subj: event.subject })
            .then((m) => !!m && m.json<{ firm_id: string }>().firm_id === h.firm.firmId)
            .catch(() => false);
          if (!found) await new Promise((r) => setTimeout(r, 50));
        }
        expect([event.subject, found]).toEqual([event.subject, true]);
      }
    });
  });

  describe('downloads', () => {
    it('zips a folder with its relative paths, and refuses folder download to clients', async () => {
      await h.upload(actor('partner'), company('llc'), [{ name: 'deep.png', body: await png() }], {
        path: '/Archive/Deep',
      });
      const res = await h.bus.request(
        Documents.downloadFolder,
        { companyId: company('llc'), path: '/Archive' },
        { actor: actor('partner') },
      );
      expect(res.fileCount).toBe(3);
      const zip = await unzip(
        Buffer.from(await (await fetch(res.document?.data?.link as string)).arrayBuffer()),
      );
      expect(Object.keys(zip).sort()).toEqual(['Deep/deep.png', 'notes (1).txt', 'notes.txt']);
      expect(zip['notes.txt']?.toString()).toBe('plain text');
      await expect(
        h.bus.request(
          Documents.downloadFolder,
          { companyId: company('llc'), path: '/Archive' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 403 });
    });

    it('zips chosen files converting images to PDF, and refuses folders and mixes of deleted and live', async () => {
      const res = await h.bus.request(
        Documents.downloadMultipleDocuments,
        { companyId: company('llc'), links: ['/photo.png', '/real.pdf'], convertImagesToPdf: true },
        { actor: actor('client') },
      );
      const zip = await unzip(
        Buffer.from(await (await fetch(res.document?.data?.link as string)).arrayBuffer()),
      );
      expect(Object.keys(zip).sort()).toEqual(['photo.pdf', 'real.pdf']);
      expect(zip['photo.pdf']?.subarray(0, 5).toString()).toBe('%PDF-');
      await expect(
        h.bus.request(
          Documents.downloadMultipleDocuments,
          { companyId: company('llc'), links: ['/photo.png', '/Archive'] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Downloading folders is not supported. Please select files only.',
      });
      await h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/real.pdf' },
        { actor: actor('partner') },
      );
      await expect(
        h.bus.request(
          Documents.downloadMultipleDocuments,
          { companyId: company('llc'), links: ['/photo.png', '/real.pdf'] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Bulk actions are not available on a mix of deleted and non-deleted items.',
      });
    });

    it('answers 503 with the spec message over 150MB, and over 15MB when converting images', async () => {
      await h.documents.query(`update items set size = 20 * 1024 * 1024 where name = 'photo.png'`);
      await expect(
        h.bus.request(
          Documents.downloadMultipleDocuments,
          { companyId: company('llc'), links: ['/photo.png'], convertImagesToPdf: true },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 503, message: TOO_LARGE });
      await h.documents.query(`update items set size = 151 * 1024 * 1024 where name = 'photo.png'`);
      await expect(
        h.bus.request(
          Documents.downloadFolder,
          { companyId: company('llc'), path: '' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 503, message: TOO_LARGE });
      await h.documents.query(`update items set size = 100 where name = 'photo.png'`);
    });

    it('refuses to zip a file replaced through its upload link after it was filed', async () => {
      const body = await pdf();
      const { links } = await h.bus.request(
        Documents.createUploadLinks,
        { companyId: company('llc'), files: [{ name: 'swapped.pdf', size: BigInt(body.length) }] },
        { actor: actor('partner') },
      );
      const [link] = links;
      const put = (bytes: Buffer) =>
        fetch(link?.url as string, { method: 'PUT', headers: link?.headers, body: bytes });
      await put(body);
      await h.bus.request(
        Documents.processDocument,
        { companyId: company('llc'), uploadIds: [link?.uploadId as string] },
        { actor: actor('partner') },
      );
      // The link lasts a while after the check; a store that does not enforce the signed length takes this.
      await put(Buffer.concat([body, Buffer.from('<script>alert(1)</script>')]));
      await expect(
        h.bus.request(
          Documents.downloadMultipleDocuments,
          { companyId: company('llc'), links: ['/swapped.pdf'] },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 409,
        message: 'This file changed after it was uploaded. Please upload it again.',
      });
      await h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/swapped.pdf' },
        { actor: actor('partner') },
      );
    });

    it('gives a short-lived link that serves the file as an attachment', async () => {
      const res = await h.bus.request(
        Documents.downloadDocument,
        { companyId: company('llc'), link: '/photo.png', isDownload: true },
        { actor: actor('client') },
      );
      const got = await fetch(res.document?.data?.link as string);
      expect(got.headers.get('content-disposition')).toContain('attachment');
      expect(got.headers.get('cache-control')).toBe('private, no-store');
      expect(
        Buffer.from(await got.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(res.document?.data?.link).toContain('X-Amz-Expires=60');
    });
  });

  describe('permissions', () => {
    it("404s another firm's company and a client's company of another client", async () => {
      await expect(h.list(actor('partner'), h.other.companies.otto?.id as string)).rejects.toMatchObject({
        status: 404,
      });
      await expect(h.list(actor('client'), company('otto'))).rejects.toMatchObject({ status: 404 });
      await expect(h.list(actor('client'), company('inactive'))).rejects.toMatchObject({ status: 404 });
    });

    it('hides STAFF ONLY folders from clients, in listings, search and direct paths', async () => {
      const root = await h.list(actor('client'), company('llc'));
      expect(names(root.documents)).toContain('2022');
      // '2022' holds only the STAFF ONLY folder: empty to a client, in every shape of the listing.
      const yearOf = <T extends { name: string }>(items: T[]) => items.find((i) => i.name === '2022');
      expect(yearOf(root.documents)?.itemsCount).toBe(0);
      expect(yearOf((await h.list(actor('partner'), company('llc'))).documents)?.itemsCount).toBe(1);
      const { columns } = await h.bus.request(
        Documents.getDocuments,
        { companyId: company('llc'), path: '', columnar: true },
        { actor: actor('client') },
      );
      expect(columns?.itemsCount[columns.name.indexOf('2022')]).toBe(0);
      const leanYear = async (key: string) => {
        const page = await h.bus.request(
          Documents.getDocuments,
          { companyId: company('llc'), path: '', lean: true },
          { actor: actor(key) },
        );
        return yearOf(JSON.parse(`[${page.leanItems}]`) as { name: string; items_count?: number }[]);
      };
      expect(await leanYear('client')).not.toHaveProperty('items_count');
      expect(await leanYear('partner')).toMatchObject({ items_count: 1 });
      const year = await h.list(actor('client'), company('llc'), '/2022');
      expect(year.documents).toHaveLength(0);
      await expect(
        h.list(actor('client'), company('llc'), '/2022/Tax Returns and Tax Organizers (STAFF ONLY)'),
      ).rejects.toMatchObject({ status: 404 });
      const search = await h.bus.request(
        Documents.searchDocuments,
        { companyId: company('llc'), searchTerm: 'return' },
        { actor: actor('client') },
      );
      expect(names(search.documents)).not.toContain('2022 return.pdf');
      const advisorSearch = await h.bus.request(
        Documents.searchDocuments,
        { companyId: company('llc'), searchTerm: 'return' },
        { actor: actor('partner') },
      );
      expect(names(advisorSearch.documents)).toContain('2022 return.pdf');
    });

    it("finds a client's own file however many matches a STAFF ONLY folder holds", async () => {
      await h.documents.query(
        `insert into items (firm_id, company_id, folder, name, type)
         select $1::uuid, $2::uuid, '/A Vault (Staﬀ Only)', 'receipt ' || g || '.pdf', 'file' from generate_series(1, 520) g
         union all select $1::uuid, $2::uuid, '/', 'A Vault (Staﬀ Only)', 'folder'
         union all select $1::uuid, $2::uuid, '/', 'Receipts', 'folder'
         union all select $1::uuid, $2::uuid, '/Receipts', 'my receipt.pdf', 'file'`,
        [h.firm.firmId, company('individual')],
      );
      const search = (who: string) =>
        h.bus.request(
          Documents.searchDocuments,
          { companyId: company('individual'), searchTerm: 'receipt' },
          { actor: actor(who) },
        );
      const found = (await search('client')).documents;
      expect(names(found)).toContain('my receipt.pdf');
      // Listed after the vault's files ('/A Vault' sorts first): past the limit if those counted.
      expect(found.filter((d) => d.link.startsWith('/A Vault') || d.name.startsWith('A Vault'))).toEqual([]);
      // 522 match for the partner: the first 500 are answered, with word that more match; the client's
      // one match is all there is.
      const partners = await search('partner');
      expect([partners.documents.length, partners.count, partners.moreMatches]).toEqual([500, 500, true]);
      expect((await search('client')).moreMatches).toBe(false);
    });

    it('lets read-only users and read-only or inactive entities change nothing', async () => {
      await expect(
        h.upload(actor('readonly'), company('rita'), [{ name: 'a.pdf', body: await pdf() }]),
      ).rejects.toMatchObject({ status: 403, message: expect.stringContaining('This account is read-only') });
      await expect(
        h.bus.request(
          Documents.createFolder,
          { companyId: company('rex_ro'), name: 'X' },
          { actor: actor('rocompany') },
        ),
      ).rejects.toMatchObject({ status: 403, message: expect.stringContaining('This entity is read-only') });
      await expect(
        h.bus.request(
          Documents.createFolder,
          { companyId: company('rex_ro'), name: 'X' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      await expect(
        h.bus.request(
          Documents.createFolder,
          { companyId: company('inactive'), name: 'X' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 403, message: 'This entity is inactive' });
      await expect(h.list(actor('partner'), company('inactive'))).resolves.toBeDefined();
    });

    describe('read-only users and read-only or inactive entities', () => {
      beforeAll(async () => {
        // Straight in the table: the service itself refuses to write into these companies.
        await h.documents.query(
          `insert into items (firm_id, company_id, folder, name, type, deleted_at)
           select $1::uuid, company, '', name, type, case when name = 'gone.pdf' then now() end
           from unnest($2::uuid[]) company,
                (values ('Kept', 'folder'), ('kept.pdf', 'file'), ('gone.pdf', 'file')) item(name, type)`,
          [h.firm.firmId, ['rita', 'rex_ro', 'inactive', 'llc'].map(company)],
        );
      });
      /** Each change of an item, and whether only advisors may ask for it at all. */
      const changes = (companyId: string): [string, boolean, (a: Actor) => Promise<unknown>][] => [
        [
          'rename',
          false,
          (a) =>
            h.bus.request(
              Documents.renameItem,
              { companyId, path: '', itemName: 'kept.pdf', newName: 'other' },
              { actor: a },
            ),
        ],
        [
          'move',
          false,
          (a) =>
            h.bus.request(
              Documents.moveItem,
              { companyId, oldPath: '/kept.pdf', newPath: '/Kept', deleteOldPath: true },
              { actor: a },
            ),
        ],
        [
          'copy',
          false,
          (a) =>
            h.bus.request(
              Documents.moveItem,
              { companyId, oldPath: '/kept.pdf', newPath: '/Kept', deleteOldPath: false },
              { actor: a },
            ),
        ],
        [
          'delete',
          false,
          (a) =>
            h.bus.request(
              Documents.deleteDocument,
              { companyId, path: '', documentName: 'Kept', isFolder: true },
              { actor: a },
            ),
        ],
        [
          'delete path',
          false,
          (a) => h.bus.request(Documents.deletePath, { companyId, path: '/kept.pdf' }, { actor: a }),
        ],
        [
          'restore',
          true,
          (a) =>
            h.bus.request(Documents.restoreDeletedDocument, { companyId, path: '/gone.pdf' }, { actor: a }),
        ],
        [
          'update',
          true,
          (a) =>
            h.bus.request(
              Documents.updateItem,
              { companyId, link: '/kept.pdf', description: 'changed' },
              { actor: a },
            ),
        ],
      ];

      it.each([
        ['a read-only user', 'readonly', false, 'rita', Messages.accountReadOnly],
        ['an advisor whose account is read-only', 'partner', true, 'llc', Messages.accountReadOnly],
        ['a read-only entity', 'partner', false, 'rex_ro', Messages.entityReadOnly],
        ['an inactive entity', 'partner', false, 'inactive', Messages.entityInactive],
      ])(
        '%s: rename, move, copy, delete, restore and update are refused',
        async (_, key, readonly, companyKey, message) => {
          const who = h.actorOf(h.firm, key, readonly ? { readonly_access: true } : {});
          for (const [what, advisorOnly, change] of changes(company(companyKey))) {
            if (advisorOnly && who.role === 'client') continue;
            expect([what, await outcome(change(who))]).toEqual([what, [403, message]]);
          }
        },
      );

      it.each([
        ['a read-only', 'rex_ro', Messages.entityReadOnly],
        ['an inactive', 'inactive', Messages.entityInactive],
      ])('refuses a move or copy into %s entity', async (_, companyKey, message) => {
        for (const deleteOldPath of [true, false]) {
          const change = h.bus.request(
            Documents.moveItem,
            {
              companyId: company('llc'),
              oldPath: '/kept.pdf',
              newPath: '',
              deleteOldPath,
              newCompanyId: company(companyKey),
            },
            { actor: actor('partner') },
          );
          expect([deleteOldPath, await outcome(change)]).toEqual([deleteOldPath, [403, message]]);
        }
      });
    });

    /**
     * One firm per preference, each client action tried in both: refused with 'Disabled by firm' in the
     * firm whose preference covers it, done in the other. Advisors are held by neither.
     */
    describe.each([
      ['disable_folder_action', 'folder'],
      ['disable_file_edit_action', 'file'],
    ] as const)('with only the firm preference %s', (preference, covers) => {
      let llc = '';
      let client: Actor;
      let partner: Actor;
      beforeAll(async () => {
        const firm = await h.identity.buildFirm(
          testFirmSpec(preference.replaceAll('_', '-'), { preferences: { [preference]: true } }),
        );
        llc = firm.companies.llc?.id as string;
        client = h.actorOf(firm, 'client');
        partner = h.actorOf(firm, 'partner');
        for (const name of ['Box1', 'Box2', 'Box3', 'Box4', 'Shared'])
          await h.bus.request(Documents.createFolder, { companyId: llc, name }, { actor: partner });
        await h.upload(
          partner,
          llc,
          await Promise.all(
            ['a1.pdf', 'a2.pdf', 'a3.pdf', 'a4.pdf'].map(async (name) => ({ name, body: await pdf() })),
          ),
        );
      });
      const move = (who: () => Actor, oldPath: string, deleteOldPath: boolean) => () =>
        h.bus.request(
          Documents.moveItem,
          { companyId: llc, oldPath, newPath: '/Shared', deleteOldPath },
          { actor: who() },
        );
      const rename = (who: () => Actor, itemName: string, newName: string) => () =>
        h.bus.request(
          Documents.renameItem,
          { companyId: llc, path: '', itemName, newName },
          { actor: who() },
        );
      const remove = (who: () => Actor, path: string) => () =>
        h.bus.request(Documents.deletePath, { companyId: llc, path }, { actor: who() });
      const asClient = () => client;
      const asPartner = () => partner;

      it.each<[string, 'folder' | 'file' | 'neither', () => Promise<unknown>]>([
        [
          "a client's new folder",
          'folder',
          () => h.bus.request(Documents.createFolder, { companyId: llc, name: 'Mine' }, { actor: client }),
        ],
        ["a client's rename of a folder", 'folder', rename(asClient, 'Box1', 'Crate')],
        ["a client's move of a folder", 'folder', move(asClient, '/Box2', true)],
        ["a client's copy of a folder", 'folder', move(asClient, '/Box3', false)],
        ["a client's delete of a folder", 'folder', remove(asClient, '/Box4')],
        ["a client's rename of a file", 'file', rename(asClient, 'a1.pdf', 'b1')],
        ["a client's move of a file", 'file', move(asClient, '/a2.pdf', true)],
        ["a client's copy of a file", 'file', move(asClient, '/a3.pdf', false)],
        ["a client's delete of a file", 'file', remove(asClient, '/a4.pdf')],
        [
          "a client's upload into a folder there, named in another case",
          'neither',
          async () => h.upload(client, llc, [{ name: 'up.pdf', body: await pdf() }], { path: 'shared' }),
        ],
        [
          "a client's upload links for a folder that is not there yet",
          'folder',
          () =>
            h.bus.request(
              Documents.createUploadLinks,
              { companyId: llc, path: '/Shared/New', files: [{ name: 'new.pdf', size: 10n }] },
              { actor: client },
            ),
        ],
        [
          "a client's upload processed into a folder that is not there yet",
          'folder',
          async () => {
            const body = await pdf();
            const { links } = await h.bus.request(
              Documents.createUploadLinks,
              { companyId: llc, path: '/Shared', files: [{ name: 'later.pdf', size: BigInt(body.length) }] },
              { actor: client },
            );
            const link = links[0] as (typeof links)[number];
            await fetch(link.url, { method: 'PUT', headers: link.headers, body });
            return h.bus.request(
              Documents.processDocument,
              { companyId: llc, path: '/Fresh', uploadIds: [link.uploadId] },
              { actor: client },
            );
          },
        ],
        [
          "an advisor's folder and file changes",
          'neither',
          async () => {
            await h.bus.request(
              Documents.createFolder,
              { companyId: llc, name: 'Staff made' },
              { actor: partner },
            );
            await rename(asPartner, 'Staff made', 'Staff renamed')();
            await h.upload(partner, llc, [{ name: 'staff.pdf', body: await pdf() }], { path: '/Staff new' });
            return h.bus.request(
              Documents.renameItem,
              { companyId: llc, path: '/Staff new', itemName: 'staff.pdf', newName: 'staff 2' },
              { actor: partner },
            );
          },
        ],
      ])('%s', async (_, heldBy, change) => {
        const expected = heldBy === covers ? [403, 'Disabled by firm'] : 'done';
        expect(await outcome(change())).toEqual(expected);
      });
    });

    it("blocks client actions in the company's disabled folders, {year} patterns included", async () => {
      await h.identity.query(
        `update companies set settings = '{"folders_where_client_actions_disabled": ["/{year}/Final", "/Locked"]}' where id = $1`,
        [company('llc')],
      );
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), name: 'Locked' },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), name: '2031' },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Documents.createFolder,
        { companyId: company('llc'), path: '/2031', name: 'Final' },
        { actor: actor('partner') },
      );
      for (const path of ['/Locked', '/2031/Final']) {
        await expect(
          h.upload(actor('client'), company('llc'), [{ name: 'x.pdf', body: await pdf() }], { path }),
        ).rejects.toMatchObject({ status: 403, message: 'Disabled by firm' });
      }
      await expect(
        h.upload(actor('client'), company('llc'), [{ name: 'x.pdf', body: await pdf() }], { path: '/2031' }),
      ).resolves.toBeDefined();
      await expect(
        h.upload(actor('partner'), company('llc'), [{ name: 'x.pdf', body: await pdf() }], {
          path: '/Locked',
        }),
      ).resolves.toBeDefined();
    });

    it("refuses a client's change of a folder holding a STAFF ONLY or blocked folder and changes nothing; advisors are not held", async () => {
      const llc = company('llc');
      const client = actor('client');
      // '/Drafts/Final' is the client's, but renaming '/Drafts' to a year would put it in '/{year}/Final'.
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Drafts' }, { actor: client });
      await h.bus.request(
        Documents.createFolder,
        { companyId: llc, path: '/Drafts', name: 'Final' },
        { actor: client },
      );
      const tree = async () =>
        (
          await h.documents.query<{ rows: string }>(
            `select string_agg(concat_ws('|', company_id, folder, name, deleted_at), ',' order by id) as rows
             from items where company_id = any($1::uuid[])`,
            [[llc, company('individual')]],
          )
        )[0]?.rows;
      const before = await tree();
      const move = (oldPath: string, newPath: string, deleteOldPath: boolean, newCompanyId = '') =>
        h.bus.request(
          Documents.moveItem,
          { companyId: llc, oldPath, newPath, deleteOldPath, isFolder: true, newCompanyId },
          { actor: client },
        );
      const rename = (itemName: string, newName: string) =>
        h.bus.request(
          Documents.renameItem,
          { companyId: llc, path: '', itemName, newName },
          { actor: client },
        );
      // '/2022' holds '/2022/Tax Returns and Tax Organizers (STAFF ONLY)'; '/2031' holds '/2031/Final'.
      for (const folder of ['2022', '2031']) {
        const path = `/${folder}`;
        for (const [what, change] of [
          ['delete', () => h.bus.request(Documents.deletePath, { companyId: llc, path }, { actor: client })],
          ['rename', () => rename(folder, `${folder} renamed`)],
          ['move', () => move(path, '/Archive', true)],
          ['copy', () => move(path, '/Archive', false)],
        ] as const)
          expect([path, what, await outcome(change())]).toEqual([path, what, [403, 'Disabled by firm']]);
      }
      expect(await outcome(rename('Drafts', '2032'))).toEqual([403, 'Disabled by firm']);
      expect(await tree()).toBe(before);

      await expect(rename('Drafts', 'Drafts 2')).resolves.toBeDefined();
      await expect(
        h.bus.request(
          Documents.moveItem,
          { companyId: llc, oldPath: '/2022', newPath: '/Archive', deleteOldPath: false, isFolder: true },
          { actor: actor('partner') },
        ),
      ).resolves.toBeDefined();
      await expect(
        h.bus.request(
          Documents.renameItem,
          { companyId: llc, path: '', itemName: 'Drafts 2', newName: '2032' },
          { actor: actor('partner') },
        ),
      ).resolves.toBeDefined();
    });

    it("leaves the advisors' descriptions and tags out of every answer to a client, and out of their search", async () => {
      const llc = company('llc');
      const partner = { actor: actor('partner') };
      await h.bus.request(Documents.createFolder, { companyId: llc, name: 'Described' }, partner);
      await h.upload(actor('partner'), llc, [{ name: 'ledger.pdf', body: await pdf() }], {
        path: '/Described',
      });
      await h.bus.request(
        Documents.updateItem,
        { companyId: llc, link: '/Described/ledger.pdf', description: 'Owes us "a lot"' },
        partner,
      );
      // Tags straight in the table: this firm has document tags off.
      await h.documents.query(
        `update items set tags = array['audit'] where company_id = $1 and folder = $2`,
        [llc, '/Described'],
      );
      const listing = (key: string, shape: { columnar?: boolean; lean?: boolean } = {}) =>
        h.bus.request(
          Documents.getDocuments,
          { companyId: llc, path: '/Described', ...shape },
          { actor: actor(key) },
        );
      const leanItem = async (key: string) =>
        JSON.parse(`[${(await listing(key, { lean: true })).leanItems}]`)[0] as Record<string, unknown>;
      const search = (key: string, searchTerm: string) =>
        h.bus.request(Documents.searchDocuments, { companyId: llc, searchTerm }, { actor: actor(key) });
      const staffFields = { description: 'Owes us "a lot"', tags: ['audit'] };
      const none = { description: '', tags: [] };

      expect((await listing('partner')).documents[0]).toMatchObject(staffFields);
      expect((await listing('partner', { columnar: true })).columns).toMatchObject({
        description: [staffFields.description],
        taggedIndex: [0],
      });
      const advisorsLean = await leanItem('partner');
      expect(advisorsLean).toMatchObject(staffFields);
      expect(names((await search('partner', 'a lot')).documents)).toEqual(['ledger.pdf']);

      expect((await listing('client')).documents[0]).toMatchObject({ name: 'ledger.pdf', ...none });
      expect((await listing('client', { columnar: true })).columns).toMatchObject({
        name: ['ledger.pdf'],
        description: [''],
        taggedIndex: [],
        tagged: [],
      });
      const { description: _description, tags: _tags, ...advisorsRest } = advisorsLean;
      expect(await leanItem('client')).toEqual(advisorsRest);
      expect((await search('client', 'a lot')).documents).toEqual([]);
      expect((await search('client', 'ledger')).documents).toEqual([
        expect.objectContaining({ name: 'ledger.pdf', ...none }),
      ]);
      const renamed = await h.bus.request(
        Documents.renameItem,
        { companyId: llc, path: '/Described', itemName: 'ledger.pdf', newName: 'ledger 2024' },
        { actor: actor('client') },
      );
      expect(renamed.document).toMatchObject({ name: 'ledger 2024.pdf', ...none });
    });

    it("checks a client's change of a folder against its contents in one query, never loading them", async () => {
      const individual = company('individual');
      const client = { actor: actor('client') };
      const partner = { actor: actor('partner') };
      const [saved] = await h.identity.query<{ settings: unknown }>(
        'select settings from companies where id = $1',
        [individual],
      );
      // '_' is a letter of a name here, not a pattern: '/Carry/Held_1' blocks nothing of '/Carry/Heldx1'.
      await h.identity.query(
        `update companies set settings = '{"folders_where_client_actions_disabled": ["/Elsewhere/Carry/Deep", "/Carry/Held_1"]}' where id = $1`,
        [individual],
      );
      const repo = h.documents.provider(ItemsRepository);
      const subtree = repo.subtree.bind(repo);
      let subtreeReads = 0;
      repo.subtree = ((...args: Parameters<ItemsRepository['subtree']>) => {
        subtreeReads++;
        return subtree(...args);
      }) as ItemsRepository['subtree'];
      try {
        for (const [path, name] of [
          ['', 'Carry'],
          ['/Carry', 'Deep'],
          ['/Carry', 'Heldx1'],
          ['/Carry/Deep', 'Notes (STAFF ONLY)'],
          ['', 'Elsewhere'],
        ])
          await h.bus.request(Documents.createFolder, { companyId: individual, path, name }, partner);
        await h.upload(actor('partner'), individual, [{ name: 'a.pdf', body: await pdf() }], {
          path: '/Carry/Deep',
        });
        const move = (oldPath: string, newPath: string, deleteOldPath: boolean) =>
          h.bus.request(
            Documents.moveItem,
            { companyId: individual, oldPath, newPath, deleteOldPath, isFolder: true },
            client,
          );
        const rename = (itemName: string, newName: string) =>
          h.bus.request(Documents.renameItem, { companyId: individual, path: '', itemName, newName }, client);
        const remove = (path: string) =>
          h.bus.request(Documents.deletePath, { companyId: individual, path }, client);
        // A STAFF ONLY folder two levels down.
        for (const change of [
          () => remove('/Carry'),
          () => rename('Carry', 'Carried'),
          () => move('/Carry', '/Elsewhere', true),
          () => move('/Carry', '/Elsewhere', false),
        ])
          expect(await outcome(change())).toEqual([403, 'Disabled by firm']);
        await h.bus.request(
          Documents.deletePath,
          { companyId: individual, path: '/Carry/Deep/Notes (STAFF ONLY)' },
          partner,
        );
        // Its contents would land in a blocked folder: '/Carry/Deep' as '/Elsewhere/Carry/Deep'.
        expect(await outcome(move('/Carry', '/Elsewhere', true))).toEqual([403, 'Disabled by firm']);
        expect(await outcome(rename('Carry', 'Carried'))).toBe('done');
        expect(await outcome(remove('/Carried'))).toBe('done');
        expect(subtreeReads).toBe(0);
      } finally {
        repo.subtree = subtree;
        await h.identity.query('update companies set settings = $2 where id = $1', [
          individual,
          saved?.settings,
        ]);
      }
    });

    it('keeps descriptions and tags for advisors (tags only when the firm enables them)', async () => {
      await expect(
        h.bus.request(
          Documents.updateItem,
          { companyId: company('llc'), link: '/photo.png', description: 'hi' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      const res = await h.bus.request(
        Documents.updateItem,
        { companyId: company('llc'), link: '/photo.png', description: 'Front of card' },
        { actor: actor('partner') },
      );
      expect(res.document?.description).toBe('Front of card');
      await expect(
        h.bus.request(
          Documents.updateItem,
          { companyId: company('llc'), link: '/photo.png', tags: ['W-2'], updateTags: true },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 403 });
    });
  });
});
