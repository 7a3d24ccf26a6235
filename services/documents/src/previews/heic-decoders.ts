import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Semaphore } from '@portico/platform';
import type { DecodeReply, DecodeRequest } from './heic-decode.worker.js';
import { ImageNotConvertible, MAX_IMAGE_PIXELS } from './image-limits.js';

/** The worker's module beside this one: its build, or under tests its TypeScript source. */
const WORKER_URL = new URL(
  `./heic-decode.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

export type DecodedHeic = { width: number; height: number; data: Uint8ClampedArray };

/**
 * HEIC decoding in worker threads, at most `size` at once (each holds a photo's pixels, about 270 MB for
 * 12 MP while libheif works), so the event loop keeps answering while a photo is decoded. A worker is
 * started when one is needed and kept for `idleMs` for the next; one that fails is replaced.
 */
export class HeicDecoders {
  private readonly slots: Semaphore;
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly live = new Set<Worker>();

  constructor(
    size: number,
    private readonly idleMs: number,
  ) {
    this.slots = new Semaphore(size);
  }

  /** Workers started and not yet ended. */
  get workers(): number {
    return this.live.size;
  }

  /** The file's primary image; rejects with ImageNotConvertible for a file libheif cannot decode. */
  decode(heic: Uint8Array): Promise<DecodedHeic> {
    return this.slots.run(async () => {
      const worker = this.take();
      let reply: DecodeReply;
      try {
        reply = await ask(worker, { heic, maxPixels: MAX_IMAGE_PIXELS });
      } catch (err) {
        void worker.terminate();
        throw new ImageNotConvertible(`the decoder stopped: ${(err as Error).message}`);
      }
      this.putBack(worker);
      if (!reply.ok) throw new ImageNotConvertible(reply.message);
      const { width, height, data } = reply;
      return { width, height, data };
    });
  }

  /** Ends every worker; a decode running in one rejects. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((worker) => worker.terminate()));
  }

  private take(): Worker {
    const [worker, timer] = this.idle.entries().next().value ?? [];
    if (worker) {
      clearTimeout(timer);
      this.idle.delete(worker);
      worker.ref();
      return worker;
    }
    const started = new Worker(WORKER_URL);
    this.live.add(started);
    // A decode's own listeners report its failure; an idle worker has nothing running to fail.
    started.on('error', () => undefined);
    started.once('exit', () => {
      this.live.delete(started);
      clearTimeout(this.idle.get(started));
      this.idle.delete(started);
    });
    return started;
  }

  /** An idle worker does not keep the process alive, and ends after idleMs. */
  private putBack(worker: Worker) {
    worker.unref();
    const timer = setTimeout(() => void worker.terminate(), this.idleMs);
    timer.unref();
    this.idle.set(worker, timer);
  }
}

function ask(worker: Worker, request: DecodeRequest): Promise<DecodeReply> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', answered);
      worker.off('error', failed);
      worker.off('exit', stopped);
    };
    const answered = (reply: DecodeReply) => {
      done();
      resolve(reply);
    };
    const failed = (err: Error) => {
      done();
      reject(err);
    };
    const stopped = (code: number) => {
      done();
      reject(new Error(`exit code ${code}`));
    };
    worker.on('message', answered);
    worker.on('error', failed);
    worker.on('exit', stopped);
    worker.postMessage(request);
  });
}

/**
 * The decoders of the process, shared by previews and PDF conversions, whose own limits bound the memory
 * (HEIC_CONCURRENCY, CONVERSIONS_AT_ONCE); decoding is CPU work, so no more workers than cores.
 */
export const heicDecoders = new HeicDecoders(availableParallelism(), 30_000);
