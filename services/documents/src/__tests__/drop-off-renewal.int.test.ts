import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

const QUOTA = { status: 429 };
const VISITOR = '198.51.100.7';

/** Links from the drop link for `ip`: new ones for `names`, and those of `renew` signed again. */
function linksOf(h: DocumentsHarness, dropLinkId: string) {
  return (ip: string, names: string[], renew: string[] = [], size = 10) =>
    h.bus.request(
      Documents.createDropOffLinks,
      {
        dropLinkId,
        files: names.map((name) => ({ name, size: BigInt(size) })),
        renewUploadIds: renew,
      },
      { headers: { 'x-portico-client-ip': ip } },
    );
}

describe('one visitor makes one full drop-off of 999 files with the default settings', () => {
  let h: DocumentsHarness;
  let links: ReturnType<typeof linksOf>;

  beforeAll(async () => {
    h = await startDocumentsHarness('renew_full', { drop_link_enabled: true });
    const { id } = await h.bus.request(Documents.getDropLink, {}, { actor: h.actorOf(h.firm, 'partner') });
    links = linksOf(h, id);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('is handed 999 links, and has them signed again as often as it takes, counted once', async () => {
    const names = Array.from({ length: 999 }, (_, i) => `scan-${i}.pdf`);
    // Before, a caller took a quarter of the 2,000-file day: 500 links, and 429 for the rest.
    const first = await links(VISITOR, names);
    expect(first.links).toHaveLength(999);
    const ids = first.links.map((l) => l.uploadId);
    // A slow drop-off outlives its links (15 minutes) again and again; before, each renewal was new
    // uploads counted again against the caller's share, and the second one was refused.
    for (let round = 0; round < 3; round++) {
      const again = await links(VISITOR, [], ids);
      expect(again.links.map((l) => l.uploadId)).toEqual(ids);
    }
    const [rows] = await h.documents.query<{ n: number }>(
      'select count(*)::int as n from uploads where firm_id = $1',
      [h.firm.firmId],
    );
    expect(rows?.n).toBe(999);
  });
});

describe('links signed again for the uploads of a drop-off', () => {
  let h: DocumentsHarness;
  let dropLinkId = '';
  let links: ReturnType<typeof linksOf>;
  const expiryOf = async (id: string) =>
    (
      await h.documents.query<{ expires_at: Date; storage_key: string; declared_size: string }>(
        'select expires_at, storage_key, declared_size from uploads where id = $1',
        [id],
      )
    )[0];
  const uploadCount = async () =>
    (
      await h.documents.query<{ n: number }>('select count(*)::int as n from uploads where firm_id = $1', [
        h.firm.firmId,
      ])
    )[0]?.n;

  beforeAll(async () => {
    // Four files or about a megabyte a day; one address takes half of either.
    h = await startDocumentsHarness(
      'renew',
      { drop_link_enabled: true },
      { DROP_OFF_DAILY_FILES: '4', DROP_OFF_DAILY_GB: '0.001', DROP_OFF_ADDRESS_SHARE: '0.5' },
    );
    ({ id: dropLinkId } = await h.bus.request(
      Documents.getDropLink,
      {},
      { actor: h.actorOf(h.firm, 'partner') },
    ));
    links = linksOf(h, dropLinkId);
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    await h.documents.query('delete from uploads where firm_id = $1', [h.firm.firmId]);
  });

  it('re-signs the same uploads (key, size, type) with a fresh expiry, counting nothing new', async () => {
    const body = await pdf();
    const first = await links(VISITOR, ['a.pdf', 'b.pdf'], [], body.length);
    const ids = first.links.map((l) => l.uploadId);
    const before = await expiryOf(ids[0] as string);
    await h.documents.query(
      `update uploads set expires_at = now() - interval '1 minute' where id = any($1)`,
      [ids],
    );
    // The caller's share (two) is used: new links are refused, renewed ones are not.
    await expect(links(VISITOR, ['c.pdf'])).rejects.toMatchObject(QUOTA);
    const again = await links(VISITOR, [], [ids[1] as string, ids[0] as string]);
    expect(again.links.map((l) => l.uploadId)).toEqual([ids[1], ids[0]]);
    expect(again.links.map((l) => l.fileName)).toEqual(['b.pdf', 'a.pdf']);
    expect(again.links[0]?.headers['content-type']).toBe('application/pdf');
    const after = await expiryOf(ids[0] as string);
    expect(after?.storage_key).toBe(before?.storage_key);
    expect(after?.declared_size).toBe(before?.declared_size);
    expect(after?.expires_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(await uploadCount()).toBe(2);
    // The renewed links take the files, and the drop-off files them under the same uploads.
    for (const link of again.links) {
      const res = await fetch(link.url, { method: 'PUT', headers: link.headers, body });
      expect(res.ok).toBe(true);
    }
    const done = await h.bus.request(Documents.processDropOff, {
      dropLinkId,
      uploadIds: ids,
      uploaderName: 'Jo Visitor',
      uploaderEmail: 'jo@example.com',
    });
    expect(done.files.map((f) => f.uploadId).sort()).toEqual([...ids].sort());
  });

  it('answers the renewed links first, then new ones for the files of the same call', async () => {
    const [old] = (await links(VISITOR, ['a.pdf'])).links;
    const mixed = await links(VISITOR, ['b.pdf'], [old?.uploadId as string]);
    expect(mixed.links.map((l) => l.fileName)).toEqual(['a.pdf', 'b.pdf']);
    expect(mixed.links[0]?.uploadId).toBe(old?.uploadId);
    expect(mixed.links[1]?.uploadId).not.toBe(old?.uploadId);
    expect(await uploadCount()).toBe(2);
  });

  it("answers 404, renewing nothing, for another caller's, a processed, a discarded or an unknown upload", async () => {
    const mine = (await links(VISITOR, ['mine.pdf'])).links.map((l) => l.uploadId);
    const theirs = (await links('203.0.113.9', ['theirs.pdf', 'spent.pdf'])).links.map((l) => l.uploadId);
    await h.documents.query('update uploads set consumed_at = now() where id = $1', [theirs[1]]);
    const [discarded] = (await links('192.0.2.1', ['gone.pdf'])).links.map((l) => l.uploadId);
    await h.documents.query('update uploads set discarded = true where id = $1', [discarded]);
    const expiry = await expiryOf(mine[0] as string);
    // Each asked for by the caller it was handed to, alone, but for another caller's.
    for (const [ip, ids] of [
      [VISITOR, [mine[0], theirs[0]]],
      ['203.0.113.9', [theirs[1]]],
      ['192.0.2.1', [discarded]],
      [VISITOR, [mine[0], '00000000-0000-4000-8000-000000000001']],
      [VISITOR, [mine[0], 'not-an-upload']],
    ] as [string, string[]][])
      await expect(links(ip, [], ids)).rejects.toMatchObject({ status: 404 });
    expect((await expiryOf(mine[0] as string))?.expires_at).toEqual(expiry?.expires_at);
    expect(await uploadCount()).toBe(4);
  });

  it('answers 404 for an upload handed out more than 8 hours ago, or past its hour of grace', async () => {
    const LATE_VISITOR = '198.51.100.77';
    // Renewed without end, unused links held the firm's day for good and outlived the day they count in.
    const [old, late] = (await links(LATE_VISITOR, ['old.pdf', 'late.pdf'])).links.map((l) => l.uploadId);
    await h.documents.query(`update uploads set created_at = now() - interval '481 minutes' where id = $1`, [
      old,
    ]);
    await h.documents.query(`update uploads set expires_at = now() - interval '61 minutes' where id = $1`, [
      late,
    ]);
    for (const id of [old, late])
      await expect(links(LATE_VISITOR, [], [id as string])).rejects.toMatchObject({ status: 404 });
    // One handed out just now is renewed (by a caller with its share left).
    const [fresh] = (await links(VISITOR, ['fresh.pdf'])).links.map((l) => l.uploadId);
    expect((await links(VISITOR, [], [fresh as string])).links.map((l) => l.uploadId)).toEqual([fresh]);
  });

  it('refuses a call with neither files nor uploads to renew', async () => {
    await expect(links(VISITOR, [], [])).rejects.toMatchObject({
      status: 400,
      message: 'Please choose at least one file',
    });
  });
});
