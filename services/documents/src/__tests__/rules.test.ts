import { describe, expect, it } from '@jest/globals';
import { degrees, PDFDocument } from 'pdf-lib';
import { assertNotMixed, assertZipSize } from '../downloads/downloads.service.js';
import { callerAddressGroup, callerOf } from '../drop-links/caller-address.rules.js';
import { decodeDropLinkId, encodeDropLinkId } from '../drop-links/drop-link-id.rules.js';
import { decodeDropOffPage, encodeDropOffPage } from '../drop-links/drop-off-page.rules.js';
import {
  formatPageRanges,
  normaliseAnnotation,
  pageRangesWellFormed,
  parsePageRanges,
} from '../extracted/extracted.rules.js';
import { pageSizesOf } from '../extracted/page-sizes.rules.js';
import type { ListedRow } from '../items/items.repository.js';
import {
  decodePageToken,
  encodePageToken,
  fitToBudget,
  leanPageBudget,
  leanRowsToRead,
  MAX_LEAN_PAGE_SIZE,
  PAGE_BYTE_BUDGET,
  pageSizeOf,
  rowsToRead,
} from '../items/listing.rules.js';
import {
  clientActionsDisabledIn,
  fittedName,
  isInSystemFolder,
  isStaffOnly,
  MAX_NAME_LENGTH,
  normalisePath,
  numberedName,
  renamedFileName,
  sanitisedPath,
  sanitiseName,
} from '../items/paths.rules.js';
import { attachmentDisposition } from '../storage/s3.object-store.js';
import { isValidUpload, sniffType } from '../uploads/file-type.rules.js';
import {
  encryptionFromTrailer,
  namesEncryption,
  PDF_TAIL_BYTES,
  startXrefOffset,
  trailerDictionary,
} from '../uploads/pdf-trailer.rules.js';
import { pdfInfo } from '../uploads/upload-validator.js';
import {
  encryptedPdf,
  type HandWrittenPdf,
  handWrittenPdf,
  heicHeader,
  jpeg,
  pdf,
  png,
  realHeic,
} from './samples.js';

