/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in order. A finishing task hands
 * its slot straight to the next one waiting, so a task arriving meanwhile cannot overtake it, nor take a
 * slot that is already promised (which would let one more than `limit` run).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`A semaphore needs a limit of 1 or more: ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((enter) => this.waiting.push(enter));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  get inFlight(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Tasks running or waiting for a slot. */
  get busy(): number {
    return this.active + this.waiting.length;
  }
}
