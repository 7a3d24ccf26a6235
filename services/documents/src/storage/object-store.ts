import type { Readable } from 'node:stream';
import type { Logger } from '@portico/platform';
import { mapLimited } from '../jobs/map-limited.js';

/** Where file bytes live. The database holds the tree; this holds the objects, one key per file. */
export interface ObjectStore {
  /**
   * A temporary link the browser PUTs the file to directly, once, with the headers the upload link lists:
   * the store refuses a body of another size, and a second PUT once the object exists.
   */
  presignPut(key: string, contentType: string, size: number, ttlSeconds: number): Promise<string>;
  /** A temporary link to read the object; `downloadAs` makes the browser save it under that name. */
  presignGet(key: string, ttlSeconds: number, downloadAs?: string): Promise<string>;
  /** Size and type of an object, or undefined when it does not exist. */
  head(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /** The first `length` bytes (fewer when the object is shorter). */
  readStart(key: string, length: number): Promise<Uint8Array>;
  /**
   * The whole object. With `expectedSize` (the size it had when it was checked and filed), an object of
   * another size is refused before its bytes are read: an upload link can still be used while it lasts.
   */
  read(key: string, expectedSize?: number): Promise<Buffer>;
  /**
   * The whole object as a stream, to pass it on without holding it (into a zip). `expectedSize` as for
   * `read`, checked before a byte is read.
   */
  readStream(key: string, expectedSize?: number): Promise<Readable>;
  /** `length` bytes from `offset` (fewer at the end of the object). */
  readRange(key: string, offset: number, length: number): Promise<Buffer>;
  /**
   * One request for an upload's checks: the object's size and its bytes, all of them when `whole` and
   * the size is at most `maxBytes`, otherwise only the first `firstBytes` (none when over `maxBytes`).
   * Undefined when the object does not exist.
   */
  inspect(
    key: string,
    options: { firstBytes: number; whole: boolean; maxBytes: number },
  ): Promise<{ size: number; bytes: Buffer } | undefined>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Writes `body` as it is produced, in parts, holding no more than a few of them: a zip of 150 MB costs
   * the service megabytes, not the zip's size. Answers the bytes written. A failure of either side stops
   * both, and the store keeps nothing of it.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<number>;
  copy(from: string, to: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Asks the store to expire objects under `prefix` after `days` (a bucket lifecycle rule). */
  expireAfter(prefix: string, days: number): Promise<{ applied: boolean; reason?: string }>;
  /** Deletes the objects under `prefix` last written before `cutoff`; answers how many. */
  deleteOlderThan(prefix: string, cutoff: Date): Promise<number>;
}

/** Zips for download live under one top-level prefix, so one lifecycle rule can expire them. */
export const EXPORTS_PREFIX = 'exports/';

/** Keys per firm and company, so a firm's objects can be listed, exported or purged together. */
export const StorageKeys = {
  upload: (firmId: string, companyId: string, uploadId: string) =>
    `firms/${firmId}/companies/${companyId}/files/${uploadId}`,
  file: (firmId: string, companyId: string, id: string) =>
    `firms/${firmId}/companies/${companyId}/files/${id}`,
  preview: (firmId: string, companyId: string, itemId: string) =>
    `firms/${firmId}/companies/${companyId}/previews/${itemId}.jpg`,
  zip: (firmId: string, companyId: string, id: string) =>
    `${EXPORTS_PREFIX}firms/${firmId}/companies/${companyId}/${id}.zip`,
  dropOff: (firmId: string, uploadId: string) => `firms/${firmId}/drop-offs/${uploadId}`,
};

/** Deletes a store keeps in flight at once when removing many objects. */
const DELETE_CONCURRENCY = 16;

/** Keys named in the warning of failed deletes: enough to find them again, not a whole folder's. */
const KEYS_LOGGED = 20;

/**
 * Best effort: deletes objects no row names any more (uploads not filed, a move's old objects, a failed
 * copy's new ones, drop-offs deleted for good), a few at a time, since one by one a large folder's would
 * hold the reply back for seconds. A delete that fails is not the caller's error, but it is not dropped
 * unseen either: an object nothing names and older than the sweep's reach would stay for ever, and a
 * store that refuses every delete (a key without DeleteObject) would go unnoticed. Each call that had
 * failures logs one warning (with the request's trace): how many of how many, the first error, and the
 * first keys (ids only: firms, companies, items, uploads).
 */
export async function deleteObjects(store: ObjectStore, keys: readonly string[], log: Logger): Promise<void> {
  const failed: string[] = [];
  let first: unknown;
  await mapLimited(keys, DELETE_CONCURRENCY, (key) =>
    store.delete(key).catch((err: unknown) => {
      failed.push(key);
      first ??= err;
    }),
  );
  if (failed.length)
    log.warn(
      { err: first, failed: failed.length, of: keys.length, keys: failed.slice(0, KEYS_LOGGED) },
      'Objects could not be deleted; nothing names them any more',
    );
}
