import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { FILES_OPENED_AHEAD, writeZip, type ZipEntry } from '../downloads/zip-writer.js';
import type { ObjectStore } from '../storage/object-store.js';
import { zipEntries } from './samples.js';

const READ_LATENCY_MS = 40;

/** A store whose every read answers after a round trip, as S3's do; it counts the reads open at once. */
function slowStore(files: Record<string, Buffer>, failing?: string) {
  let open = 0;
  const seen = { mostOpen: 0, destroyed: 0, written: Buffer.alloc(0) };
  const store = {
    readStream: async (key: string) => {
      open += 1;
      seen.mostOpen = Math.max(seen.mostOpen, open);
      await new Promise((resolve) => setTimeout(resolve, READ_LATENCY_MS));
      if (key === failing) throw new Error('NoSuchKey');
      const stream = Readable.from([files[key] as Buffer]);
      stream.on('close', () => {
        open -= 1;
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
  });
});
