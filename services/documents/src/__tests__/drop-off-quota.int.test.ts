import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
      { DROP_OFF_DAILY_FILES: String(FILES), DROP_OFF_DAILY_GB: '0.001' },
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
