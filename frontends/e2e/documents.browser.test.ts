// Browser journeys of the documents remote (issue 5): an advisor manages an entity's files, previews a
// spreadsheet, moves a file to another company, finds the drop link and uploads a folder (dropped, and
// chosen with the folder picker); a client uploads into their Documents and never sees a STAFF ONLY
// folder; a visitor drops a file off through the firm drop link and the advisor finds it on the Drop
// Link page; a visitor uploads through the portal's secure upload page.

import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { utils, write } from '@e965/xlsx';
import { describe, expect, it, jest } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { accessibilityViolations, keepScreenshot, toastSaying } from './browser.js';
import { portalSession } from './portal-session.js';
import { DEMO_PASSWORD } from './stack.js';

jest.setTimeout(120_000);

const portal = portalSession();
const { freshPage, signedIn } = portal;

const hashOf = (key: string) => {
  const hash = portal.stack.firm.companies[key]?.hashId;
  if (!hash) throw new Error(`no demo company ${key}`);
  return hash;
};

/** The names of the files in a zip. */
function zipEntries(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Engagement letter', { x: 72, y: 700, size: 20, font });
  return Buffer.from(await doc.save());
}

const samplePng = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();

/** A two-sheet workbook, as Excel saves it. */
function sampleXlsx(): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(
    book,
    utils.aoa_to_sheet([
      ['Client', 'Amount'],
      ['Anders Design LLC', 1250.5],
    ]),
    'Income',
  );
  utils.book_append_sheet(book, utils.aoa_to_sheet([['Filed on time']]), 'Notes');
  return Buffer.from(write(book, { bookType: 'xlsx', type: 'buffer' }) as Uint8Array);
}

/** The table row of an item, by its exact name. */
const row = (page: Page, name: string) =>
  page
    .getByTestId('documents-table')
    .locator('tbody tr')
    .filter({ has: page.getByText(name, { exact: true }) });

/** Opens an item's action menu and picks an action. */
async function act(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
  // The menu stays in the page until its closing transition's timer ends, after the transition itself.
  await page.getByRole('menu').waitFor({ state: 'hidden' });
}

const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title, exact: true });

/** Drops files on a drop zone the way a browser does: dragenter, dragover and drop with a DataTransfer. */
async function dropFiles(page: Page, target: Locator, files: { name: string; type: string; body: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      // The page's DataTransfer (the project's types have no DOM library).
      const PageDataTransfer = (
        globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): unknown } } }
      ).DataTransfer;
      const dt = new PageDataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.body.toString('base64') })),
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** A file, or a folder of them, as a test hands it to the page. */
type FileOrFolder = { name: string; type: string; body: Buffer } | { name: string; entries: FileOrFolder[] };
type FileOrFolderInPage =
  | { name: string; type: string; base64: string }
  | { name: string; entries: FileOrFolderInPage[] };
const inPage = (item: FileOrFolder): FileOrFolderInPage =>
  'entries' in item
    ? { name: item.name, entries: item.entries.map(inPage) }
    : { name: item.name, type: item.type, base64: item.body.toString('base64') };

/** Writes a folder of files under `parent` on the disk, for a folder picker. */
async function writeFolder(parent: string, item: FileOrFolder): Promise<void> {
  const path = join(parent, item.name);
  if (!('entries' in item)) return writeFile(path, item.body);
  await mkdir(path, { recursive: true });
  for (const entry of item.entries) await writeFolder(path, entry);
}

/**
 * Drops a folder on a drop zone as Chromium delivers one: dragenter, dragover and drop, each a task of
 * its own, with a DataTransfer whose item answers webkitGetAsEntry() with a directory entry, read through
 * createReader().readEntries() in batches until an empty one, its files through file(). A page cannot
 * put a directory in a DataTransfer of its own, so the events carry an object with the same members.
 */
