import { type IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startDocuments } from '@portico/documents/testing';
import { startS3Server } from '@portico/platform/testing';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import WebSocket from 'ws';
import { type Stack, startStack } from '../stack.js';

jest.setTimeout(60_000);

const INVALID =
  'We were unable to process some of uploaded files as they appear to be INVALID. Kindly check those files and try uploading them again.';

type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

interface UploadLink {
  upload_id: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  expires_in_seconds: number;
}

// The documents routes through the gateway, with uploads PUT straight to the S3 server as a browser does.
describe('API: documents through the gateway', () => {
  /** A POST with node's http client, which leaves the body as the server encoded it (fetch decodes it). */
  function rawPost(path: string, body: unknown, headers: Record<string, string>): Promise<RawAnswer> {
    const url = new URL(path, s.gateway.url);
    return new Promise((done, fail) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', fail);
      req.end(JSON.stringify(body));
    });
  }

  let s: Stack;
  let seedItems: (sql: string, params: unknown[]) => Promise<unknown[]>;
  const tokens: Record<string, string> = {};
  const as = (key: string) => tokens[key] as string;
  const company = (key: string) => s.firm.companies[key]?.id as string;

  async function upload(
    token: string,
    companyId: string,
    files: { name: string; body: Buffer }[],
    path = '',
  ) {
    const links = await s.call<{ links: UploadLink[] }>('POST', '/integrations/upload_links', {
      token,
      body: { companyId, path, files: files.map((f) => ({ name: f.name, size: f.body.length })) },
    });
    if (links.status !== 200) return links;
    // Each link says how long it lasts, for clients that renew links by their own clock.
    for (const link of links.body.links) expect(link.expires_in_seconds).toBe(900);
    for (const [i, link] of links.body.links.entries()) {
      const put = await fetch(link.url, { method: link.method, headers: link.headers, body: files[i]?.body });
      expect(put.status).toBe(200);
    }
    return s.call('POST', '/integrations/process_document', {
      token,
      body: { companyId, path, uploadIds: links.body.links.map((l) => l.upload_id) },
    });
  }

  const pdf = async () => {
    const doc = await PDFDocument.create();
    doc.addPage([100, 100]);
    return Buffer.from(await doc.save());
  };
  const png = () =>
    sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();

  beforeAll(async () => {
    s = await startStack(
      'e2e-docs',
      {},
      {
        services: async (natsUrl, pgAdminUrl) => {
          const s3 = await startS3Server();
          const documents = await startDocuments({ natsUrl, pgAdminUrl, s3Env: s3.env });
          seedItems = (sql, params) => documents.query(sql, params);
          return {
            stop: async () => {
              await documents.stop();
              await s3.stop();
            },
          };
        },
      },
    );
    for (const key of ['partner', 'group', 'client', 'readonly'])
      tokens[key] = (await s.signIn(s.firm, key)).access_token;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('needs a token, and validates bodies with field messages', async () => {
    expect(
      (await s.call('POST', '/integrations/get_documents', { body: { companyId: company('llc') } })).status,
    ).toBe(401);
    const bad = await s.call<{ fields: Record<string, string> }>('POST', '/integrations/create_folder', {
      token: as('partner'),
      body: { companyId: company('llc'), name: '  ' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.name).toBe('Please enter a folder name');
    // A NUL or another control character in a name or path, and an upload id that is not a UUID: 400 with
    // the field's message, never the database's error.
    const refused: [string, Record<string, unknown>, string, string][] = [
      ['create_folder', { name: 'Tax\u0000es' }, 'name', 'Must not contain control characters'],
      ['get_documents', { path: '/a\u0001b' }, 'path', 'Path must not contain control characters'],
      [
        'restore_deleted_document',
        { path: '/x.pdf', id: 'not-an-id' },
        'id',
        'This document id is not valid',
      ],
      ['process_document', { uploadIds: ['abc'] }, 'uploadIds.0', 'This upload is not valid'],
      // The longest path taken, in the words of every route that takes a path.
      ['delete_path', { path: `/${'a'.repeat(2_000)}` }, 'path', 'Path is too long'],
      ['get_documents', { path: `/${'a'.repeat(2_000)}` }, 'path', 'Path is too long'],
    ];
    for (const [route, fields, field, message] of refused) {
      const res = await s.call<{ fields: Record<string, string> }>('POST', `/integrations/${route}`, {
        token: as('partner'),
        body: { companyId: company('llc'), ...fields },
      });
      expect([route, res.status, res.body.fields?.[field]]).toEqual([route, 400, message]);
    }
  });

  it('uploads through presigned links, lists, renames, downloads and deletes', async () => {
    const res = await upload(as('client'), company('llc'), [
      { name: 'my return.pdf', body: await pdf() },
      { name: 'fake.pdf', body: await png() },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: INVALID, invalid_files: ['fake.pdf'] });
    const list = await s.call<{ documents: { name: string; link: string }[] }>(
      'POST',
      '/integrations/get_documents',
      {
        token: as('client'),
        body: { companyId: company('llc'), path: '/' },
      },
    );
    expect(list.body.documents.map((d) => d.name)).toEqual(['_portico', 'my return.pdf']);
    const renamed = await s.call<{ document: { link: string } }>('POST', '/integrations/rename_item', {
      token: as('client'),
      body: { companyId: company('llc'), path: '', itemName: 'my return.pdf', newName: '2024 return' },
    });
    expect(renamed.body.document.link).toBe('/2024 return.pdf');
    const link = await s.call<{ document: { data: { link: string } } }>(
      'POST',
      '/integrations/download_document',
      {
        token: as('client'),
        body: { companyId: company('llc'), link: '/2024 return.pdf', isDownload: true },
      },
    );
    const file = await fetch(link.body.document.data.link);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const again = await upload(as('client'), company('llc'), [
      { name: '2024 return.pdf', body: await pdf() },
    ]);
    expect(again.body).toMatchObject({ is_duplicate: true, message: '2024 return.pdf was already uploaded' });
    const del = await s.call('POST', '/integrations/delete_path', {
      token: as('client'),
      body: { companyId: company('llc'), path: '/2024 return.pdf' },
    });
    expect(del.body).toEqual({ message: 'Deleted successfully' });
  });

  it('keeps advisor-only routes from clients (403) and restores as an advisor', async () => {
    const restoreAsClient = await s.call('POST', '/integrations/restore_deleted_document', {
      token: as('client'),
      body: { companyId: company('llc'), path: '/2024 return.pdf' },
    });
    expect(restoreAsClient.status).toBe(403);
    const folderZip = await s.call('POST', '/integrations/download_folder', {
      token: as('client'),
      body: { companyId: company('llc'), path: '' },
    });
    expect(folderZip.status).toBe(403);
    const restored = await s.call('POST', '/integrations/restore_deleted_document', {
      token: as('partner'),
      body: { companyId: company('llc'), path: '/2024 return.pdf' },
    });
    expect(restored.status).toBe(200);
  });

  it("answers 404 for another firm's company and 403 for a read-only user's upload", async () => {
    const foreign = await s.call('POST', '/integrations/get_documents', {
      token: as('partner'),
      body: { companyId: s.other.companies.llc?.id, path: '' },
    });
    expect(foreign.status).toBe(404);
    const ro = await upload(as('readonly'), company('rita'), [{ name: 'a.pdf', body: await pdf() }]);
    expect(ro.status).toBe(403);
    expect((ro.body as { message: string }).message).toContain('This account is read-only');
  });

  it('refuses folders in a multi-download with the spec message', async () => {
    await s.call('POST', '/integrations/create_folder', {
      token: as('partner'),
      body: { companyId: company('llc'), name: 'Folder' },
    });
    const res = await s.call('POST', '/integrations/download_multiple_documents', {
      token: as('partner'),
      body: { companyId: company('llc'), links: ['/Folder', '/2024 return.pdf'] },
    });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(
      'Downloading folders is not supported. Please select files only.',
    );
  });

  it("shows a folder zip's progress on the asker's realtime socket, ending with every file", async () => {
    await upload(
      as('partner'),
      company('llc'),
      await Promise.all(['w2.pdf', '1099.pdf', 'k1.pdf'].map(async (name) => ({ name, body: await pdf() }))),
      '/Zip progress',
    );
    const ws = new WebSocket(`${s.gateway.url.replace('http', 'ws')}/realtime`, [
      'portico.realtime',
      as('partner'),
    ]);
    const progress: { id: string; done: number; total: number }[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'progress') progress.push(message);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const progressId = crypto.randomUUID();
    const res = await s.call<{ document: { data: { link: string } } }>(
      'POST',
      '/integrations/download_folder',
      {
        token: as('partner'),
        body: { companyId: company('llc'), path: '/Zip progress', progressId },
      },
    );
    expect(res.status).toBe(200);
    const deadline = Date.now() + 5_000;
    while (!progress.some((p) => p.done === 3) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    ws.close();
    expect(progress.every((p) => p.id === progressId && p.total === 3)).toBe(true);
    expect(progress.at(-1)?.done).toBe(3);

    const bad = await s.call('POST', '/integrations/download_folder', {
      token: as('partner'),
      body: { companyId: company('llc'), path: '/Zip progress', progressId: 'zip-1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fields: { progressId: 'This progress id is not valid' } });
  });

  it('drops off files through the public drop link and refuses a made-up link', async () => {
    const saved = await s.call<{ id: string }>('POST', '/integrations/drop_link', {
      token: as('partner'),
      body: { notifyUserIds: [s.firm.users.partner?.id] },
    });
    expect(saved.status).toBe(200);
    const id = saved.body.id;
    const info = await s.call<{ firm_name: string }>('GET', `/integrations/drop_link/${id}`);
    expect(info.body).toMatchObject({
      firm_name: expect.stringMatching(/^Firm e2e-docs/),
      firm_slug: expect.stringMatching(/^firm-/),
      primary: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      hide_sign_in_button: false,
    });
    const body = await pdf();
    const links = await s.call<{ links: UploadLink[] }>(
      'POST',
      `/integrations/drop_link/${id}/upload_links`,
      {
        body: { files: [{ name: 'w2.pdf', size: body.length }] },
      },
    );
    const link = links.body.links[0] as UploadLink;
    await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    // The visitor's name is required here as on the page; a refused call files nothing.
    for (const uploaderName of [undefined, '', '   '])
      expect(
        await s.call('POST', `/integrations/drop_link/${id}/process`, {
          body: { uploadIds: [link.upload_id], uploaderName, uploaderEmail: 'pat@example.com' },
        }),
      ).toMatchObject({ status: 400, body: { fields: { uploaderName: 'Please enter your name' } } });
    const done = await s.call('POST', `/integrations/drop_link/${id}/process`, {
      body: { uploadIds: [link.upload_id], uploaderName: 'Pat Visitor', uploaderEmail: 'pat@example.com' },
    });
    expect(done.status).toBe(200);
    // Emailed from the drop-off's event, just after the answer (outbox, stream, notifier, identity, mail).
    const deadline = Date.now() + 15_000;
    let mail = await s.lastMessageTo(s.firm.users.partner?.email as string);
    while (!mail?.text.includes('w2.pdf') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      mail = await s.lastMessageTo(s.firm.users.partner?.email as string);
    }
    expect(mail?.text).toContain('w2.pdf');

    // The received files, a page at a time; deleted by the firm's managers, with bad input refused.
    const listed = await s.call<{ drop_offs: { id: string; name: string }[]; next_page: string }>(
      'GET',
      '/integrations/drop_offs?limit=1',
      { token: as('partner') },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.drop_offs.map((d) => d.name)).toEqual(['w2.pdf']);
    // Not a page at all, or one of the page's shape naming no real time: a 13th month, a 45th day.
    const unreal = Buffer.from('2026-13-45 12:00:00+00|00000000-0000-0000-0000-000000000000').toString(
      'base64url',
    );
    for (const query of ['?page=%3Bdrop', '?page=bm90LWEtcGFnZQ', `?page=${unreal}`])
      expect(await s.call('GET', `/integrations/drop_offs${query}`, { token: as('partner') })).toMatchObject({
        status: 400,
        body: { fields: { page: 'This page of received files is not valid' } },
      });
    for (const query of ['?limit=0', '?limit=501'])
      expect((await s.call('GET', `/integrations/drop_offs${query}`, { token: as('partner') })).status).toBe(
        400,
      );
    // A limit left empty is the default page.
    expect((await s.call('GET', '/integrations/drop_offs?limit=', { token: as('partner') })).status).toBe(
      200,
    );
    const received = listed.body.drop_offs[0]?.id as string;
    for (const body of [{}, { ids: [] }, { ids: ['not-a-uuid'] }, { ids: 'x' }])
      expect(
        (await s.call('POST', '/integrations/drop_offs/delete', { token: as('partner'), body })).status,
      ).toBe(400);
    expect(
      (
        await s.call('POST', '/integrations/drop_offs/delete', {
          token: as('client'),
          body: { ids: [received] },
        })
      ).status,
    ).toBe(403);
    const deleted = await s.call('POST', '/integrations/drop_offs/delete', {
      token: as('partner'),
      body: { ids: [received] },
    });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: 1, message: 'Deleted successfully' } });
    expect(
      (await s.call('GET', `/integrations/drop_offs/${received}/download`, { token: as('partner') })).status,
    ).toBe(404);
    expect(
      (await s.call('GET', '/integrations/drop_link/not-a-real-link-not-a-real-link-not-a-real-link')).status,
    ).toBe(404);
  });

  it('signs the links of a drop-off again for the same uploads, counted once', async () => {
    const { id } = (await s.call<{ id: string }>('GET', '/integrations/drop_link', { token: as('partner') }))
      .body;
    const upload = `/integrations/drop_link/${id}/upload_links`;
    const body = await pdf();
    const first = await s.call<{ links: UploadLink[] }>('POST', upload, {
      body: {
        files: [
          { name: 'slow-1.pdf', size: body.length },
          { name: 'slow-2.pdf', size: body.length },
        ],
      },
    });
    expect(first.status).toBe(200);
    const ids = first.body.links.map((l) => l.upload_id);
    // Before, the gateway dropped renewUploadIds: the call had no files (400), and new links for the
    // same files were new uploads, counted again against the visitor's share of the firm's day.
    const again = await s.call<{ links: UploadLink[] }>('POST', upload, { body: { renewUploadIds: ids } });
    expect(again.status).toBe(200);
    expect(again.body.links.map((l) => l.upload_id)).toEqual(ids);
    expect(again.body.links[0]?.expires_in_seconds).toBeGreaterThan(0);
    for (const [input, fields] of [
      [{}, { files: 'Please choose at least one file' }],
      [{ files: [], renewUploadIds: [] }, { files: 'Please choose at least one file' }],
      [{ renewUploadIds: ['not-an-upload'] }, { 'renewUploadIds.0': 'This upload is not valid' }],
      [{ renewUploadIds: 'x' }, { renewUploadIds: 'Uploads must be a list' }],
      [
        {
          files: Array.from({ length: 500 }, (_, i) => ({ name: `f${i}.pdf`, size: 1 })),
          renewUploadIds: Array.from({ length: 500 }, () => ids[0]),
        },
        { files: 'You can upload up to 999 files at once' },
      ],
    ] as [Record<string, unknown>, Record<string, string>][])
      expect(await s.call('POST', upload, { body: input })).toMatchObject({ status: 400, body: { fields } });
    // An upload that is not one of this visitor's pending drop-offs: 404, nothing renewed.
    expect(
      (await s.call('POST', upload, { body: { renewUploadIds: ['00000000-0000-4000-8000-000000000001'] } }))
        .status,
    ).toBe(404);
    for (const link of again.body.links)
      await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    const done = await s.call<{ files: { upload_id: string }[] }>(
      'POST',
      `/integrations/drop_link/${id}/process`,
      {
        body: { uploadIds: ids, uploaderName: 'Sam Slow', uploaderEmail: 'sam@example.com' },
      },
    );
    expect(done.status).toBe(200);
    expect(done.body.files.map((f) => f.upload_id).sort()).toEqual([...ids].sort());
  });

  it("answers the public secure upload page by the firm's slug, without a sign-in", async () => {
    const { id } = (await s.call<{ id: string }>('GET', '/integrations/drop_link', { token: as('partner') }))
      .body;
    const slug = (await s.call<{ firm_slug: string }>('GET', `/integrations/drop_link/${id}`)).body.firm_slug;
    const page = await s.call<{ drop_link_id: string; firm_name: string }>(
      'GET',
      `/integrations/secure_upload/${slug}`,
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ drop_link_id: id, firm_name: expect.stringMatching(/^Firm e2e-docs/) });
    const unknown = await s.call<{ message: string }>('GET', '/integrations/secure_upload/no-such-firm');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This drop link is not valid');
    const blank = await s.call<{ message: string }>('GET', '/integrations/secure_upload/%20');
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Firm is missing');
  });
  it('get_documents answers a folder of 6,000 items whole, in order, though the service pages it', async () => {
    await s.call('POST', '/integrations/create_folder', {
      token: as('partner'),
      body: { companyId: company('individual'), path: '', name: 'Archive' },
    });
    await seedItems(
      `insert into items (firm_id, company_id, folder, name, type, size, tags)
       select $1, $2, '/Archive', 'scan ' || lpad(g::text, 5, '0') || '.pdf', 'file', g,
              case when g = 4321 then array['kept'] else '{}'::text[] end
       from generate_series(1, 6000) g`,
      [s.firm.firmId, company('individual')],
    );
    const list = await s.call<{ documents: Record<string, unknown>[]; count: number; path: string }>(
      'POST',
      '/integrations/get_documents',
      { token: as('partner'), body: { companyId: company('individual'), path: '/Archive' } },
    );
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 6000, path: '/Archive' });
    const names = list.body.documents.map((d) => d.name);
    expect(new Set(names).size).toBe(6000);
    expect(names).toEqual([...names].sort((a, b) => String(a).localeCompare(String(b))));
    expect(list.body.documents[4320]).toEqual({
      id: expect.any(String),
      name: 'scan 04321.pdf',
      type: 'file',
      link: '/Archive/scan 04321.pdf',
      description: '',
      tags: ['kept'],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      deleted_at: '',
      questionnaire_id: '',
      extracted_document_id: '',
      parent_document_id: '',
      items_count: 0,
      company_id: company('individual'),
      size: '4321',
      content_type: '',
      is_protected: false,
      staff_only: false,
      is_system: false,
      path: '/Archive',
      preview_status: 'none',
      upload_type: '',
    });
  });

  it('compresses a large answer for a client that accepts it, and only then', async () => {
    // The folder of the test above: 6,000 items, about a megabyte of JSON.
    const listing = (acceptEncoding?: string) =>
      rawPost(
        '/integrations/get_documents',
        { companyId: company('individual'), path: '/Archive' },
        {
          authorization: `Bearer ${as('partner')}`,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        },
      );
    const plain = await listing();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect(JSON.parse(plain.body.toString()).count).toBe(6000);

    const br = await listing('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gzip = await listing('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    // An answer under a kilobyte goes as it is.
    const small = await rawPost(
      '/integrations/get_documents',
      {},
      {
        authorization: `Bearer ${as('partner')}`,
        'accept-encoding': 'gzip, br',
      },
    );
    expect(small.status).toBe(400);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('get_documents with lean answers the same items without their defaults, link, path and company', async () => {
    // A mixed folder: subfolders with children (one STAFF ONLY), described, tagged, deleted and protected files.
    await s.call('POST', '/integrations/create_folder', {
      token: as('partner'),
      body: { companyId: company('individual'), path: '', name: 'Mixed' },
    });
    await seedItems(
      `insert into items (firm_id, company_id, folder, name, type, size, content_type, description, tags,
                          is_protected, upload_type, questionnaire_id, created_at, updated_at, deleted_at)
       select $1, $2, '/Mixed',
              case when g % 50 = 0 then (case when g = 100 then 'Notes STAFF ONLY' else 'Sub "' || g || '"' end)
                   else 'file ' || lpad(g::text, 4, '0') || '.pdf' end,
              case when g % 50 = 0 then 'folder' else 'file' end,
              case when g % 50 = 0 then 0 else g * 10 end,
              case when g % 50 = 0 then '' else 'application/pdf' end,
              case when g % 7 = 0 then 'Line one' || chr(10) || 'a "quoted" \\ back' else '' end,
              case when g % 11 = 0 then array['2024', 'tax'] else '{}'::text[] end,
              g % 13 = 0, case when g % 17 = 0 then 'bulk_document' else '' end,
              case when g % 19 = 0 then 'q-1' else '' end,
              now() - g * interval '1 hour', now() - g * interval '1 hour' + (g % 3) * interval '1 minute',
              case when g % 23 = 0 then now() end
       from generate_series(1, 2500) g`,
      [s.firm.firmId, company('individual')],
    );
    await seedItems(
      `insert into items (firm_id, company_id, folder, name, type)
       select firm_id, company_id, folder || '/' || name, 'inside ' || k || '.txt', 'file'
       from items, generate_series(1, 2) k
       where company_id = $1 and folder = '/Mixed' and type = 'folder'`,
      [company('individual')],
    );
    type List = { documents: Record<string, unknown>[]; count: number; path: string };
    for (const [who, showWithDeleted] of [
      ['partner', true],
      ['partner', false],
      ['client', false],
    ] as const) {
      const body = { companyId: company('individual'), path: '/Mixed', showWithDeleted };
      const full = await s.call<List>('POST', '/integrations/get_documents', { token: as(who), body });
      const lean = await s.call<List & { company_id: string }>('POST', '/integrations/get_documents', {
        token: as(who),
        body: { ...body, lean: true },
      });
      expect(full.status).toBe(200);
      expect(lean.status).toBe(200);
      const defaults: Record<string, unknown> = {
        description: '',
        tags: [],
        deleted_at: '',
        questionnaire_id: '',
        extracted_document_id: '',
        parent_document_id: '',
        items_count: 0,
        size: '0',
        content_type: '',
        is_protected: false,
        staff_only: false,
        is_system: false,
        preview_status: 'none',
        upload_type: '',
      };
      const stripped = full.body.documents.map((item) => {
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(item)) {
          if (key === 'link' || key === 'path' || key === 'company_id') continue;
          if (key === 'updated_at' && value === item.created_at) continue;
          if (key in defaults && JSON.stringify(defaults[key]) === JSON.stringify(value)) continue;
          out[key] = value;
        }
        return out;
      });
      expect(lean.body).toMatchObject({
        path: '/Mixed',
        count: full.body.count,
        company_id: company('individual'),
      });
      expect(lean.body.documents).toEqual(stripped);
      expect(full.body.documents.length).toBe(full.body.count);
    }
    const client = await s.call<List>('POST', '/integrations/get_documents', {
      token: as('client'),
      body: { companyId: company('individual'), path: '/Mixed', lean: true },
    });
    expect(client.body.documents.some((d) => String(d.name).includes('STAFF ONLY'))).toBe(false);
  });
});
