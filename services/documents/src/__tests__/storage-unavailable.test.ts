import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@portico/platform';
import { S3ObjectStore } from '../storage/s3.object-store.js';

const storeAt = (port: number) =>
  new S3ObjectStore({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'b',
    region: 'us-east-1',
    accessKeyId: 'k',
    secretAccessKey: 's',
    connectTimeoutMs: 300,
    requestTimeoutMs: 300,
    idleTimeoutMs: 300,
  });

describe('object storage that does not answer', () => {
  // Takes connections and never says a word, as a stalled store does.
  const sockets: Socket[] = [];
  let silent: Server;
  let port: number;
  beforeAll(async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    port = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((ok) => silent.close(ok));
  });

  it('fails each call with 503 within its time limits instead of waiting for ever', async () => {
    const store = storeAt(port);
    const started = Date.now();
    for (const call of [() => store.head('x'), () => store.read('x'), () => store.copy('x', 'y')]) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 503, code: 'storage_unavailable' });
    }
    // Three calls, each at most three attempts of 300 ms and the SDK's backoff between them.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails with 503 when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const free = (closed.address() as { port: number }).port;
    await new Promise((ok) => closed.close(ok));
    await expect(storeAt(free).head('x')).rejects.toMatchObject({ status: 503 });
  });
});

describe('object storage that stalls in the middle of a body', () => {
  // Answers every request with the headers of 1,000 bytes, sends 10 and then nothing.
  const sockets: Socket[] = [];
  let stalling: Server;
  let port: number;
  beforeAll(async () => {
    stalling = createServer((socket) => {
      sockets.push(socket);
      socket.once('data', () =>
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 1000\r\n\r\n0123456789',
        ),
      );
    });
    await new Promise<void>((ok) => stalling.listen(0, '127.0.0.1', ok));
    port = (stalling.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((ok) => stalling.close(ok));
  });

  it('fails the reads with 503 once the connection is silent, instead of waiting for ever', async () => {
    const store = storeAt(port);
    const reads: Array<() => Promise<unknown>> = [
      () => store.read('x'),
      () => store.readRange('x', 0, 1000),
      () => store.inspect('x', { firstBytes: 1000, whole: true, maxBytes: 10_000 }),
      async () => {
        for await (const _chunk of await store.readStream('x')) {
          // read to the end, as the zip does
        }
      },
    ];
    for (const read of reads) {
      const started = Date.now();
      const err = await read().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 503, code: 'storage_unavailable' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});

/**
 * Whether S3 takes a request through a presigned link (Signature Version 4): it signs the request as it
 * came, with the values of the headers the link names in X-Amz-SignedHeaders, and compares signatures.
 */
function signatureMatches(link: string, secretAccessKey: string, headers: Record<string, string>): boolean {
  const url = new URL(link);
  const query = url.searchParams;
  const rfc3986 = (text: string) =>
    encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const signedHeaders = query.get('X-Amz-SignedHeaders') ?? '';
  const canonicalRequest = [
    'PUT',
    url.pathname,
    [...query]
      .filter(([key]) => key !== 'X-Amz-Signature')
      .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
      .sort()
      .join('&'),
    ...signedHeaders.split(';').map((name) => `${name}:${(headers[name] ?? '').trim()}`),
    '',
    signedHeaders,
    query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  // The credential is the key id, then the scope: date, region, service and 'aws4_request'.
  const scope = (query.get('X-Amz-Credential') ?? '').split('/').slice(1);
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    query.get('X-Amz-Date'),
    scope.join('/'),
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signingKey = scope.reduce<Buffer>(
    (key, part) => createHmac('sha256', key).update(part).digest(),
    Buffer.from(`AWS4${secretAccessKey}`),
  );
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex') === query.get('X-Amz-Signature');
}

describe('upload links', () => {
  // The local S3 server of the integration tests checks neither these signatures nor conditional writes:
  // the link is checked here as S3 checks it.
  it('sign the declared length, the type and If-None-Match: *, so S3 refuses a PUT of another size or type, or one that could replace the object', async () => {
    const link = await storeAt(9).presignPut('firms/f/uploads/u', 'application/pdf', 1234, 60);
    const sent = {
      host: new URL(link).host,
      'content-length': '1234',
      'content-type': 'application/pdf',
      'if-none-match': '*',
    };
    // The browser's PUT as the service tells it to send it.
    expect(signatureMatches(link, 's', sent)).toBe(true);
    expect(signatureMatches(link, 's', { ...sent, 'content-length': '1235' })).toBe(false);
    expect(signatureMatches(link, 's', { ...sent, 'content-type': 'text/html' })).toBe(false);
    // Without the condition S3 would write over an object already there (with it: 412).
    const { 'if-none-match': _, ...unconditional } = sent;
    expect(signatureMatches(link, 's', unconditional)).toBe(false);
  });
});
