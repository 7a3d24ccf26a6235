import { Readable } from 'node:stream';
import { deadlinePassed } from '@portico/platform';
import { ZipFile } from 'yazl';
import type { ObjectStore } from '../storage/object-store.js';
import { zipCompression } from './zip-compression.rules.js';

/** One file of a zip: its name in the zip and where its bytes come from (the store, or made already). */
export interface ZipEntry {
  name: string;
  mtime: Date;
  storageKey: string;
  /** The filed size, which the zip checks against the bytes read. */
  size: number;
  /** Bytes made already (an image converted to PDF), used instead of the stored file. */
  bytes?: Buffer;
}

/**
 * Files whose reads are started before the zip reaches them. Each read is a request to the store (tens
 * of milliseconds on S3): one after another, a folder of 2,000 receipts spent most of a minute waiting
 * for them. An opened file holds only its stream's buffer until its turn (backpressure does the rest).
 */
export const FILES_OPENED_AHEAD = 4;

/**
 * Streams `entries` from the store into a zip at `key`, file after file as the zip reaches them, so a
 * zip of 150 MB holds a few megabytes here, not the zip. No file is read after `deadline` (epoch ms):
 * the zip is then abandoned, not finished unseen. Answers the zip's size.
 */
export async function writeZip(
  store: ObjectStore,
  entries: readonly ZipEntry[],
  key: string,
  deadline = Number.POSITIVE_INFINITY,
): Promise<number> {
  const zip = new ZipFile();
  // yazl's output is a Readable (a PassThrough); its types say only NodeJS.ReadableStream.
  const output = zip.outputStream as Readable;
  const failed = (err: unknown) => output.destroy(err as Error);
  zip.on('error', failed);
  const opened = new Map<number, Promise<Readable>>();
  // The file being read, stopped if the zip cannot be written.
  let reading: Readable | undefined;
  const open = (index: number) => {
    const entry = entries[index];
    if (!entry || opened.has(index)) return;
    const stream = entry.bytes
      ? Promise.resolve(Readable.from([entry.bytes]))
      : store.readStream(entry.storageKey, entry.size);
    // A file that fails before its turn fails the zip at once (and an 'error' with no listener would
    // end the process); a read never reached is not an unhandled rejection.
    stream.then((s) => s.on('error', failed), failed);
    opened.set(index, stream);
  };
  entries.forEach((entry, index) => {
    zip.addReadStreamLazy(
      entry.name,
      { mtime: entry.mtime, ...zipCompression(entry.name), ...(entry.bytes ? {} : { size: entry.size }) },
      (ready) => {
        if (Date.now() > deadline) return failed(deadlinePassed());
        open(index);
        const stream = opened.get(index) as Promise<Readable>;
        opened.delete(index);
        for (let next = index + 1; next <= index + FILES_OPENED_AHEAD; next++) open(next);
        stream.then((s) => {
          reading = s;
          ready(null, s);
        }, failed);
      },
    );
  });
  zip.end();
  try {
    return await store.putStream(key, output, 'application/zip');
  } catch (err) {
    reading?.destroy();
    throw err;
  } finally {
    // Reads opened ahead of a zip that failed: their connections go back.
    for (const stream of opened.values())
      stream.then(
        (s) => s.destroy(),
        () => undefined,
      );
    opened.clear();
  }
}
