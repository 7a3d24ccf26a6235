import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { throttledProgress } from '../downloads/zip-progress.js';

describe('zip progress', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** Reports each count at its time (ms from the start); answers what was sent, and when. */
  const run = (total: number, steps: [at: number, filesDone: number][], until = 2_000) => {
    const sent: [number, number][] = [];
    const report = throttledProgress(total, (n) => sent.push([Date.now(), n]), 250);
    for (const [at, filesDone] of steps) {
      jest.advanceTimersByTime(at - Date.now());
      report(filesDone);
    }
    jest.advanceTimersByTime(until - Date.now());
    return sent;
  };

  it('passes the first count, then at most one every interval, and the last at once', () => {
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
    ).toEqual([
      [0, 0],
      [250, 2],
      [500, 4],
      [530, 10],
    ]);
  });

  it('passes the count reached before a slow file at the end of the interval, not when the file is done', () => {
    // Quick files up to the fifth at 40 ms, then one that takes 3 s.
    expect(
      run(
        6,
        [
          [0, 0],
          [10, 1],
          [20, 2],
          [30, 3],
          [40, 5],
          [3_040, 6],
        ],
        4_000,
      ),
    ).toEqual([
      [0, 0],
      [250, 5],
      [3_040, 6],
    ]);
  });

  it('never goes back nor repeats a count', () => {
    expect(
      run(5, [
        [0, 2],
        [300, 1],
        [600, 2],
        [900, 5],
        [1_200, 5],
      ]),
    ).toEqual([
      [0, 2],
      [900, 5],
    ]);
  });

  it('holds nothing back once the last count has passed', () => {
    expect(
      run(3, [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ]),
    ).toEqual([
      [0, 0],
      [3, 3],
    ]);
  });
});
