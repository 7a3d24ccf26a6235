import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { FILES_OPENED_AHEAD, writeZip, type ZipEntry } from '../downloads/zip-writer.js';
import type { ObjectStore } from '../storage/object-store.js';
import { zipEntries } from './samples.js';

const READ_LATENCY_MS = 40;

/** A store whose every read answers after a round trip, as S3's do; it counts the reads open at once. */
function slowStore(
  files: Record<string, Buffer>,
  failing?: string,
  latency = (_key: string) => READ_LATENCY_MS,
) {
  let reading = 0;
  const seen = { mostOpen: 0, destroyed: 0, open: 0, written: Buffer.alloc(0) };
  const store = {
    readStream: async (key: string) => {
      reading += 1;
      seen.mostOpen = Math.max(seen.mostOpen, reading);
      await new Promise((resolve) => setTimeout(resolve, latency(key)));
      if (key === failing) {
        reading -= 1;
        throw new Error('NoSuchKey');
      }
      // In chunks, as a store's response comes: a stream nobody reads waits, open, for its reader.
      const bytes = files[key] as Buffer;
      const chunks = Array.from({ length: Math.ceil(bytes.length / 16_384) }, (_, i) =>
        bytes.subarray(i * 16_384, (i + 1) * 16_384),
      );
      const stream = Readable.from(chunks);
      seen.open += 1;
      stream.on('close', () => {
        reading -= 1;
        seen.open -= 1;
        if (!stream.readableEnded) seen.destroyed += 1;
      });
      return stream;
    },
    putStream: async (_key: string, body: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      seen.written = Buffer.concat(chunks);
      return seen.written.length;
    },
  } as unknown as ObjectStore;
  return { store, seen };
}

const entriesOf = (files: Record<string, Buffer>): ZipEntry[] =>
  Object.entries(files).map(([key, bytes]) => ({
    name: `${key}.txt`,
    mtime: new Date('2026-01-02T03:04:05Z'),
    storageKey: key,
    size: bytes.length,
  }));

describe('writing a download zip', () => {
  it('reads the next files while it writes one, a few at a time, and zips every file whole', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [`receipt-${i}`, Buffer.from(`receipt ${i} `.repeat(200))]),
    );
    const { store, seen } = slowStore(files);
    const size = await writeZip(store, entriesOf(files), 'zips/one.zip');
    // Reads overlap (one after another, each would wait its round trip in turn), within the bound.
    expect(seen.mostOpen).toBeGreaterThan(1);
    expect(seen.mostOpen).toBeLessThanOrEqual(FILES_OPENED_AHEAD + 1);
    expect(size).toBe(seen.written.length);
    const zipped = await zipEntries(seen.written);
    expect(Object.keys(zipped)).toHaveLength(24);
    for (const [key, bytes] of Object.entries(files))
      expect(zipped[`${key}.txt`]?.bytes.equals(bytes)).toBe(true);
  });

  it('fails when a file cannot be read, and lets go of the files it opened ahead', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`scan-${i}`, Buffer.from(`scan ${i} `.repeat(100))]),
    );
    const { store, seen } = slowStore(files, 'scan-3');
    await expect(writeZip(store, entriesOf(files), 'zips/two.zip')).rejects.toThrow('NoSuchKey');
    // The reads opened ahead of the failure end up closed, not left holding their connections.
    await new Promise((resolve) => setTimeout(resolve, READ_LATENCY_MS * 3));
    expect(seen.destroyed).toBeGreaterThan(0);
    expect(seen.open).toBe(0);
  });

  it('closes the file being opened when the zip fails before it arrives', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`scan-${i}`, Buffer.alloc(1024 * 1024, `scan ${i} `)]),
    );
    // The third file's refusal comes back before the first file's stream.
    const { store, seen } = slowStore(files, 'scan-2', (key) => (key === 'scan-0' ? READ_LATENCY_MS * 3 : 5));
    await expect(writeZip(store, entriesOf(files), 'zips/three.zip')).rejects.toThrow('NoSuchKey');
    await new Promise((resolve) => setTimeout(resolve, READ_LATENCY_MS * 5));
    expect(seen.open).toBe(0);
  });

  it('converts files in turn, a few ahead of the one being written, under the names they come with', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 16 }, (_, i) => [`photo-${i}`, Buffer.from(`photo ${i} `.repeat(50))]),
    );
    const { store, seen } = slowStore(files);
    let conversions = 0;
    const entries = entriesOf(files).map((entry, i) => ({
      ...entry,
      name: 'photo.png',
      // Every third image cannot be converted and goes in as it is.
      convert: async () => {
        conversions += 1;
        // Each PDF is larger than the zip's buffer, which holds back the zip until it is read.
        const bytes = Buffer.concat([Buffer.from(`%PDF- ${i}`), Buffer.alloc(256 * 1024)]);
        return i % 3 === 2 ? undefined : { name: 'photo.pdf', bytes };
      },
    }));
    let convertedBeforeReading = 0;
    const slowReader = {
      ...store,
      putStream: async (_key: string, body: Readable) => {
        // Nothing is read of the zip for a while: no more is converted than the few opened ahead.
        await new Promise((resolve) => setTimeout(resolve, READ_LATENCY_MS * 2));
        convertedBeforeReading = conversions;
        return store.putStream(_key, body, 'application/zip');
      },
    } as unknown as ObjectStore;
    await writeZip(slowReader, entries, 'zips/four.zip');
    // The first (being written) and those opened ahead of it.
    expect(convertedBeforeReading).toBe(FILES_OPENED_AHEAD + 1);
    expect(conversions).toBe(16);
    const zipped = await zipEntries(seen.written);
    expect(Object.keys(zipped).sort()).toEqual(
      [
        'photo.pdf',
        ...Array.from({ length: 10 }, (_, n) => `photo (${n + 1}).pdf`),
        'photo.png',
        ...Array.from({ length: 4 }, (_, n) => `photo (${n + 1}).png`),
      ].sort(),
    );
    expect(zipped['photo.pdf']?.bytes.subarray(0, 7).toString()).toBe('%PDF- 0');
    expect(zipped['photo.png']?.bytes.equals(files['photo-2'] as Buffer)).toBe(true);
  });

  it("fails with a conversion's error and closes what it opened", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`photo-${i}`, Buffer.from(`photo ${i} `.repeat(50))]),
    );
    const { store, seen } = slowStore(files);
    const entries = entriesOf(files).map((entry, i) =>
      i === 3 ? { ...entry, convert: async () => Promise.reject(new Error('too large to download')) } : entry,
    );
    await expect(writeZip(store, entries, 'zips/five.zip')).rejects.toThrow('too large to download');
    await new Promise((resolve) => setTimeout(resolve, READ_LATENCY_MS * 3));
    expect(seen.open).toBe(0);
  });
});
