import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  /** The endpoint URL, e.g. http://127.0.0.1:41234 (path-style addressing). */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The variables the documents service reads. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Lets the browser PUT to presigned links and read the ETag, as the local portal does. */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * An S3-compatible server (s3rver) on a free loopback port with its bucket created, storing under a
 * temporary folder unless `directory` is given. For the local stack and tests only, never production.
 */
export async function startS3Server(
  options: { directory?: string; bucket?: string; port?: number } = {},
): Promise<RunningS3> {
  const keep = !!options.directory;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'portico-s3-')));
  const bucket = options.bucket ?? 'portico-documents';
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  // s3rver accepts these fixed credentials.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_REGION: region,
    },
    stop: async () => {
      await server.close();
      if (!keep) await rm(directory, { recursive: true, force: true });
    },
  };
}
