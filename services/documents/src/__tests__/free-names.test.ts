import { describe, expect, it } from '@jest/globals';
import { FreeNames, nthName } from '../items/free-names.js';
import { numberedName } from '../items/paths.rules.js';

/** A folder holding `taken` (compared case-insensitively, as the index does), and the reads asked of it. */
function folderHolding(taken: string[]) {
  const held = new Set(taken.map((name) => name.toLowerCase()));
  const reads: number[] = [];
  const names = new FreeNames(async (candidates) => {
    reads.push(candidates.length);
    return new Set(candidates.flatMap((name, i) => (held.has(name.toLowerCase()) ? [i] : [])));
  });
  return { names, reads };
}

describe('free numbered names', () => {
  it('are the name itself, then its lowest free number, as a look at each name in turn found it', async () => {
    const { names, reads } = folderHolding(['W-2.pdf', 'w-2 (1).PDF', 'W-2 (3).pdf']);
    const taken: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { name, n } = await names.next('W-2.pdf', 4);
      taken.push(name);
      names.take('W-2.pdf', n);
    }
    expect(taken).toEqual(['W-2 (2).pdf', 'W-2 (4).pdf', 'W-2 (5).pdf', 'W-2 (6).pdf']);
    // One read for all four: the number expected and a few more.
    expect(reads).toEqual([20]);
    expect((await folderHolding([]).names.next('report.pdf')).name).toBe('report.pdf');
  });

  it('read twice as many again only when every number read is taken', async () => {
    const taken = ['a.pdf', ...Array.from({ length: 60 }, (_, n) => numberedName('a.pdf', n + 1))];
    const { names, reads } = folderHolding(taken);
    expect((await names.next('a.pdf')).name).toBe('a (61).pdf');
    expect(reads).toEqual([17, 17, 34]);
  });

  it('go on past a name another writer took after the read', async () => {
    const { names } = folderHolding(['x.pdf']);
    const first = await names.next('x.pdf');
    expect(first.name).toBe('x (1).pdf');
    // Its insert met the unique index: taken meanwhile.
    names.take('x.pdf', first.n);
    expect((await names.next('x.pdf')).name).toBe('x (2).pdf');
  });

  it('keep the numbered names within the longest name', () => {
    const long = `${'p'.repeat(251)}.pdf`;
    expect(nthName(long, 0)).toBe(long);
    expect(nthName(long, 12)).toBe(`${'p'.repeat(246)} (12).pdf`);
  });
});
