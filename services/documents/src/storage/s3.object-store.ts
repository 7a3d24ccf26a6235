import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  type LifecycleRule,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError } from '@portico/platform';
import type { ObjectStore } from './object-store.js';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A connection not made within this many ms fails the attempt (default 3 s). */
  connectTimeoutMs?: number;
  /** An attempt whose answer has not begun within this many ms fails (default 10 s). */
  requestTimeoutMs?: number;
  /**
   * A connection silent for this many ms fails, also while a body is read (default 60 s): a store that
   * sends the headers and then stalls would otherwise hold the read for ever. As long as a request may
   * take: a zip's files opened ahead wait unread while an earlier one is written.
   */
  idleTimeoutMs?: number;
}

/** S3's smallest part of a multipart upload (but the last). */
const MULTIPART_PART_BYTES = 5 * 1024 * 1024;

const NETWORK_ERROR = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE)\b/;
const OBJECT_CHANGED = 'This file changed after it was uploaded. Please upload it again.';
const STORAGE_UNAVAILABLE = 'File storage is not available right now. Please try again.';

/**
 * A store that cannot be reached or stops answering is 503 to the caller, not a 500 or a wait without
 * end; answers of the store itself (404, 403, ...) go through as they are.
 */
function unavailableIfUnreachable(err: unknown): unknown {
  if (err instanceof AppError || (err as S3ServiceException)?.$metadata?.httpStatusCode) return err;
  const e = err as { name?: string; code?: string; message?: string };
  // The code, or only the message where the SDK's retry step re-wrapped an error of another realm.
  const network = e?.name === 'TimeoutError' || NETWORK_ERROR.test(`${e?.code ?? ''} ${e?.message ?? ''}`);
  return network ? new AppError('unavailable', 'storage_unavailable', STORAGE_UNAVAILABLE) : err;
}