async function dropFolder(page: Page, target: Locator, folder: FileOrFolder) {
  const dataTransfer = await page.evaluateHandle((root) => {
    // The page's File (the project's types have no DOM library).
    const PageFile = (
      globalThis as unknown as {
        File: new (parts: Uint8Array[], name: string, options: { type: string }) => object;
      }
    ).File;
    // The browser answers the entries' callbacks later, never during the call.
    const later = (done: () => void) => setTimeout(done, 0);
    const entryOf = (item: FileOrFolderInPage, parent: string): object => {
      const fullPath = `${parent}/${item.name}`;
      if ('entries' in item) {
        const children = item.entries.map((child) => entryOf(child, fullPath));
        return {
          isFile: false,
          isDirectory: true,
          name: item.name,
          fullPath,
          createReader: () => {
            let read = false;
            return {
              readEntries: (ok: (batch: object[]) => void) => {
                const batch = read ? [] : children;
                read = true;
                later(() => ok(batch));
              },
            };
          },
        };
      }
      const file = new PageFile([Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0))], item.name, {
        type: item.type,
      });
      return {
        isFile: true,
        isDirectory: false,
        name: item.name,
        fullPath,
        file: (ok: (file: object) => void) => later(() => ok(file)),
      };
    };
    const entry = entryOf(root, '');
    return {
      types: ['Files'],
      files: [],
      items: [{ kind: 'file', type: '', getAsFile: () => null, webkitGetAsEntry: () => entry }],
      dropEffect: 'none',
      effectAllowed: 'all',
    };
  }, inPage(folder));
  for (const type of ['dragenter', 'dragover', 'drop'])
    await target.evaluate(
      (zone, [eventType, carried]) => {
        const PageDragEvent = (
          globalThis as unknown as {
            DragEvent: new (type: string, init: { bubbles: boolean; cancelable: boolean }) => object;
          }
        ).DragEvent;
        const event = new PageDragEvent(eventType, { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: carried });
        zone.dispatchEvent(event as Parameters<typeof zone.dispatchEvent>[0]);
      },
      [type, dataTransfer] as const,
    );
}

