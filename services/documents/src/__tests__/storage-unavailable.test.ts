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

describe('upload links', () => {
  it('sign the declared length, a conditional write and the type, so the store refuses another size, a second PUT or another type', async () => {
    const url = new URL(await storeAt(9).presignPut('firms/f/uploads/u', 'application/pdf', 1234, 60));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host', 'if-none-match']),
    );
  });
});