describe('name sanitising (spec 1 s.5.5)', () => {
  it.each([
    ['W-2 form #1 (final).pdf', 'W-2 form 1 (final).pdf'],
    ["it's *ok*!.txt", "it's *ok*!.txt"],
    ['a / b \\ c?.pdf', 'a b c .pdf'],
    ['   spaced    out   ', 'spaced out'],
    ['Ünïcödé 2024.pdf', 'Ünïcödé 2024.pdf'],
    ['<>:"|', ''],
    ['..', ''],
    [' . ', ''],
    ['...', ''],
    ['..pdf', '..pdf'],
  ])('%j becomes %j', (input, output) => {
    expect(sanitiseName(input)).toBe(output);
  });

  it('keeps the extension on rename and does not double it', () => {
    expect(renamedFileName('scan.PDF', 'March bill')).toBe('March bill.PDF');
    expect(renamedFileName('scan.pdf', 'March bill.pdf')).toBe('March bill.pdf');
    expect(renamedFileName('scan.pdf', ' ?? ')).toBeUndefined();
    expect(renamedFileName('README', 'notes')).toBe('notes');
  });

  it('numbers copies before the extension', () => {
    expect(numberedName('a.pdf', 2)).toBe('a (2).pdf');
    expect(numberedName('Folder', 1)).toBe('Folder (1)');
  });

  it('keeps every name it makes within the longest name, cutting the stem and keeping extension and number', () => {
    const long = 'a'.repeat(MAX_NAME_LENGTH);
    // The extension goes back after the new name: 255 characters typed made 259 stored.
    const renamed = renamedFileName('a.pdf', long);
    expect(renamed).toBe(`${'a'.repeat(MAX_NAME_LENGTH - 4)}.pdf`);
    expect(renamedFileName(renamed as string, long)).toBe(renamed);
    expect(renamedFileName('scan.pdf', `${'b'.repeat(MAX_NAME_LENGTH - 4)}.pdf`)).toHaveLength(
      MAX_NAME_LENGTH,
    );
    // A copy's number and the extension are kept; each number still gives another name.
    const file = `${'c'.repeat(MAX_NAME_LENGTH - 4)}.pdf`;
    const copies = [1, 2, 10, 100].map((n) => numberedName(file, n));
    expect(copies[0]).toBe(`${'c'.repeat(MAX_NAME_LENGTH - 8)} (1).pdf`);
    expect(copies[3]).toMatch(/^c+ \(100\)\.pdf$/);
    expect(new Set(copies).size).toBe(copies.length);
    expect(numberedName('d'.repeat(MAX_NAME_LENGTH), 3)).toBe(`${'d'.repeat(MAX_NAME_LENGTH - 4)} (3)`);
    for (const name of [...copies, numberedName('d'.repeat(300), 3)])
      expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    // A cut leaves no space or dot before the extension, nor half of a character beyond U+FFFF.
    expect(fittedName(`${'e'.repeat(MAX_NAME_LENGTH - 6)} x.pdf`)).toBe(
      `${'e'.repeat(MAX_NAME_LENGTH - 6)} x.pdf`,
    );
    expect(fittedName(`${'e'.repeat(MAX_NAME_LENGTH - 5)}  xx.pdf`)).toBe(
      `${'e'.repeat(MAX_NAME_LENGTH - 5)}.pdf`,
    );
    expect(fittedName(`${'𝐀'.repeat(200)}.pdf`)).toBe(`${'𝐀'.repeat(125)}.pdf`);
    // An extension that leaves the stem no room: the whole name cut, the number kept.
    const oddExtension = `a.${'x'.repeat(MAX_NAME_LENGTH - 2)}`;
    expect(numberedName(oddExtension, 7)).toHaveLength(MAX_NAME_LENGTH);
    expect(numberedName(oddExtension, 7).endsWith(' (7)')).toBe(true);
    expect(fittedName('short.pdf', ' (1)')).toBe('short (1).pdf');
  });

  it('knows the system folder and everything below it, whatever the case', () => {
    for (const path of ['/_portico', '/_PORTICO/Signature Requests', '/_portico/Tax Return Delivery/2024'])
      expect(isInSystemFolder(path)).toBe(true);
    for (const path of ['', '/_portico2', '/Receipts/_portico', '/_porticos/Signature Requests'])
      expect(isInSystemFolder(path)).toBe(false);
  });

  it('normalises paths and refuses dot segments', () => {
    expect(normalisePath('/A//B/ ')).toBe('/A/B');
    expect(normalisePath('/')).toBe('');
    expect(normalisePath('A/../B')).toBeUndefined();
  });
});

describe('folder rules', () => {
  it('recognises STAFF ONLY at any depth', () => {
    expect(isStaffOnly('/2022/Tax Returns and Tax Organizers (STAFF ONLY)/x.pdf')).toBe(true);
    expect(isStaffOnly('/2022/Staff only notes')).toBe(true);
    expect(isStaffOnly('/2022/Staff')).toBe(false);
    // Read in the names' compatibility form, as the database's trigger reads them (migration 0009).
    expect(isStaffOnly('/Staﬀ Only')).toBe(true);
    expect(isStaffOnly('/ＳＴＡＦＦ ＯＮＬＹ')).toBe(true);
    expect(isStaffOnly('/ſtaff only')).toBe(true);
    expect(isStaffOnly('/STAFF-ONLY')).toBe(false);
    // Read on the whole path: no match across two folders.
    expect(isStaffOnly('/Staff/Only')).toBe(false);
    expect(isStaffOnly('/Staff / Only')).toBe(false);
  });

  it('reads a typed path as the lookup matches its folders, segment by segment sanitised', () => {
    const typed = '/2022/Tax Returns and Tax Organizers (STAFF  ONLY)/x.pdf';
    expect(isStaffOnly(typed)).toBe(false);
    expect(sanitisedPath(typed)).toBe('/2022/Tax Returns and Tax Organizers (STAFF ONLY)/x.pdf');
    expect(sanitisedPath('/Tax #Returns/ x.pdf')).toBe('/Tax Returns/x.pdf');
    expect(sanitisedPath('')).toBe('');
  });

  it('matches path prefixes and {year} patterns over 2000 to 2034 only', () => {
    const entries = ['/{year}/Final', '/Locked'];
    expect(clientActionsDisabledIn('/Locked', entries)).toBe(true);
    expect(clientActionsDisabledIn('/locked/inner/x.pdf', entries)).toBe(true);
    expect(clientActionsDisabledIn('/Lockedness', entries)).toBe(false);
    expect(clientActionsDisabledIn('/2000/Final', entries)).toBe(true);
    expect(clientActionsDisabledIn('/2034/Final/a.pdf', entries)).toBe(true);
    expect(clientActionsDisabledIn('/1999/Final', entries)).toBe(false);
    expect(clientActionsDisabledIn('/2035/Final', entries)).toBe(false);
    expect(clientActionsDisabledIn('/2024', entries)).toBe(false);
    // '/' is every folder, the root's files included; an empty entry is none.
    for (const path of ['', '/a.pdf', '/Any/Where'])
      expect(clientActionsDisabledIn(path, [' / '])).toBe(true);
    expect(clientActionsDisabledIn('/Any', ['', '  '])).toBe(false);
  });
});