/** The names of the items the listing shows, in its order. */
const listedNames = (page: Page) =>
  page
    .getByTestId('documents-table')
    .getByRole('button', { name: /^Actions for / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')?.replace(/^Actions for /, '')));

/** A partner's session through the gateway, for arranging a company's files before a journey. */
async function partnerToken(): Promise<string> {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${portal.stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const step = await post('/sessions/verify_password', {
    email: 'partner@demo-cpa.test',
    password: DEMO_PASSWORD,
  });
  return (await post('/sessions/exchange_token', { auth_token: step.auth_token })).access_token as string;
}

/** Files a company's root through the gateway as the partner: upload links, PUT to storage, process. */
async function uploadAsPartner(companyId: string, files: { name: string; type: string; body: Buffer }[]) {
  const token = await partnerToken();
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${portal.stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const { links } = (await call('/integrations/upload_links', {
    companyId,
    path: '',
    files: files.map((f) => ({ name: f.name, size: f.body.length, contentType: f.type })),
  })) as { links: { upload_id: string; url: string; method: string; headers: Record<string, string> }[] };
  for (const [i, link] of links.entries()) {
    const put = await fetch(link.url, { method: link.method, headers: link.headers, body: files[i]?.body });
    if (!put.ok) throw new Error(`PUT ${link.url}: ${put.status}`);
  }
  await call('/integrations/process_document', {
    companyId,
    path: '',
    uploadIds: links.map((l) => l.upload_id),
  });
}

describe('documents', () => {
  it('lets an advisor create a folder, drop two files, rename, move, delete, restore and preview', async () => {
    const page = await signedIn('partner@demo-cpa.test');
    await page.goto(`${portal.stack.shellUrl}/admin/${hashOf('fisher_scorp')}/documents`);
    const manager = page.getByTestId('file-manager');
    await manager.getByText('Fisher Boats S Corp').waitFor();
    expect(await manager.getAttribute('data-role')).toBe('advisor');

    // Add Folder
    await page.getByRole('button', { name: 'Add Folder', exact: true }).click();
    await dialog(page, 'Add Folder').getByLabel('Folder name').fill('Engagement');
    await dialog(page, 'Add Folder').getByRole('button', { name: 'Create', exact: true }).click();
    await row(page, 'Engagement').waitFor();

    // Two files dropped on the listing.
    const dropZone = page.getByLabel('Drop files to upload').locator('..');
    await dropFiles(page, dropZone, [
      { name: 'Engagement letter.pdf', type: 'application/pdf', body: await samplePdf() },
      { name: 'Boat photo.png', type: 'image/png', body: await samplePng() },
    ]);
    await toastSaying(page, 'Document(s) uploaded successfully').waitFor();
    await row(page, 'Engagement letter.pdf').waitFor();
    await row(page, 'Boat photo.png').waitFor();

    // A dialog opened from a row's menu gives focus back to that row's Actions button when it closes.
    await act(page, 'Boat photo.png', 'Rename');
    await dialog(page, 'Rename file').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Rename file').waitFor({ state: 'detached' });
    const actions = page.getByRole('button', { name: 'Actions for Boat photo.png', exact: true });
    await page.waitForFunction(
      (button) => button === button?.ownerDocument.activeElement,
      await actions.elementHandle(),
    );

    // Rename: only the base name is edited, the extension is kept.
    await act(page, 'Boat photo.png', 'Rename');
    const rename = dialog(page, 'Rename file');
    expect(await rename.getByLabel('Extension').inputValue()).toBe('.png');
    expect(await accessibilityViolations(page)).toEqual([]);
    await rename.getByLabel('Name', { exact: true }).fill('Hull inspection');
    await rename.getByRole('button', { name: 'Rename', exact: true }).click();
    await row(page, 'Hull inspection.png').waitFor();
    expect(await row(page, 'Boat photo.png').count()).toBe(0);

    // Move into the new folder.
    await act(page, 'Hull inspection.png', 'Move');
    const move = dialog(page, 'Move "Hull inspection.png"');
    await move.getByRole('treeitem', { name: 'Engagement' }).click();
    await move.getByRole('button', { name: 'Move here', exact: true }).click();
    await row(page, 'Hull inspection.png').waitFor({ state: 'detached' });
    await row(page, 'Engagement').getByRole('button', { name: 'Engagement', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === '/Engagement');
    await row(page, 'Hull inspection.png').waitFor();

    // Delete, then find it again with Include deleted files and restore it.
    await act(page, 'Hull inspection.png', 'Delete');
    await dialog(page, 'Delete').getByRole('button', { name: 'Delete', exact: true }).click();
    await row(page, 'Hull inspection.png').waitFor({ state: 'detached' });
    await page.getByLabel('Include deleted files').check();
    const deleted = row(page, 'Hull inspection.png');
    await deleted.getByText('Deleted', { exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await act(page, 'Hull inspection.png', 'Restore');
    await dialog(page, 'Restore').getByRole('button', { name: 'Restore', exact: true }).click();
    await deleted.getByText('Deleted', { exact: true }).waitFor({ state: 'detached' });
    await page.getByLabel('Include deleted files').uncheck();
    await row(page, 'Hull inspection.png').waitFor();
    await keepScreenshot(page, 'documents-advisor-restored');

    // Preview the PDF from the top of the tree.
    await page.goto(`${portal.stack.shellUrl}/admin/${hashOf('fisher_scorp')}/documents`);
    await row(page, 'Engagement letter.pdf')
      .getByRole('button', { name: 'Engagement letter.pdf', exact: true })
      .click();
    const preview = dialog(page, 'Engagement letter.pdf');
    await preview.getByTestId('pdf-pages').locator('canvas[aria-label="Page 1"]').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, 'documents-advisor-pdf-preview');

    const stored = await portal.stack.documents.query<{
      folder: string;
      name: string;
      deleted_at: Date | null;
    }>('select folder, name, deleted_at from items where company_id = $1 and type = $2 order by name', [
      portal.stack.firm.companies.fisher_scorp?.id,
      'file',
    ]);
    expect(stored.map((r) => [r.folder, r.name, r.deleted_at])).toEqual([
      ['', 'Engagement letter.pdf', null],
      ['/Engagement', 'Hull inspection.png', null],
    ]);
  });

  it('lets an advisor preview a spreadsheet, move a file to another company and copy the drop link', async () => {
    const from = portal.stack.firm.companies.anders_llc?.id as string;
    const to = portal.stack.firm.companies.anders_trust?.id as string;
    await uploadAsPartner(from, [
      {
        name: 'Income 2024.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: sampleXlsx(),
      },
      { name: 'Lease agreement.pdf', type: 'application/pdf', body: await samplePdf() },
    ]);

    const page = await signedIn('partner@demo-cpa.test');
    await page.goto(`${portal.stack.shellUrl}/admin/${hashOf('anders_llc')}/documents`);
    await page.getByTestId('file-manager').getByText('Anders Design LLC').first().waitFor();

    // The spreadsheet opens as a read-only table, one tab per sheet.
    await row(page, 'Income 2024.xlsx')
      .getByRole('button', { name: 'Income 2024.xlsx', exact: true })
      .click();
    const preview = dialog(page, 'Income 2024.xlsx');
    const income = preview.getByRole('table', { name: 'Sheet Income' });
    await income.getByText('1250.5', { exact: true }).waitFor();
    expect(await income.getByText('Anders Design LLC', { exact: true }).count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, 'documents-advisor-xlsx-preview');
    await preview.getByRole('tab', { name: 'Notes', exact: true }).click();
    await preview.getByRole('table', { name: 'Sheet Notes' }).getByText('Filed on time').waitFor();
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    // Move to another company of the firm: the company first, then a folder of its tree.
    await act(page, 'Lease agreement.pdf', 'Move');
    const move = dialog(page, 'Move "Lease agreement.pdf"');
    await move.getByRole('combobox', { name: 'Company' }).fill('Anders Family');
    await move.getByRole('option', { name: 'Anders Family Trust' }).click();
    await move.getByText('Another company of the firm: Anders Family Trust').waitFor();
    // The system folder is in every tree but never a place to move or copy to.
    const location = move.getByRole('tree', { name: 'Location' });
    await location.getByLabel('Loading folders').waitFor({ state: 'detached' });
    expect(await location.getByRole('treeitem', { name: '_portico' }).count()).toBe(0);
    await move.getByRole('button', { name: 'Move here', exact: true }).click();
    await row(page, 'Lease agreement.pdf').waitFor({ state: 'detached' });
    const moved = await portal.stack.documents.query<{ company_id: string; folder: string }>(
      'select company_id, folder from items where name = $1 and deleted_at is null',
      ['Lease agreement.pdf'],
    );
    expect(moved).toEqual([{ company_id: to, folder: '' }]);
    await page.goto(`${portal.stack.shellUrl}/admin/${hashOf('anders_trust')}/documents`);
    await row(page, 'Lease agreement.pdf').waitFor();

    // The firm drop link, with the users it notifies.
    await page.getByRole('button', { name: 'Drop Link', exact: true }).click();
    const drop = dialog(page, 'Drop Link');
    await drop.getByRole('checkbox', { name: /Paula Partner/ }).waitFor();
    const url = await drop.getByTestId('drop-link-url').inputValue();
    expect(url.startsWith(`${portal.stack.shellUrl}/drop-link?id=`)).toBe(true);
    expect(new URL(url).searchParams.get('id')).toMatch(/^[A-Za-z0-9_-]+$/);
    await keepScreenshot(page, 'documents-advisor-drop-link');
  });

  it('lets an advisor download a folder as a zip, built while they go on, with what is in it', async () => {
    const page = await signedIn('partner@demo-cpa.test');
    await page.goto(`${portal.stack.shellUrl}/admin/${hashOf('anders_trust')}/documents`);
    await page.getByTestId('file-manager').getByText('Anders Family Trust').waitFor();
    await dropFiles(page, page.getByLabel('Drop files to upload').locator('..'), [
      { name: 'Trust deed.pdf', type: 'application/pdf', body: await samplePdf() },
    ]);
    await row(page, 'Trust deed.pdf').waitFor();
    // The zip's answer is held until the notice has been seen: a small folder's zip is ready at once.
    // The zip itself is built meanwhile, and its progress comes over the realtime socket.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/integrations/download_folder', async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: 'Download folder', exact: true }).click();
    await dialog(page, 'Download').getByRole('button', { name: 'Download', exact: true }).click();
    // The dialog closed at once with the notice, which stays with its spinner while the zip is built.
    const notice = page
      .getByText('You will receive a notification when the zip file is ready for download.')
      .first();
    await notice.waitFor();
    const pendingNotice = notice.locator('xpath=ancestor::*[@data-toast][1]');
    expect(await pendingNotice.getAttribute('data-toast')).toBe('pending');
    // Every file is in the zip before its answer is let through: the notice says so, with its bar full.
    const count = pendingNotice.getByText(/^([1-9][\d,]*) of \1 files?$/);
    await count.waitFor();
    expect(
      await pendingNotice.getByRole('progressbar', { name: 'Files done' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    const downloading = page.waitForEvent('download');
    release();
    const download = await downloading;
    // The notification came with the download, in the notice's place.
    await toastSaying(page, 'Your zip file is ready: Documents.zip').waitFor();
    await notice.waitFor({ state: 'detached' });
    await page.unroute('**/integrations/download_folder');
    expect(download.suggestedFilename()).toBe('Documents.zip');
    const saved = await download.path();
    expect(await zipEntries(readFileSync(saved))).toContain('Trust deed.pdf');
    await keepScreenshot(page, 'documents-advisor-zip-ready');
  });

  it('files a folder dropped on the listing, or chosen in the upload dialog, with its sub-folder and files', async () => {
    const receipts: FileOrFolder = {
      name: 'Receipts',
      entries: [
        { name: 'Lunch.pdf', type: 'application/pdf', body: await samplePdf() },
        { name: 'Travel', entries: [{ name: 'Hotel.png', type: 'image/png', body: await samplePng() }] },
      ],
    };
    const page = await signedIn('partner@demo-cpa.test');
    const openDocuments = async (company: string, name: string) => {
      await page.goto(`${portal.stack.shellUrl}/admin/${hashOf(company)}/documents`);
      await page.getByTestId('file-manager').getByText(name).first().waitFor();
    };
    /** From the top of a company's documents: Receipts, its file and its sub-folder with its file. */
    const expectReceipts = async (company: string) => {
      await toastSaying(page, 'Document(s) uploaded successfully').waitFor();
      await row(page, 'Receipts').waitFor();
      // Beside the system folder every company has.
      expect(await listedNames(page)).toEqual(['_portico', 'Receipts']);
      await row(page, 'Receipts').getByRole('button', { name: 'Receipts', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('path') === '/Receipts');
      await row(page, 'Lunch.pdf').waitFor();
      expect(await listedNames(page)).toEqual(['Travel', 'Lunch.pdf']);
      // The tree opened Receipts on the way, with Travel under it.
      const travel = page
        .getByRole('tree', { name: 'Folders' })
        .getByRole('treeitem', { name: 'Travel', exact: true });
      expect(await travel.getAttribute('data-parent')).toBe('/Receipts');
      await travel.click();
      await page.waitForURL((url) => url.searchParams.get('path') === '/Receipts/Travel');
      await row(page, 'Hotel.png').waitFor();
      expect(await listedNames(page)).toEqual(['Hotel.png']);
      const stored = await portal.stack.documents.query<{ type: string; folder: string; name: string }>(
        'select type, folder, name from items where company_id = $1 and deleted_at is null order by folder, name',
        [portal.stack.firm.companies[company]?.id],
      );
      const filed = stored.filter((r) => !`${r.folder}/${r.name}`.startsWith('/_portico'));
      expect(filed.map((r) => [r.type, r.folder, r.name])).toEqual([
        ['folder', '', 'Receipts'],
        ['file', '/Receipts', 'Lunch.pdf'],
        ['folder', '/Receipts', 'Travel'],
        ['file', '/Receipts/Travel', 'Hotel.png'],
      ]);
    };

    await openDocuments('diaz_corp', 'Diaz Holdings Inc');
    await dropFolder(page, page.getByLabel('Drop files to upload').locator('..'), receipts);
    await expectReceipts('diaz_corp');
    await keepScreenshot(page, 'documents-advisor-folder-dropped');

    // The same folder from the disk, with Choose a folder, in another company.
    const chosen = join(portal.stack.temp, 'chosen-folder');
    await writeFolder(chosen, receipts);
    await openDocuments('alice_individual', 'Alice Anders');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog(page, 'Upload').getByLabel('Choose a folder').setInputFiles(join(chosen, 'Receipts'));
    // 'Done' once the upload has ended ('Close' while it runs).
    await dialog(page, 'Upload').getByRole('button', { name: 'Done', exact: true }).click();
    await expectReceipts('alice_individual');
  });

  it('lets a client upload into their Documents without seeing a STAFF ONLY folder', async () => {
    const companyId = portal.stack.firm.companies.bob_individual?.id;
    const token = await partnerToken();
    for (const name of ['Workpapers (STAFF ONLY)', 'Shared']) {
      const res = await fetch(`${portal.stack.gateway.url}/integrations/create_folder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ companyId, path: '', name }),
      });
      expect(res.status).toBe(200);
    }

    const page = await signedIn('bob@client.test');
    await page.goto(`${portal.stack.shellUrl}/documents/${hashOf('bob_individual')}`);
    const manager = page.getByTestId('file-manager');
    await manager.getByText('Bob Brown').first().waitFor();
    expect(await manager.getAttribute('data-role')).toBe('client');
    await row(page, 'Shared').waitFor();
    expect(await page.getByText('Workpapers (STAFF ONLY)').count()).toBe(0);
    expect(await page.getByLabel('Include deleted files').count()).toBe(0);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // One 'Choose files' to assistive technology: the button, not also the hidden file input it opens.
    expect(await dialog(page, 'Upload').getByRole('button', { name: 'Choose files' }).count()).toBe(1);
    await dialog(page, 'Upload')
      .getByLabel('Choose files')
      .setInputFiles({ name: 'Bank statement.pdf', mimeType: 'application/pdf', buffer: await samplePdf() });
    await toastSaying(page, 'Document(s) uploaded successfully').waitFor();
    // The dialog with each file's progress bar and result, and the toast.
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog(page, 'Upload').getByRole('button', { name: 'Done', exact: true }).click();
    await row(page, 'Bank statement.pdf').waitFor();
    expect(await page.getByText('Workpapers (STAFF ONLY)').count()).toBe(0);
    await keepScreenshot(page, 'documents-client-uploaded');

    // On a slow line the client cancels a large upload: the transfer stops and nothing is filed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const upload = dialog(page, 'Upload');
    await upload.getByLabel('Choose files').setInputFiles({
      name: 'Scanned archive.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([await samplePdf(), Buffer.alloc(8 * 1024 * 1024)]),
    });
    await upload.getByText(/^Uploading/).waitFor();
    await upload.getByRole('button', { name: 'Cancel upload' }).click();
    await toastSaying(page, 'Upload cancelled. The files not yet uploaded were not saved.').waitFor();
    await upload.getByText('Cancelled', { exact: true }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await upload.getByRole('button', { name: 'Done', exact: true }).click();
    await page.reload();
    await row(page, 'Bank statement.pdf').waitFor();
    expect(await row(page, 'Scanned archive.pdf').count()).toBe(0);
  });

  it('lets a visitor drop a file off through the firm drop link, signed out, and the advisor find it', async () => {
    // The partner opens the Drop Link item of the navigation and chooses who is told of drop-offs.
    const advisor = await signedIn('partner@demo-cpa.test');
    await advisor
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Drop Link', exact: true })
      .click();
    await advisor.waitForURL((url) => url.pathname === '/drop-link-settings');
    const settings = advisor.getByTestId('drop-link-settings');
    const paula = settings.getByRole('checkbox', { name: /Paula Partner/ });
    if (!(await paula.isChecked())) {
      await paula.check();
      await settings.getByRole('button', { name: 'Save', exact: true }).click();
      await toastSaying(advisor, 'Saved!').waitFor();
    }
    const url = await settings.getByTestId('drop-link-url').inputValue();
    expect(new URL(url).pathname).toBe('/drop-link');
    expect([...new URL(url).searchParams.keys()]).toEqual(['id']);
    // The portal's own firm: its secure upload page needs no query.
    expect(await settings.getByTestId('secure-upload-url').inputValue()).toBe(
      `${portal.stack.shellUrl}/secure-upload`,
    );
    await settings.getByText('No files have been dropped off yet.').waitFor();

    // A visitor with no session opens the link: the firm's page (its branding from the drop link's
    // answer), no navigation, a Sign in button to the firm's sign-in page.
    const visitor = await freshPage();
    await visitor.goto(url);
    await visitor.getByTestId('drop-off-page').waitFor();
    expect(new URL(visitor.url()).pathname).toBe('/drop-link');
    await visitor.getByTestId('drop-off-firm').filter({ hasText: 'Demo CPA' }).waitFor();
    expect(await visitor.getByRole('navigation').count()).toBe(0);
    expect(await visitor.getByRole('link', { name: 'Sign in', exact: true }).getAttribute('href')).toBe(
      '/signin?firm=demo-cpa',
    );
    await visitor.getByRole('textbox', { name: 'Your name' }).fill('Vera Visitor');
    await visitor.getByRole('textbox', { name: 'Your email' }).fill('vera@example.test');
    await visitor.getByRole('textbox', { name: 'Message' }).fill('My passport for the 2024 return');
    const passport = await samplePdf();
    await dropFiles(visitor, visitor.getByTestId('drop-off-dropzone'), [
      { name: 'Passport scan.pdf', type: 'application/pdf', body: passport },
    ]);
    await visitor.getByRole('listitem').filter({ hasText: 'Passport scan.pdf' }).waitFor();
    await visitor.getByRole('button', { name: 'Upload', exact: true }).click();
    await visitor.getByTestId('drop-off-success').waitFor();
    expect(await visitor.getByTestId('drop-off-success').textContent()).toBe(
      'Document(s) uploaded successfully',
    );
    expect(
      await visitor
        .getByRole('progressbar', { name: 'Upload of Passport scan.pdf' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    await visitor.getByText('Upload successful', { exact: true }).waitFor();
    await keepScreenshot(visitor, 'documents-visitor-drop-off');

    // The advisor finds it among the received files, from the visitor, and downloads it.
    await advisor.reload();
    const received = advisor.getByRole('table', { name: 'Received files' });
    const line = received.locator('tbody tr').filter({ hasText: 'Passport scan.pdf' });
    await line.waitFor();
    expect(await line.textContent()).toContain('Vera Visitor');
    expect(await line.textContent()).toContain('vera@example.test');
    expect(await line.textContent()).toContain('My passport for the 2024 return');
    const [download] = await Promise.all([
      advisor.waitForEvent('download'),
      line.getByRole('button', { name: 'Download Passport scan.pdf' }).click(),
    ]);
    const saved = await download.path();
    expect(saved && readFileSync(saved).equals(passport)).toBe(true);
    await keepScreenshot(advisor, 'documents-advisor-received-drop-off');

    // Once filed where it belongs, the advisor deletes it from the received files, after a question.
    await line.getByRole('checkbox', { name: 'Select Passport scan.pdf' }).check();
    await advisor.getByRole('button', { name: 'Delete', exact: true }).click();
    const question = advisor.getByRole('dialog', { name: 'Delete' });
    await question
      .getByText('Are you sure you want to delete "Passport scan.pdf"? They cannot be restored.')
      .waitFor();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await toastSaying(advisor, 'Deleted successfully').waitFor();
    await line.waitFor({ state: 'detached' });
    await advisor.reload();
    await advisor.getByText('No files have been dropped off yet.').waitFor();

    // Signed in, the same link still shows the public page, without the advisor layout.
    await advisor.goto(url);
    await advisor.getByTestId('drop-off-page').waitFor();
    expect(await advisor.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
  });

  it("lets a visitor upload through the portal's secure upload page, which needs no link id", async () => {
    const visitor = await freshPage();
    await visitor.goto(`${portal.stack.shellUrl}/secure-upload`);
    await visitor.getByTestId('drop-off-page').waitFor();
    // The portal's own firm, from its runtime configuration.
    await visitor.getByTestId('drop-off-firm').filter({ hasText: 'Demo CPA' }).waitFor();
    expect(await visitor.getByRole('navigation').count()).toBe(0);
    await visitor.getByRole('textbox', { name: 'Your name' }).fill('Sam Sender');
    await visitor.getByRole('textbox', { name: 'Your email' }).fill('sam@example.test');
    await dropFiles(visitor, visitor.getByTestId('drop-off-dropzone'), [
      { name: 'W-2 2024.pdf', type: 'application/pdf', body: await samplePdf() },
    ]);
    await visitor.getByRole('button', { name: 'Upload', exact: true }).click();
    await visitor.getByTestId('drop-off-success').waitFor();
    await keepScreenshot(visitor, 'documents-visitor-secure-upload');
    // A firm the portal does not know is refused with the drop link's message.
    await visitor.goto(`${portal.stack.shellUrl}/secure-upload?firm=no-such-firm`);
    expect(await visitor.getByTestId('drop-link-refused').textContent()).toBe('This drop link is not valid');
  });

  it('gives each field of the secure upload page the width of a phone screen', async () => {
    const visitor = await freshPage('phone');
    await visitor.goto(`${portal.stack.shellUrl}/secure-upload`);
    await visitor.getByTestId('drop-off-page').waitFor();
    const box = async (name: string) => visitor.getByRole('textbox', { name }).boundingBox();
    const [name, email] = [await box('Your name'), await box('Your email')];
    // One above the other, each most of the 390 px screen: room for an email address.
    expect(email?.y).toBeGreaterThan((name?.y ?? 0) + (name?.height ?? 0));
    expect(email?.width).toBeGreaterThan(300);
    await keepScreenshot(visitor, 'documents-visitor-phone-secure-upload');
  });
});
