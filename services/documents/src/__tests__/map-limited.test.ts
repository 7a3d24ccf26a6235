import { describe, expect, it } from '@jest/globals';
import { mapLimited } from '../jobs/map-limited.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapLimited', () => {
  it('answers the results in the items’ order, with at most `limit` running at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await tick(n * 3);
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('starts nothing after a failure and rejects once the work already running has settled', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('copy 2 failed');
      await tick(30);
      finished.push(n);
      return n;
    });
    await expect(run).rejects.toThrow('copy 2 failed');
    // 1 was running when 2 failed: it finished before the rejection, and nothing was started after.
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([1]);
    const settled = [...finished];
    await tick(60);
    expect(finished).toEqual(settled);
  });

  it('answers an empty list at once', async () => {
    await expect(mapLimited([], 4, async () => 1)).resolves.toEqual([]);
  });
});
