/** A file that reached storage and waits to be filed (process_document). */
export interface Landed {
  /** The file's index in the caller's list. */
  index: number;
  uploadId: string;
}

/** At most this many files in one process call, so that each call stays short whatever lands meanwhile. */
export const MOST_PER_CALL = 100;

/**
 * Files an upload's files while the rest are still being sent, instead of all of them after the last
 * one: a process call for the files landed so far whenever the previous call has ended and at least
 * `batch` wait, then one for the rest once every transfer has ended. One call at a time, so the names
 * of a folder are decided in order (duplicates); the file manager keeps one per folder.
 * `file` records its own outcome and must not throw. (Plain TypeScript, no parameter properties: the
 * upload benchmark imports this file into node as it is.)
 */
export class Filer {
  private waiting: Landed[] = [];
  private running: Promise<void> | undefined;
  private cancelled = false;
  private readonly file: (batch: Landed[]) => Promise<void>;
  private readonly batch: number;

  constructor(file: (batch: Landed[]) => Promise<void>, batch: number) {
    this.file = file;
    this.batch = batch;
  }

  add(landed: Landed) {
    this.waiting.push(landed);
    if (!this.cancelled && !this.running && this.waiting.length >= this.batch)
      this.running = this.drain(this.batch);
  }

  /** Starts no other call: the one in flight ends, what waits stays unfiled. */
  cancel() {
    this.cancelled = true;
  }

  /**
   * Every transfer has ended: files what waits, after the call in flight. Cancelled, it files nothing
   * more and answers the files left unfiled.
   */
  async finish(cancelled: boolean): Promise<Landed[]> {
    // Before waiting: the running loop would otherwise take the batches that landed meanwhile.
    if (cancelled) this.cancel();
    while (this.running) await this.running;
    if (this.cancelled) return this.waiting.splice(0);
    await this.drain(1);
    return [];
  }

  private async drain(atLeast: number) {
    try {
      while (!this.cancelled && this.waiting.length >= atLeast)
        await this.file(this.waiting.splice(0, MOST_PER_CALL));
    } finally {
      this.running = undefined;
    }
  }
}
