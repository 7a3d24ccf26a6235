/**
 * At most `limit` callers inside `run` at once; the others wait their turn, first come first served. A
 * slot is handed straight to the next caller waiting, so a late caller cannot overtake one that waits.
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`A gate needs a limit of 1 or more: ${limit}`);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((enter) => this.waiting.push(enter));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
