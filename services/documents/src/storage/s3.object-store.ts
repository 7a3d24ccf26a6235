import type { Readable } from 'node:stream';
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
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore } from './object-store.js';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** RFC 6266 content-disposition with an ASCII fallback and the UTF-8 name. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
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
    });
  }

  presignPut(key: string, contentType: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
      { expiresIn: ttlSeconds },
    );
  }

  presignGet(key: string, ttlSeconds: number, downloadAs?: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
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
    const bytes = (await res.Body?.transformToByteArray()) ?? new Uint8Array();
    return bytes.subarray(0, length);
  }

  async read(key: string): Promise<Buffer> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from((await res.Body?.transformToByteArray()) ?? new Uint8Array());
  }

  async readRange(key: string, offset: number, length: number): Promise<Buffer> {
    const res = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: `bytes=${offset}-${offset + length - 1}`,
      }),
    );
    return res.Body ? readInto(res.Body as Readable, length) : Buffer.alloc(0);
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
    return { size, bytes: body ? await readInto(body, keep) : Buffer.alloc(0) };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
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
async function readInto(stream: Readable, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(length);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (filled < length) filled += chunk.copy(out, filled, 0, Math.min(chunk.length, length - filled));
  }
  return filled === length ? out : out.subarray(0, filled);
}
