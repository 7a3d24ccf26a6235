import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';

// A small quota for the test: three files or about a megabyte a day through the firm's drop link.
const FILES = 3;
const QUOTA_MESSAGE =
  'This firm cannot take more files through its drop link today. Please try again tomorrow, or contact the firm.';

describe("a firm's drop link takes a bounded amount from anonymous uploaders", () => {
  let h: DocumentsHarness;
  let dropLinkId: string;
  const links = (names: string[], size = 10) =>
    h.bus.request(Documents.createDropOffLinks, {
      dropLinkId,
      files: names.map((name) => ({ name, size: BigInt(size) })),
    });

  beforeAll(async () => {
    h = await startDocumentsHarness(
      'quota',
      { drop_link_enabled: true },
      // One caller may take it all here (the calls carry no address); its share is tested below.
      { DROP_OFF_DAILY_FILES: String(FILES), DROP_OFF_DAILY_GB: '0.001', DROP_OFF_ADDRESS_SHARE: '1' },
    );
    const actor = h.actorOf(h.firm, 'partner');
    ({ id: dropLinkId } = await h.bus.request(Documents.getDropLink, {}, { actor }));
  });
  afterAll(async () => {
    await h.stop();
  });

  it('hands out links up to the quota of files, then answers 429 with nothing recorded', async () => {
    expect((await links(['a.txt', 'b.txt'])).links).toHaveLength(2);
    // Two more would pass three: refused whole, not cut.
    await expect(links(['c.txt', 'd.txt'])).rejects.toMatchObject({ status: 429, message: QUOTA_MESSAGE });
    expect((await links(['c.txt'])).links).toHaveLength(1);
    await expect(links(['e.txt'])).rejects.toMatchObject({ status: 429 });
    const rows = await h.documents.query<{ n: number }>(
      'select count(*)::int as n from uploads where firm_id = $1 and company_id is null',
      [h.firm.firmId],
    );
    expect(rows[0]?.n).toBe(FILES);
  });

  it('counts calls made at once against each other', async () => {
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
    const answers = await Promise.allSettled([1, 2, 3, 4].map(() => links(['x.txt'])));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(FILES);
    expect(answers.filter((a) => a.status === 'rejected')).toHaveLength(1);
  });

  it('refuses an uploader name that hides or reorders text, or carries a web address, before any file is read', async () => {
    const process = (uploaderName: string) =>
      h.bus.request(Documents.processDropOff, {
        dropLinkId,
        uploadIds: ['00000000-0000-4000-8000-000000000001'],
        uploaderName,
        uploaderEmail: 'visitor@example.com',
      });
    for (const name of ['Jane \u202eClient', 'Jane\u200bClient'])
      await expect(process(name)).rejects.toMatchObject({
        status: 400,
        message: 'Your name contains characters that are not allowed',
      });
    for (const name of ['Verify at https://evil.example', 'see www.evil.example'])
      await expect(process(name)).rejects.toMatchObject({
        status: 400,
        message: 'Your name cannot contain a web address',
      });
    // A plain name gets as far as the uploads (this one was never handed out).
    await expect(process('Jane Client')).rejects.toMatchObject({ status: 404 });
  });

  it('counts the declared bytes too', async () => {
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
    // 0.001 GB is about 1.07 MB.
    expect((await links(['big.pdf'], 1_000_000)).links).toHaveLength(1);
    await expect(links(['more.pdf'], 100_000)).rejects.toMatchObject({ status: 429, message: QUOTA_MESSAGE });
  });
});

describe("one caller takes a share of a firm's drop link day, and links never used stop counting", () => {
  let h: DocumentsHarness;
  let dropLinkId: string;
  /** Links asked for from `ip` (the address the gateway sends with every call). */
  const links = (ip: string, names: string[], size = 10) =>
    h.bus.request(
      Documents.createDropOffLinks,
      { dropLinkId, files: names.map((name) => ({ name, size: BigInt(size) })) },
      { headers: { 'x-portico-client-ip': ip } },
    );
  const refused = { status: 429, message: QUOTA_MESSAGE };

  beforeAll(async () => {
    // Four files or about a megabyte a day; one address takes half of either.
    h = await startDocumentsHarness(
      'quota_share',
      { drop_link_enabled: true },
      { DROP_OFF_DAILY_FILES: '4', DROP_OFF_DAILY_GB: '0.001', DROP_OFF_ADDRESS_SHARE: '0.5' },
    );
    const actor = h.actorOf(h.firm, 'partner');
    ({ id: dropLinkId } = await h.bus.request(Documents.getDropLink, {}, { actor }));
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
  });

  it('refuses one address past its share while others still get links, up to the firm’s day', async () => {
    expect((await links('198.51.100.7', ['a.txt', 'b.txt'])).links).toHaveLength(2);
    // Before, one caller could take the whole day: here two more files, there 136 of 150 MB.
    await expect(links('198.51.100.7', ['c.txt'])).rejects.toMatchObject(refused);
    expect((await links('203.0.113.9', ['c.txt', 'd.txt'])).links).toHaveLength(2);
    await expect(links('192.0.2.1', ['e.txt'])).rejects.toMatchObject(refused);
    // Declared bytes too: about 0.6 MB is more than half of the day's megabyte.
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
    await expect(links('198.51.100.7', ['big.pdf'], 600_000)).rejects.toMatchObject(refused);
    expect((await links('198.51.100.7', ['half.pdf'], 500_000)).links).toHaveLength(1);
  });

  it('counts an IPv6 caller by its /64, and an IPv4 address mapped into IPv6 as itself', async () => {
    expect((await links('2001:db8:1:2::1', ['a.txt', 'b.txt'])).links).toHaveLength(2);
    await expect(links('2001:db8:1:2:ffff::9', ['c.txt'])).rejects.toMatchObject(refused);
    expect((await links('192.0.2.44', ['c.txt', 'd.txt'])).links).toHaveLength(2);
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
    expect((await links('192.0.2.44', ['a.txt', 'b.txt'])).links).toHaveLength(2);
    await expect(links('::ffff:192.0.2.44', ['c.txt'])).rejects.toMatchObject(refused);
  });

  it('stops counting against the firm the links that can no longer be filed, but not against their caller', async () => {
    const unused = await links('198.51.100.7', ['a.txt', 'b.txt']);
    expect((await links('203.0.113.9', ['c.txt', 'd.txt'])).links).toHaveLength(2);
    await expect(links('192.0.2.1', ['e.txt'])).rejects.toMatchObject(refused);
    const expire = (age: string) =>
      h.documents.query(`update uploads set expires_at = now() - $2::interval where id = any($1)`, [
        unused.links.map((l) => l.uploadId),
        age,
      ]);
    // The first caller's links expire without a file put: their uploads can still be filed for an hour
    // (PROCESS_GRACE_MS), so they still count.
    await expire('1 minute');
    await expect(links('192.0.2.1', ['e.txt'])).rejects.toMatchObject(refused);
    await expire('61 minutes');
    expect((await links('192.0.2.1', ['e.txt', 'f.txt'])).links).toHaveLength(2);
    // Its own share still holds them: asking again as its links expire does not take the day.
    await expect(links('198.51.100.7', ['g.txt'])).rejects.toMatchObject(refused);
    // The rows keep a hash of each caller's address, not the address.
    const callers = await h.documents.query<{ caller: string }>(
      'select distinct caller from uploads where firm_id = $1',
      [h.firm.firmId],
    );
    expect(callers).toHaveLength(3);
    for (const { caller } of callers) expect(caller).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
