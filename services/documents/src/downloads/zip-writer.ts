import { Readable } from 'node:stream';
import { deadlinePassed } from '@portico/platform';
import { ZipFile } from 'yazl';
import { numberedName } from '../items/paths.rules.js';
import type { ObjectStore } from '../storage/object-store.js';
import { zipCompression } from './zip-compression.rules.js';

/** One file of a zip: its name in the zip and where its bytes come from. */
export interface ZipEntry {
  name: string;
  mtime: Date;
  storageKey: string;
  /** The filed size, which the zip checks against the bytes read. */
  size: number;
  /**
   * Bytes made from the file when the zip comes near it (an image converted to PDF), with their name;
   * undefined zips the stored file under `name`. Made in turn, so a zip holds a few at a time.
   */
  convert?: () => Promise<{ name: string; bytes: Buffer } | undefined>;
}

/**
 * Files whose reads (or conversions) are started before the zip reaches them. Each read is a request to
 * the store (tens of milliseconds on S3): one after another, a folder of 2,000 receipts spent most of a
 * minute waiting for them. An opened file holds only its stream's buffer until its turn (backpressure
 * does the rest); a converted one its bytes.
 */
export const FILES_OPENED_AHEAD = 4;

/**
 * A zip entry's name not yet used in this zip (case aside): 'Sub/photo.pdf', then 'Sub/photo (1).pdf';
 * the number goes on the file's own name, not in front of its folders.
 */
export function uniqueEntryName(name: string, used: Set<string>): string {
  const slash = name.lastIndexOf('/');
  const folder = name.slice(0, slash + 1);
  const file = name.slice(slash + 1);
  let unique = name;
  for (let n = 1; used.has(unique.toLowerCase()); n++) unique = `${folder}${numberedName(file, n)}`;
  used.add(unique.toLowerCase());
  return unique;
}

/** An entry ready for its turn: its final name and its bytes' stream. */
type Prepared = { name: string; size?: number; stream: Promise<Readable> };

/**
 * Streams `entries` from the store into a zip at `key`, file after file as the zip reaches them, so a
 * zip of 150 MB holds a few megabytes here, not the zip. An entry is added to the zip once it is
 * prepared, in order, since a converted file's name is known only then. No file is read after
 * `deadline` (epoch ms): the zip is then abandoned, not finished unseen. `filesDone` is told how many
 * files the zip holds whole as it reaches each next one, and all of them once it is stored. Answers the
 * zip's size; on a failure every stream it opened is closed, including one that arrives afterwards.
 */
export async function writeZip(
  store: ObjectStore,
  entries: readonly ZipEntry[],
  key: string,
  deadline = Number.POSITIVE_INFINITY,
  filesDone: (count: number) => void = () => undefined,
): Promise<number> {
  const zip = new ZipFile();
  // yazl's output is a Readable (a PassThrough); its types say only NodeJS.ReadableStream.
  const output = zip.outputStream as Readable;
  const open = new Set<Readable>();
  let failure: unknown;
  let wake: () => void = () => undefined;
  const failed = (err: unknown) => {
    if (failure) return;
    failure = err;
    output.destroy(err as Error);
    for (const stream of open) stream.destroy();
    wake();
  };
  zip.on('error', failed);
  /** A stream the zip may read; closed at once if the zip has failed meanwhile. */
  const opened = (stream: Readable) => {
    if (failure) {
      stream.destroy();
      return stream;
    }
    open.add(stream);
    // A file that fails before its turn fails the zip at once (an 'error' with no listener would end
    // the process).
    stream.on('error', failed);
    stream.once('close', () => open.delete(stream));
    return stream;
  };
  const prepare = async (entry: ZipEntry): Promise<Prepared> => {
    const made = entry.convert ? await entry.convert() : undefined;
    if (made) return { name: made.name, stream: Promise.resolve(opened(Readable.from([made.bytes]))) };
    const stream = store.readStream(entry.storageKey, entry.size).then(opened);
    // A read never reached (the zip failed first) is not an unhandled rejection.
    stream.catch(() => undefined);
    return { name: entry.name, size: entry.size, stream };
  };

  // The entry the zip is writing (-1 before the first), and the entries started so far.
  let writing = -1;
  const started: Promise<Prepared>[] = [];
  const startAhead = () => {
    const last = Math.min(entries.length - 1, Math.max(writing, 0) + FILES_OPENED_AHEAD);
    while (!failure && started.length <= last) {
      if (Date.now() > deadline) return failed(deadlinePassed());
      const preparing = prepare(entries[started.length] as ZipEntry);
      preparing.catch(failed);
      started.push(preparing);
    }
  };
  const addEntries = async () => {
    startAhead();
    const names = new Set<string>();
    for (let index = 0; index < entries.length; index++) {
      // Wait until the zip comes near enough for this entry to be started.
      while (index >= started.length && !failure) await new Promise<void>((moved) => (wake = moved));
      const entry = await started[index]?.catch(() => undefined);
      if (!entry || failure) return;
      zip.addReadStreamLazy(
        uniqueEntryName(entry.name, names),
        {
          mtime: (entries[index] as ZipEntry).mtime,
          ...zipCompression(entry.name),
          ...(entry.size === undefined ? {} : { size: entry.size }),
        },
        (ready) => {
          writing = index;
          if (Date.now() > deadline) return failed(deadlinePassed());
          filesDone(index);
          startAhead();
          wake();
          entry.stream.then((stream) => {
            if (!failure) ready(null, stream);
          }, failed);
        },
      );
    }
    zip.end();
  };
  void addEntries().catch(failed);
  try {
    const size = await store.putStream(key, output, 'application/zip');
    filesDone(entries.length);
    return size;
  } catch (err) {
    // The reads opened ahead of a zip that failed (here or in the store) give their connections back.
    failed(err);
    throw failure;
  }
}