/**
 * RFC 6266 content-disposition with an ASCII fallback and the UTF-8 name. RFC 8187 allows none of
 * ' ( ) * in `filename*`, which encodeURIComponent leaves as they are: a strict parser dropped the
 * UTF-8 name of "O'Brien (2023) W-2.pdf".
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The S3 adapter (AWS SDK v3), path-style so any S3-compatible server works. */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: true,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums on every request are not understood by every S3-compatible server.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Without these a store that accepts the connection and never answers holds the request (and the
      // transaction around a move or copy) for ever. The SDK retries an attempt that timed out.
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 3_000,
        requestTimeout: options.requestTimeoutMs ?? 10_000,
        throwOnRequestTimeout: true,
        socketTimeout: options.idleTimeoutMs ?? 60_000,
      },
    });
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          throw unavailableIfUnreachable(err);
        }
      },
      { step: 'initialize', name: 'porticoStorageUnavailable' },
    );
  }

  presignPut(key: string, contentType: string, size: number, ttlSeconds: number): Promise<string> {
    // Signed headers the browser must send as they are: Content-Length (S3 answers 403 to a body of another
    // length), If-None-Match: * (a conditional write: once the object exists, S3 answers 412, so the link
    // cannot replace a file after it was checked and filed; stores without conditional writes ignore it)
    // and Content-Type, the type the service chose from the name: the object is later served with the
    // type it was stored with, and an uploader's own (text/html for a '.txt') would be served as such.
    return getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: size,
        IfNoneMatch: '*',
      }),
      { expiresIn: ttlSeconds, signableHeaders: new Set(['content-type']) },
    );
  }

  presignGet(key: string, ttlSeconds: number, downloadAs?: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        // A client's tax return or scan is not left in the browser's cache (a shared computer) after
        // the link was used, nor in a cache between.
        ResponseCacheControl: 'private, no-store',
        ...(downloadAs ? { ResponseContentDisposition: attachmentDisposition(downloadAs) } : {}),
      }),
      { expiresIn: ttlSeconds },
    );
  }

  async head(key: string) {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(res.ContentLength ?? 0), contentType: res.ContentType ?? '' };
    } catch (err) {
      if (
        err instanceof NotFound ||
        (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)
      )
        return undefined;
      throw err;
    }
  }

  async readStart(key: string, length: number): Promise<Uint8Array> {
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
    );
    const bytes = res.Body
      ? await bodyRead(() => (res.Body as NonNullable<typeof res.Body>).transformToByteArray())
      : new Uint8Array();
    return bytes.subarray(0, length);
  }

  async read(key: string, expectedSize?: number): Promise<Buffer> {
    const body = await this.readStream(key, expectedSize);
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async readStream(key: string, expectedSize?: number): Promise<Readable> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const body = res.Body as Readable | undefined;
    if (expectedSize !== undefined && Number(res.ContentLength ?? -1) !== expectedSize) {
      body?.destroy();
      throw new AppError('conflict', 'object_changed', OBJECT_CHANGED);
    }
    return body ? unavailableOnFailure(body) : Readable.from([]);
  }

  async readRange(key: string, offset: number, length: number): Promise<Buffer> {
    const res = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: `bytes=${offset}-${offset + length - 1}`,
      }),
    );
    return res.Body ? bodyRead(() => readInto(res.Body as Readable, length)) : Buffer.alloc(0);
  }

  async inspect(key: string, options: { firstBytes: number; whole: boolean; maxBytes: number }) {
    const ranged = !options.whole;
    let res: GetObjectCommandOutput;
    try {
      res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(ranged ? { Range: `bytes=0-${options.firstBytes - 1}` } : {}),
        }),
      );
    } catch (err) {
      const status = (err as S3ServiceException).$metadata?.httpStatusCode;
      if (err instanceof NoSuchKey || status === 404) return undefined;
      // A range of an empty object cannot be satisfied: it exists and has no bytes.
      if (ranged && status === 416) return { size: 0, bytes: Buffer.alloc(0) };
      throw err;
    }
    const body = res.Body as Readable | undefined;
    // The whole size: after the slash of Content-Range for a range, else the length of the answer.
    const total = /\/(\d+)$/.exec(res.ContentRange ?? '')?.[1];
    const size = Number(total ?? res.ContentLength ?? 0);
    const keep = ranged || size > options.maxBytes ? Math.min(options.firstBytes, size) : size;
    // Nothing to read past the limit, nor of an empty object (some stores announce a byte they do not send).
    if (size > options.maxBytes || size === 0) {
      body?.destroy();
      return { size, bytes: Buffer.alloc(0) };
    }
    return { size, bytes: body ? await bodyRead(() => readInto(body, keep)) : Buffer.alloc(0) };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<number> {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // Parts of the smallest size S3 takes, two in flight: about 15 MB held at most, whatever the size.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted, ContentType: contentType },
      partSize: MULTIPART_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(body, counted), upload.done()]);
    } catch (err) {
      // Whichever side failed, the other stops: no reads left open, no parts left in the store.
      body.destroy();
      counted.destroy();
      await upload.abort().catch(() => {});
      throw err;
    }
    return size;
  }

  async copy(from: string, to: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: to,
        CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Adds or updates our rule, keeping any other rules the bucket has. */
  async expireAfter(prefix: string, days: number) {
    const id = `portico-expire-${prefix.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}`;
    try {
      let rules: LifecycleRule[] = [];
      try {
        const current = await this.client.send(
          new GetBucketLifecycleConfigurationCommand({ Bucket: this.bucket }),
        );
        rules = current.Rules ?? [];
      } catch (err) {
        if ((err as { name?: string }).name !== 'NoSuchLifecycleConfiguration') throw err;
      }
      const ours: LifecycleRule = {
        ID: id,
        Status: 'Enabled',
        Filter: { Prefix: prefix },
        Expiration: { Days: days },
      };
      await this.client.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket: this.bucket,
          LifecycleConfiguration: { Rules: [...rules.filter((r) => r.ID !== id), ours] },
        }),
      );
      return { applied: true };
    } catch (err) {
      const e = err as { name?: string; message?: string };
      return { applied: false, reason: `${e.name ?? 'Error'}: ${e.message ?? ''}`.trim() };
    }
  }

  async deleteOlderThan(prefix: string, cutoff: Date): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const old = (page.Contents ?? []).filter((o) => o.Key && o.LastModified && o.LastModified < cutoff);
      if (old.length) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: old.map((o) => ({ Key: o.Key as string })), Quiet: true },
          }),
        );
        deleted += old.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** The first `length` bytes of a stream into one buffer; the rest is read and dropped. */
/** A body read whose connection failed or went silent (the idle timeout) is 503, as a failed request is. */
async function bodyRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw unavailableIfUnreachable(err);
  }
}

/**
 * The body as a stream whose failure is 503 too: its reader (a zip) sees the store's failure as the
 * store being unavailable, not as an error of its own. Destroying it destroys the body.
 */
function unavailableOnFailure(body: Readable): Readable {
  const mapped = async function* () {
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) yield chunk;
    } catch (err) {
      throw unavailableIfUnreachable(err);
    }
  };
  const out = Readable.from(mapped(), { objectMode: false });
  // The body ends with the stream however the stream ends: read to its end, failed, or destroyed, also
  // before its first read (a zip that failed with files opened ahead), when the generator never ran and
  // the connection to the store would otherwise stay open.
  out.once('close', () => body.destroy());
  // A body that fails before its turn fails its reader at once, as the body itself did.
  body.once('error', (err) => out.destroy(unavailableIfUnreachable(err) as Error));
  return out;
}

async function readInto(stream: Readable, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(length);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (filled < length) filled += chunk.copy(out, filled, 0, Math.min(chunk.length, length - filled));
  }
  return filled === length ? out : out.subarray(0, filled);
}
