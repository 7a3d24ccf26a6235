import { numberedName } from './paths.rules.js';

/**
 * Which of `names` an item the tree shows holds in one folder (their indices into `names`), compared as
 * the folder's unique index compares names: one query for all of them (ItemsRepository.takenAmong).
 */
export type TakenAmong = (names: readonly string[]) => Promise<Set<number>>;

/** Numbers read beyond those the caller said it will take: a few taken meanwhile cost no second read. */
const READ_AHEAD = 16;

/** The n-th name of `first`: itself, then 'W-2 (1).pdf', 'W-2 (2).pdf' (numberedName: within 255). */
export const nthName = (first: string, n: number) => (n === 0 ? first : numberedName(first, n));

/** What is known of one name: the numbers taken among those read (`read` of them, from 0), and below
 * which number none is free (taken ones are only ever added). */
type Base = { taken: Set<number>; read: number; low: number };

/**
 * The free names of one folder for items named after `first`: `first` itself, else its lowest free
 * number ('W-2 (3).pdf'), as a probe of each name in turn found it. Which of the next numbers are taken is
 * read in one query, as many as the caller said it will take and a few more (twice as many again only
 * when all of those are taken), then remembered with the names the caller took since: the 200 parts of
 * a split all named 'W-2' read once, where a query per number taken made 20,100 of them.
 *
 * A name taken by another writer after the read is found by the insert (the unique index), and the caller
 * marks it taken and asks again, as it does for names it filed itself (`take`).
 */
export class FreeNames {
  private readonly bases = new Map<string, Base>();

  constructor(private readonly takenAmong: TakenAmong) {}

  /** The lowest free name of `first` and its number; `expected`: how many names of it the caller will take. */
  async next(first: string, expected = 1): Promise<{ name: string; n: number }> {
    let base = this.bases.get(first);
    if (!base) {
      base = { taken: new Set(), read: 0, low: 0 };
      this.bases.set(first, base);
    }
    for (;;) {
      while (base.low < base.read && base.taken.has(base.low)) base.low++;
      if (base.low < base.read) return { name: nthName(first, base.low), n: base.low };
      const from = base.read;
      const count = Math.max(expected + READ_AHEAD, from);
      const names = Array.from({ length: count }, (_, i) => nthName(first, from + i));
      for (const i of await this.takenAmong(names)) base.taken.add(from + i);
      base.read = from + count;
    }
  }

  /** Number `n` of `first` is taken: the caller filed it, or found it taken when it tried to. */
  take(first: string, n: number): void {
    this.bases.get(first)?.taken.add(n);
  }
}
