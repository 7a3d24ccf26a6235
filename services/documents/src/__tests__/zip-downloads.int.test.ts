import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { subscribeSignal } from '@portico/platform';
import { Documents, DocumentsSignals, type ZipProgress } from '@portico/proto';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import sharp from 'sharp';
import { EXPORTS_PREFIX } from '../storage/object-store.js';
import { S3ObjectStore } from '../storage/s3.object-store.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf, png, zipEntries } from './samples.js';

jest.setTimeout(60_000);

/** A valid one-page PDF of about `megabytes` MB (an incompressible stream), bigger than a multipart part. */
async function bigPdf(megabytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  doc.context.register(doc.context.stream(randomBytes(megabytes * 1024 * 1024)));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('zip downloads, streamed from the store into the store', () => {
  let h: DocumentsHarness;
  let store: S3ObjectStore;
  let s3: S3Client;
  const actor = () => h.actorOf(h.firm, 'partner');
  const company = () => h.firm.companies.llc?.id as string;
  const exportsCount = async () =>
    (await s3.send(new ListObjectsV2Command({ Bucket: h.s3.bucket, Prefix: EXPORTS_PREFIX }))).KeyCount ?? 0;

  beforeAll(async () => {
    // A progress signal for every file, so the test sees each count and their order.
    h = await startDocumentsHarness('zips', {}, { ZIP_PROGRESS_INTERVAL_MS: '0' });
    const options = {
      endpoint: h.s3.endpoint,
      bucket: h.s3.bucket,
      region: h.s3.region,
      accessKeyId: h.s3.accessKeyId,
      secretAccessKey: h.s3.secretAccessKey,
    };
    store = new S3ObjectStore(options);
    s3 = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: true,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    });
  });
  afterAll(async () => {
    s3.destroy();
    store.destroy();
    await h.stop();
  });

  it('puts every byte of files bigger than a part in place, storing compressed formats and deflating text', async () => {
    const files = {
      'statement.pdf': await bigPdf(7),
      'scan.png': await png(64, 64),
      'notes.txt': Buffer.from('Interest income, see the 1099-INT.\n'.repeat(2_000)),
    };
    await h.upload(
      actor(),
      company(),
      Object.entries(files).map(([name, body]) => ({ name, body })),
      { path: '/Big' },
    );
    const res = await h.bus.request(
      Documents.downloadFolder,
      { companyId: company(), path: '/Big' },
      { actor: actor() },
    );
    const zip = Buffer.from(await (await fetch(res.document?.data?.link as string)).arrayBuffer());
    expect(Number(res.size)).toBe(zip.length);
    const entries = await zipEntries(zip);
    expect(Object.keys(entries).sort()).toEqual(['notes.txt', 'scan.png', 'statement.pdf']);
    for (const [name, body] of Object.entries(files)) expect(entries[name]?.bytes.equals(body)).toBe(true);
    expect(entries['statement.pdf']?.method).toBe(0);
    expect(entries['scan.png']?.method).toBe(0);
    expect(entries['notes.txt']?.method).toBe(8);
  });

  it('keeps no zip when a file cannot be read half-way, and answers an error', async () => {
    await h.upload(
      actor(),
      company(),
      [
        { name: 'a.pdf', body: await bigPdf(6) },
        { name: 'b.pdf', body: await bigPdf(1) },
      ],
      { path: '/Broken' },
    );
    const listed = await h.list(actor(), company(), '/Broken');
    const second = listed.documents.find((d) => d.name === 'b.pdf');
    // The object of the second file is gone from storage (an operator's mistake, a lost replica).
    const [row] = await h.documents.query<{ storage_key: string }>(
      'select storage_key from items where id = $1',
      [second?.id],
    );
    await store.delete(row?.storage_key as string);
    const before = await exportsCount();
    await expect(
      h.bus.request(Documents.downloadFolder, { companyId: company(), path: '/Broken' }, { actor: actor() }),
    ).rejects.toMatchObject({ status: 500, message: 'Something went wrong' });
    expect(await exportsCount()).toBe(before);
    // The service is still there for the next zip.
    const next = await h.bus.request(
      Documents.downloadFolder,
      { companyId: company(), path: '/Big' },
      { actor: actor() },
    );
    expect(next.fileCount).toBe(3);
  });

  it('converts images without decoding them on the event loop, zipping as they are those it cannot convert', async () => {
    const folder = `Convert ${Date.now()}`;
    await h.bus.request(
      Documents.createFolder,
      { companyId: company(), path: '', name: folder },
      { actor: actor() },
    );
    await h.bus.request(
      Documents.createFolder,
      { companyId: company(), path: `/${folder}`, name: 'Sub' },
      { actor: actor() },
    );
    // 64 megapixels in 0.9 MB: what pdf-lib would have unpacked for seconds and a gigabyte.
    const huge = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#c82828' } })
      .png()
      .toBuffer();
    // A GIF and a PNG of the same name convert to the same PDF name: numbered on the file's own name.
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#2828c8' } })
      .gif()
      .toBuffer();
    await h.upload(actor(), company(), [{ name: 'poster.png', body: huge }], { path: `/${folder}` });
    await h.upload(
      actor(),
      company(),
      [
        { name: 'photo.png', body: await png() },
        { name: 'photo.gif', body: gif },
      ],
      { path: `/${folder}/Sub` },
    );
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(Date.now()), 50);
    const started = Date.now();
    const res = await h.bus
      .request(
        Documents.downloadFolder,
        { companyId: company(), path: `/${folder}`, convertImagesToPdf: true },
        { actor: actor() },
      )
      .finally(() => clearInterval(timer));
    // The service runs in this process: its event loop stayed free for the timer, from the call's start
    // to its answer (the whole call may take longer than the limit on a busy machine; no gap may).
    const moments = [started, ...ticks, Date.now()];
    const longestGap = Math.max(...moments.slice(1).map((t, i) => t - (moments[i] as number)));
    expect(longestGap).toBeLessThan(2_000);
    const zip = await zipEntries(
      Buffer.from(await (await fetch(res.document?.data?.link as string)).arrayBuffer()),
    );
    expect(Object.keys(zip).sort()).toEqual(['Sub/photo (1).pdf', 'Sub/photo.pdf', 'poster.png']);
    expect(zip['poster.png']?.bytes.equals(huge)).toBe(true);
    for (const name of ['Sub/photo.pdf', 'Sub/photo (1).pdf'])
      expect(zip[name]?.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // Asked in another case, the folder is the same folder, with what is directly in it.
    const lower = await h.bus.request(
      Documents.downloadFolder,
      { companyId: company(), path: `/${folder.toLowerCase()}` },
      { actor: actor() },
    );
    expect(lower.document?.data?.link).toMatch(/^http/);
    const same = await zipEntries(
      Buffer.from(await (await fetch(lower.document?.data?.link as string)).arrayBuffer()),
    );
    expect(Object.keys(same).sort()).toEqual(['Sub/photo.gif', 'Sub/photo.png', 'poster.png']);
  });

  it('signals how far a zip has come to the user who named it, forward only, ending with every file', async () => {
    const receipt = await pdf();
    await h.upload(
      actor(),
      company(),
      Array.from({ length: 6 }, (_, i) => ({ name: `receipt-${i}.pdf`, body: receipt })),
      { path: '/Receipts' },
    );
    const heard: ZipProgress[] = [];
    const listening = subscribeSignal(
      h.nc,
      DocumentsSignals.zipProgress,
      (s) => heard.push(s),
      pino({ level: 'silent' }),
    );
    try {
      const progressId = crypto.randomUUID();
      const res = await h.bus.request(
        Documents.downloadFolder,
        { companyId: company(), path: '/Receipts', progressId },
        { actor: actor() },
      );
      expect(res.fileCount).toBe(6);
      await h.nc.flush();
      const mine = heard.filter((s) => s.progressId === progressId);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.every((s) => s.userId === actor().user_id && s.fileCount === 6)).toBe(true);
      // Each file as the zip reaches it, then all six once the zip is stored, in that order.
      expect(mine.map((s) => s.filesDone)).toEqual([0, 1, 2, 3, 4, 5, 6]);

      // Several files, and a zip without a name (or with a name that is not a UUID): nothing is signalled.
      heard.length = 0;
      const several = await h.bus.request(
        Documents.downloadMultipleDocuments,
        {
          companyId: company(),
          links: ['/Receipts/receipt-0.pdf', '/Receipts/receipt-1.pdf'],
          progressId: 'zip-1',
        },
        { actor: actor() },
      );
      expect(several.fileCount).toBe(2);
      await h.bus.request(
        Documents.downloadFolder,
        { companyId: company(), path: '/Receipts' },
        { actor: actor() },
      );
      await h.nc.flush();
      expect(heard).toEqual([]);
    } finally {
      listening.stop();
    }
  });
});
