import { describe, expect, it } from '@jest/globals';
import { assertBeforeDeadline, createLogger, withDeadline } from '@portico/platform';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { DocumentsConfig } from '../config.js';
import { imageToPdf } from '../downloads/image-pdf.js';
import type { ItemsRepository } from '../items/items.repository.js';
import { HeicConverter, heicPixels, heicToJpeg } from '../previews/heic.converter.js';
import { HeicDecoders } from '../previews/heic-decoders.js';
import { ImageNotConvertible } from '../previews/image-limits.js';
import type { ObjectStore } from '../storage/object-store.js';
import { quadrantColours, REAL_HEIC, REAL_HEIC_QUADRANTS, realHeic } from './samples.js';

describe('HEIC conversion of a real photo', () => {
  it('sharp alone cannot decode it, which is why heic-decode is used', async () => {
    const meta = await sharp(realHeic()).metadata();
    expect(meta).toMatchObject({ format: 'heif', compression: 'hevc' });
    await expect(sharp(realHeic()).raw().toBuffer()).rejects.toThrow();
  });

  it('makes a displayable JPEG preview of the same size and colours', async () => {
    const preview = await heicToJpeg(realHeic());
    expect(preview.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await sharp(preview).metadata()).toMatchObject({ format: 'jpeg', ...REAL_HEIC });
    expect(await quadrantColours(preview)).toEqual(REAL_HEIC_QUADRANTS);
  });

  it('converts it to a one-page PDF of its size and colours, encoding its pixels once', async () => {
    const pdf = await PDFDocument.load(await imageToPdf('IMG_0001.HEIC', realHeic()));
    expect(pdf.getPage(0).getSize()).toEqual(REAL_HEIC);
    // The page's image is the JPEG made from the decoded pixels (pdf-lib embeds a JPEG as it is).
    const jpegStart = pdfJpeg(Buffer.from(await pdf.save()));
    expect(await sharp(jpegStart).metadata()).toMatchObject({ format: 'jpeg', ...REAL_HEIC });
    expect(await quadrantColours(jpegStart)).toEqual(REAL_HEIC_QUADRANTS);
  });

  it('refuses bytes that only look like HEIC', async () => {
    await expect(heicToJpeg(realHeic().subarray(0, 200))).rejects.toThrow();
  });
});

/** A converter of one conversion at a time over a stand-in repository and store. */
const converterWith = (repo: ItemsRepository, store: ObjectStore) =>
  new HeicConverter(repo, store, createLogger('documents-test', 'silent'), {
    HEIC_CONCURRENCY: 1,
  } as DocumentsConfig);

/** A repository whose transactions run at once and whose updates of a preview's state are told to `record`. */
const recordingRepo = (record: (id: string, previewStatus: string | undefined) => void) =>
  ({
    transaction: async (_scope: unknown, work: (tx: unknown) => Promise<unknown>) => work({}),
    update: async (_tx: unknown, _scope: unknown, id: string, changes: { previewStatus?: string }) => {
      record(id, changes.previewStatus);
      return undefined;
    },
  }) as unknown as ItemsRepository;

const heicItem = (id: string, size: number) => ({
  id,
  firmId: '00000000-0000-4000-8000-000000000001',
  companyId: '00000000-0000-4000-8000-000000000002',
  storageKey: 'k',
  size,
});

describe('HEIC previews', () => {
  it('stay pending when storage fails for a moment, and fail only for an image that cannot be decoded', async () => {
    const recorded: unknown[] = [];
    const repo = recordingRepo((_id, status) => recorded.push(status));
    let reads = 0;
    const store = {
      read: async () => {
        reads += 1;
        if (reads === 1) throw new Error('connection reset');
        return Buffer.from('ftypheic but not an image');
      },
      put: async () => undefined,
    } as unknown as ObjectStore;
    const converter = converterWith(repo, store);
    const item = heicItem('heic-1', 25);
    converter.schedule(item);
    await converter.idle();
    expect(recorded).toEqual([]);
    // Opened again: scheduled again, and this time the bytes are not an image.
    converter.schedule(item);
    await converter.idle();
    expect(recorded).toEqual(['failed']);
  });
});

describe('HEIC previews queued at shutdown', () => {
  it('finish the conversion under way and leave those not started pending', async () => {
    const recorded: string[] = [];
    const repo = recordingRepo((id, status) => recorded.push(`${id}:${status}`));
    let reads = 0;
    const store = {
      read: async () => {
        reads += 1;
        return realHeic();
      },
      put: async () => undefined,
    } as unknown as ObjectStore;
    const converter = converterWith(repo, store);
    for (let i = 1; i <= 5; i++) converter.schedule(heicItem(`queued-${i}`, realHeic().length));
    await converter.onModuleDestroy();
    // One slot: the first was under way, the other four had not started.
    expect(reads).toBe(1);
    expect(recorded).toEqual(['queued-1:ready']);
    converter.schedule(heicItem('after-stop', realHeic().length));
    await converter.idle();
    expect(reads).toBe(1);
  });
});

