import { describe, expect, it } from '@jest/globals';
import { throttledProgress } from '../downloads/zip-progress.js';

describe('zip progress', () => {
  const run = (total: number, steps: [at: number, filesDone: number][]) => {
    const sent: number[] = [];
    let clock = 0;
    const report = throttledProgress(
      total,
      (n) => sent.push(n),
      250,
      () => clock,
    );
    for (const [at, filesDone] of steps) {
      clock = at;
      report(filesDone);
    }
    return sent;
  };

  it('passes the first count, then at most one every interval, and always the last', () => {
    expect(
      run(10, [
        [0, 0],
        [10, 1],
        [100, 2],
        [260, 3],
        [300, 4],
        [520, 5],
        [530, 10],
      ]),
    ).toEqual([0, 3, 5, 10]);
  });

  it('never goes back nor repeats a count', () => {
    expect(
      run(5, [
        [0, 2],
        [300, 1],
        [600, 2],
        [900, 5],
        [1200, 5],
      ]),
    ).toEqual([2, 5]);
  });

  it('passes the end of a zip made within one interval', () => {
    expect(
      run(3, [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ]),
    ).toEqual([0, 3]);
  });
});