describe('upload type check by first bytes', () => {
  it('accepts real files of each checked type', async () => {
    expect(isValidUpload('a.pdf', await pdf())).toBe(true);
    expect(isValidUpload('a.png', await png())).toBe(true);
    expect(isValidUpload('a.jpeg', await jpeg())).toBe(true);
    expect(isValidUpload('a.JPG', await jpeg())).toBe(true);
    expect(isValidUpload('a.gif', Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe(true);
    expect(isValidUpload('a.heic', heicHeader())).toBe(true);
    expect(sniffType(realHeic().subarray(0, 1024))).toBe('heic');
    expect(isValidUpload('IMG_0001.HEIC', realHeic())).toBe(true);
    expect(isValidUpload('IMG_0001.heif', realHeic())).toBe(true);
    expect(sniffType(encryptedPdf())).toBe('pdf');
  });

  it('refuses a PNG renamed .pdf, a PDF renamed .jpg and empty files; does not check other types', async () => {
    expect(isValidUpload('a.pdf', await png())).toBe(false);
    expect(isValidUpload('a.jpg', await pdf())).toBe(false);
    expect(isValidUpload('a.heic', await png())).toBe(false);
    expect(isValidUpload('a.jpg', realHeic())).toBe(false);
    expect(isValidUpload('a.png', Buffer.alloc(0))).toBe(false);
    expect(isValidUpload('a.xlsx', Buffer.from('PK\x03\x04'))).toBe(true);
  });
});

describe('the caller of a drop-off', () => {
  it("is the address's group, trimmed and without a zone id first", () => {
    expect(callerAddressGroup(' 2001:db8:1:2:aaaa::1 ')).toBe('2001:db8:1:2::/64');
    expect(callerAddressGroup(' fe80::1%eth0 ')).toBe('fe80:0:0:0::/64');
    expect(callerAddressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(callerAddressGroup('192.0.2.1%x')).toBe('192.0.2.1');
    expect(callerAddressGroup(undefined)).toBe('');
  });

  it('is kept as the same hash as ever (the uploads table holds them)', () => {
    const firmId = '9f3c2b1e-0000-4000-8000-000000000001';
    expect(callerOf(firmId, '2001:db8:1:2:aaaa::1')).toBe('cy32THmaFVmKigpZm-HP0q');
    expect(callerOf(firmId, ' ::ffff:192.0.2.1 ')).toBe('bOAmGUbeycqphFMpeh0vIX');
    expect(callerOf(firmId, undefined)).toBe('cyczzmtHHRXGxjNQIsyjpk');
  });
});

describe('drop link id', () => {
  it('round-trips the firm id and name, URL-safe, and rejects tampering or another key', () => {
    const firmId = '3b241101-e2bb-4255-8caf-4136c566a962';
    const id = encodeDropLinkId(firmId, 'Smith & Sons, CPA / Tax ü', 'k-12345678');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(id).not.toContain(firmId);
    expect(decodeDropLinkId(id, 'k-12345678')).toEqual({ firmId, firmName: 'Smith & Sons, CPA / Tax ü' });
    expect(decodeDropLinkId(id, 'another-key')).toBeUndefined();
    expect(decodeDropLinkId(`x${id.slice(1)}`, 'k-12345678')?.firmId ?? 'bad').not.toBe(firmId);
    expect(decodeDropLinkId('short', 'k-12345678')).toBeUndefined();
  });
});

describe('splitting and annotations', () => {
  it('parses page ranges with -, .. and ... and collapses them back', () => {
    expect(parsePageRanges('1-3, 5, 7..8, 10...11', 11)).toEqual({ pages: [1, 2, 3, 5, 7, 8, 10, 11] });
    expect(parsePageRanges('3, 1-4', 4)).toEqual({ pages: [3, 1, 2, 4] });
    for (const malformed of ['3-1', '0', '0-2', 'a', '1-', ' , ', '1-2-3', '1, 3-1']) {
      expect(parsePageRanges(malformed, 5)).toEqual({ error: 'malformed' });
      expect(pageRangesWellFormed(malformed)).toBe(false);
    }
    // Well formed whatever the page count: checked before a file is read, without expanding.
    expect(pageRangesWellFormed('1-3, 5, 7..8, 1-99999999999999999999')).toBe(true);
    expect(formatPageRanges([5, 1, 2, 3, 7])).toBe('1-3,5,7');
  });

  it('refuses a page past the last before expanding, however large the range', () => {
    expect(parsePageRanges('1-5', 5)).toEqual({ pages: [1, 2, 3, 4, 5] });
    expect(parsePageRanges('6', 5)).toEqual({ error: 'out_of_range' });
    expect(parsePageRanges('1-2, 4-6', 5)).toEqual({ error: 'out_of_range' });
    // A billion pages would exhaust memory; past 2^53 p++ stops changing p and the loop never ends.
    const started = Date.now();
    expect(parsePageRanges('1-999999999', 5)).toEqual({ error: 'out_of_range' });
    expect(parsePageRanges('1-99999999999999999999', 5)).toEqual({ error: 'out_of_range' });
    expect(parsePageRanges('99999999999999999998..99999999999999999999', 5)).toEqual({
      error: 'out_of_range',
    });
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('clamps annotation width and refuses blank or long text', () => {
    const base = {
      id: '',
      page: 1,
      x: -5,
      y: 10,
      width: 900,
      text: ' Hi ',
      color: 'pink',
      fontSize: 30,
      mode: 'textbox',
    };
    expect(normaliseAnnotation(base as never, 0)).toMatchObject({
      id: 'a1',
      x: 0,
      width: 400,
      text: 'Hi',
      color: 'black',
      fontSize: 12,
    });
    expect(normaliseAnnotation({ ...base, width: 10 } as never, 0)?.width).toBe(80);
    expect(normaliseAnnotation({ ...base, text: '   ' } as never, 0)).toBeUndefined();
    expect(normaliseAnnotation({ ...base, text: 'x'.repeat(33) } as never, 0)).toBeUndefined();
  });

  it("keeps an annotation on its page: one of the document's, within that page's size", () => {
    const base = { id: 'a', page: 1, x: 10, y: 20, width: 100, text: 'Sign', color: 'red', mode: 'textbox' };
    const sizes: [number, number][] = [
      [200, 300],
      [612, 792],
    ];
    const at = (change: object) => normaliseAnnotation({ ...base, ...change } as never, 0, sizes);
    expect(at({})).toMatchObject({ page: 1, x: 10, y: 20 });
    expect(at({ x: 5_000, y: 5_000 })).toMatchObject({ page: 1, x: 200, y: 300 });
    expect(at({ page: 2, x: 5_000, y: -1 })).toMatchObject({ page: 2, x: 612, y: 0 });
    expect(at({ page: 9, x: 700 })).toMatchObject({ page: 2, x: 612 });
    expect(at({ page: 0 })).toMatchObject({ page: 1 });
    // Sizes not known: only not negative, as before.
    expect(normaliseAnnotation({ ...base, page: 9, x: 5_000 } as never, 0)).toMatchObject({
      page: 9,
      x: 5_000,
    });
  });
});

describe('page sizes', () => {
  it('are the sizes a reader shows, in points, a page turned a quarter showing its height as its width', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    doc.addPage([612, 792]).setRotation(degrees(90));
    doc.addPage([200.456, 100]).setRotation(degrees(180));
    expect(pageSizesOf(doc)).toEqual([
      [612, 792],
      [792, 612],
      [200.46, 100],
    ]);
  });
});

describe('download limits', () => {
  it('answers 503 over 150MB, and over 15MB when converting images', () => {
    expect(() => assertZipSize(150 * 1024 * 1024, false)).not.toThrow();
    expect(() => assertZipSize(150 * 1024 * 1024 + 1, false)).toThrow(
      expect.objectContaining({ status: 503 }),
    );
    expect(() => assertZipSize(15 * 1024 * 1024 + 1, true)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => assertZipSize(15 * 1024 * 1024, true)).not.toThrow();
  });

  it('refuses a mix of deleted and live items but not all of one kind', () => {
    const live = { deletedAt: null };
    const gone = { deletedAt: new Date() };
    expect(() => assertNotMixed([live, gone])).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => assertNotMixed([gone, gone])).not.toThrow();
    expect(() => assertNotMixed([live])).not.toThrow();
  });
});

describe('listing pages', () => {
  const row = (description = '', tags: string[] = []) =>
    ({ name: 'a'.repeat(255), folder: '/Archive', description, tags }) as unknown as ListedRow;

  it('sizes pages: 1000 by default, at most 5000, and no more rows read than small items could fill', () => {
    expect(pageSizeOf(0)).toBe(1000);
    expect(pageSizeOf(50_000)).toBe(5000);
    expect(rowsToRead(5000, true)).toBeLessThan(5000);
    expect(rowsToRead(10, false)).toBe(10);
  });

  it('sizes a lean page by the bus: close to its max_payload, and no more rows than the smallest items fill', () => {
    const eightMb = 8 * 1024 * 1024;
    expect(leanPageBudget(eightMb)).toBeLessThan(eightMb);
    expect(leanPageBudget(eightMb)).toBeGreaterThan(eightMb - 32 * 1024);
    expect(leanPageBudget(1024)).toBe(64 * 1024);
    expect(leanRowsToRead(0, leanPageBudget(eightMb))).toBe(Math.ceil(leanPageBudget(eightMb) / 100));
    expect(leanRowsToRead(0, 100 * 1024 * 1024)).toBe(MAX_LEAN_PAGE_SIZE);
    expect(leanRowsToRead(10, leanPageBudget(eightMb))).toBe(10);
  });

  it('cuts a page of long names, descriptions and tags well under the 1 MB bus limit, never to nothing', () => {
    const big = Array.from({ length: 5000 }, () => row('x'.repeat(1000), Array(50).fill('t'.repeat(100))));
    const n = fitToBudget(big, false);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(100);
    // What those items really take as JSON stays under the budget.
    expect(JSON.stringify(big.slice(0, n)).length).toBeLessThan(PAGE_BYTE_BUDGET);
    expect(fitToBudget([row('x'.repeat(1000))], false, 10)).toBe(1);
    expect(
      fitToBudget(
        Array.from({ length: 100 }, () => row()),
        true,
      ),
    ).toBe(100);
  });

  it('cuts a page of multi-byte or escaped texts under the budget as UTF-8 bytes, not as characters', () => {
    // A CJK character is three bytes of UTF-8, a control character six once JSON escapes it ('\u0001'),
    // where an ASCII letter is one.
    const cjk = Array.from({ length: 5000 }, () => row('税'.repeat(1000), Array(50).fill('申告'.repeat(50))));
    const control = Array.from({ length: 5000 }, () =>
      row('\u0001'.repeat(1000), Array(50).fill('\u0002'.repeat(100))),
    );
    for (const rows of [cjk, control])
      for (const columnar of [false, true]) {
        const n = fitToBudget(rows, columnar);
        expect(n).toBeGreaterThan(0);
        expect(Buffer.byteLength(JSON.stringify(rows.slice(0, n)))).toBeLessThan(PAGE_BYTE_BUDGET);
      }
  });

  it('round-trips the page token and refuses anything else', () => {
    const cursor = {
      type: 'file' as const,
      name: 'w-2 (final).pdf',
      createdAt: '2026-01-31 09:15:02.123456+00',
      id: '3b241101-e2bb-4255-8caf-4136c566a962',
    };
    expect(decodePageToken(encodePageToken(cursor))).toEqual(cursor);
    expect(decodePageToken('not a token')).toBeUndefined();
    expect(
      decodePageToken(encodePageToken({ ...cursor, createdAt: "now()'; drop table items" })),
    ).toBeUndefined();
    expect(decodePageToken(encodePageToken({ ...cursor, type: 'x' as 'file' }))).toBeUndefined();
  });

  it('refuses a token the query could not take: an id that is no UUID, a date or time that does not exist, a NUL', () => {
    const cursor = {
      type: 'file' as const,
      name: 'a.pdf',
      createdAt: '2024-02-29 23:59:59.999999+05:30',
      id: '3B241101-E2BB-4255-8CAF-4136C566A962',
    };
    expect(decodePageToken(encodePageToken(cursor))).toEqual(cursor);
    expect(decodePageToken(encodePageToken({ ...cursor, createdAt: '2026-01-31T09:15:02Z' }))).toBeDefined();
    for (const id of ['-'.repeat(36), '3b241101e2bb42558caf4136c566a962----', 'g'.repeat(36)])
      expect([id, decodePageToken(encodePageToken({ ...cursor, id }))]).toEqual([id, undefined]);
    for (const createdAt of [
      '2024-13-01 00:00:00+00',
      '2023-02-29 00:00:00+00',
      '2024-04-31 00:00:00+00',
      '2024-00-10 00:00:00+00',
      '0000-01-01 00:00:00+00',
      '2024-01-01 24:00:00+00',
      '2024-01-01 23:60:00+00',
      '2024-01-01 23:59:60+00',
      '2024-01-01 00:00:00+99',
      '2024-01-01 00:00:00+05:60',
    ])
      expect([createdAt, decodePageToken(encodePageToken({ ...cursor, createdAt }))]).toEqual([
        createdAt,
        undefined,
      ]);
    expect(decodePageToken(encodePageToken({ ...cursor, name: 'a\u0000.pdf' }))).toBeUndefined();
  });
});

describe('the page of received files (drop-offs)', () => {
  const id = '00000000-0000-0000-0000-000000000000';
  const page = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it('round-trips the last row of a page', () => {
    const cursor = { at: '2026-11-26 12:25:57.123456+00', id };
    expect(decodeDropOffPage(encodeDropOffPage(cursor))).toEqual(cursor);
    expect(decodeDropOffPage(page(`2024-02-29 23:59:59+05:30|${id}`))).toEqual({
      at: '2024-02-29 23:59:59+05:30',
      id,
    });
  });

  it('refuses a page of the right shape naming a date or time that does not exist (PostgreSQL failed on it)', () => {
    for (const at of [
      '2026-13-45 12:00:00+00',
      '2023-02-29 00:00:00+00',
      '2024-00-10 00:00:00+00',
      '0000-01-01 00:00:00+00',
      '2024-01-01 24:00:00+00',
      '2024-01-01 23:60:00+00',
      '2024-01-01 23:59:60+00',
      '2024-01-01 00:00:00+99',
      '2024-01-01 00:00:00+05:60',
    ])
      expect([at, decodeDropOffPage(page(`${at}|${id}`))]).toEqual([at, undefined]);
    expect(decodeDropOffPage(page(`2024-01-01 00:00:00+00|not-a-uuid`))).toBeUndefined();
  });
});

describe('PDF encryption from the trailer (spec 1 s.5.5: flagged protected when it cannot be opened unencrypted)', () => {
  /** The decision from the first kilobyte and ranged reads of `bytes`, and how many reads it took. */
  async function decide(bytes: Buffer) {
    let reads = 0;
    const encrypted = await encryptionFromTrailer(
      bytes.length,
      bytes.subarray(0, 1024),
      async (at, length) => {
        reads++;
        return bytes.subarray(at, at + length);
      },
    );
    return { encrypted, reads };
  }

  const variants: [string, HandWrittenPdf][] = [
    ['a classic table', {}],
    ['an xref stream', { xrefStream: true }],
    ['a classic table far from the start', { padBytes: 40_000 }],
    ['an xref stream far from the start', { padBytes: 40_000, xrefStream: true }],
    ['a first-page section (linearized)', { padBytes: 40_000, sectionFirst: true }],
    ['a first-page xref stream', { padBytes: 40_000, sectionFirst: true, xrefStream: true }],
  ];

  it.each(variants)('decides %s as opening the file with pdf-lib does', async (_, shape) => {
    for (const encrypted of [false, true]) {
      const bytes = handWrittenPdf({ ...shape, encrypted });
      const decided = await decide(bytes);
      expect(decided.encrypted).toBe(encrypted);
      expect((await pdfInfo(bytes)).isProtected).toBe(encrypted);
      // The tail, and the section when startxref points before it; a small file is all in its first bytes.
      expect(decided.reads).toBe(bytes.length <= 1024 ? 0 : shape.sectionFirst ? 2 : 1);
    }
  });

  it('decides the PDFs pdf-lib writes, with and without object streams, as unencrypted', async () => {
    const classic = await PDFDocument.create();
    classic.addPage();
    for (const bytes of [await pdf(3), Buffer.from(await classic.save({ useObjectStreams: false }))])
      expect((await decide(bytes)).encrypted).toBe(false);
  });

  it('leaves undecided what the trailer cannot tell, which opening the whole file then does', async () => {
    const locked = encryptedPdf();
    const withoutStartxref = locked.subarray(0, locked.lastIndexOf('startxref'));
    expect((await decide(withoutStartxref)).encrypted).toBeUndefined();
    expect((await pdfInfo(withoutStartxref)).isProtected).toBe(true);
    const pastTheEnd = Buffer.from(
      `${locked.toString('latin1').replace(/startxref\n\d+/, 'startxref\n999999')}`,
      'latin1',
    );
    expect((await decide(pastTheEnd)).encrypted).toBeUndefined();
    const nowhere = Buffer.from(
      locked.toString('latin1').replace(/startxref\n\d+/, 'startxref\n3'),
      'latin1',
    );
    expect((await decide(nowhere)).encrypted).toBeUndefined();
  });

  it('reads the dictionary whole, nested dictionaries included, and only the /Encrypt key', () => {
    expect(startXrefOffset(Buffer.from('trailer << >>\nstartxref\n  1234 \n%%EOF'))).toBe(1234);
    expect(startXrefOffset(Buffer.from('%%EOF'))).toBeUndefined();
    expect(
      trailerDictionary(Buffer.from('xref\n0 1\ntrailer\n<< /Size 1 /Info << /A 1 >> /Encrypt 4 0 R >>')),
    ).toBe('<< /Size 1 /Info << /A 1 >> /Encrypt 4 0 R >>');
    expect(trailerDictionary(Buffer.from('xref\n0 1\ntrailer\n<< /Size 1 /Info << /A 1 >>'))).toBeUndefined();
    expect(
      trailerDictionary(Buffer.from('7 0 obj\n<< /Type /Metadata /Length 3 >>\nstream')),
    ).toBeUndefined();
    expect(namesEncryption('<< /Encrypt<< /Filter /Standard >> >>')).toBe(true);
    expect(namesEncryption('<< /Encrypt 4 0 R >>')).toBe(true);
    expect(namesEncryption('<< /EncryptMetadata false >>')).toBe(false);
    expect(PDF_TAIL_BYTES).toBeGreaterThanOrEqual(1024);
  });
});

describe('download names', () => {
  it('encodes every character RFC 8187 keeps out of filename*, with an ASCII fallback', () => {
    expect(attachmentDisposition("O'Brien (2023) W-2*.pdf")).toBe(
      `attachment; filename="O'Brien (2023) W-2*.pdf"; filename*=UTF-8''O%27Brien%20%282023%29%20W-2%2A.pdf`,
    );
    expect(attachmentDisposition('Relevé "mai".pdf')).toBe(
      `attachment; filename="Relev_ _mai_.pdf"; filename*=UTF-8''Relev%C3%A9%20%22mai%22.pdf`,
    );
  });
});