describe('HEIC previews asked for by a request', () => {
  it('are saved when the conversion ends after the request has given up', async () => {
    const committed: unknown[] = [];
    let written: unknown[] = [];
    // As the firm transactions do: a commit inside a request past its deadline is rolled back.
    const repo = {
      transaction: async (_scope: unknown, work: (tx: unknown) => Promise<unknown>) => {
        written = [];
        const result = await work({});
        assertBeforeDeadline();
        committed.push(...written);
        return result;
      },
      update: async (_tx: unknown, _scope: unknown, _id: string, changes: { previewStatus?: string }) => {
        written.push(changes.previewStatus);
        return undefined;
      },
    } as unknown as ItemsRepository;
    const store = { read: async () => realHeic(), put: async () => undefined } as unknown as ObjectStore;
    const converter = converterWith(repo, store);
    const item = heicItem('heic-2', realHeic().length);
    // The request's caller stops waiting a millisecond after asking.
    withDeadline(Date.now() + 1, () => converter.schedule(item));
    await converter.idle();
    expect(committed).toEqual(['ready']);
  });
});

describe('HEIC files that declare more pixels than can be decoded', () => {
  it('are refused from their header, before libheif decodes them', async () => {
    // 1 KB declaring 8000 x 8000 (an AVIF relabelled as HEIF: libheif reads its size all the same).
    const declared = await sharp({
      create: { width: 8000, height: 8000, channels: 3, background: '#c82828' },
    })
      .avif({ effort: 0 })
      .toBuffer();
    declared.write('mif1', 8, 'ascii');
    const started = Date.now();
    await expect(heicToJpeg(declared)).rejects.toBeInstanceOf(ImageNotConvertible);
    await expect(heicPixels(declared)).rejects.toThrow(/8000 x 8000 pixels/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('HEIC decoders (worker threads)', () => {
  // Four bytes a pixel (RGBA); the array comes from the worker, a class of another realm than the test's.
  const decodesQuadrants = { ...REAL_HEIC, data: expect.objectContaining({ length: 64 * 48 * 4 }) };

  it('decode at most their number at once, reusing an idle worker', async () => {
    const decoders = new HeicDecoders(1, 60_000);
    try {
      const seen: number[] = [];
      const decodes = [1, 2, 3].map(() =>
        decoders.decode(realHeic()).then((image) => {
          seen.push(decoders.workers);
          return image;
        }),
      );
      expect(await Promise.all(decodes)).toEqual([decodesQuadrants, decodesQuadrants, decodesQuadrants]);
      expect(seen).toEqual([1, 1, 1]);
    } finally {
      await decoders.close();
    }
  });

  it('refuse a decode whose worker stops, and go on with a new worker', async () => {
    const decoders = new HeicDecoders(1, 60_000);
    try {
      const cut = decoders.decode(realHeic());
      await decoders.close();
      await expect(cut).rejects.toThrow(/^the decoder stopped: exit code \d+$/);
      await expect(cut).rejects.toBeInstanceOf(ImageNotConvertible);
      expect(decoders.workers).toBe(0);
      await expect(decoders.decode(realHeic())).resolves.toEqual(decodesQuadrants);
    } finally {
      await decoders.close();
    }
  });

  it('end a worker left idle', async () => {
    const decoders = new HeicDecoders(1, 20);
    await decoders.decode(realHeic());
    for (let waited = 0; decoders.workers && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(decoders.workers).toBe(0);
  });

  it('answer a file that is not HEIC with ImageNotConvertible and keep the worker', async () => {
    const decoders = new HeicDecoders(1, 60_000);
    try {
      await expect(decoders.decode(Buffer.from('not an image at all'))).rejects.toThrow(
        new ImageNotConvertible('input buffer is not a HEIC image'),
      );
      expect(decoders.workers).toBe(1);
      await expect(decoders.decode(realHeic())).resolves.toEqual(decodesQuadrants);
    } finally {
      await decoders.close();
    }
  });
});

/** The bytes of the first JPEG in a PDF: from its start-of-image marker to its end-of-image marker. */
function pdfJpeg(pdf: Buffer): Buffer {
  const start = pdf.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  const end = pdf.indexOf(Buffer.from([0xff, 0xd9]), start);
  return pdf.subarray(start, end + 2);
}
