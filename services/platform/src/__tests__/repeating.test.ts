import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { loggedStep, startRepeating } from '../service/repeating.js';
import { capturedLog } from '../testing/captured-log.js';

describe('a repeating job', () => {
  it('runs at once, then every interval, and stopping waits for the run in progress', async () => {
    const held: Array<() => void> = [];
    const job = startRepeating(() => new Promise<void>((resolve) => void held.push(resolve)), 25);
    await sleep(5);
    expect(held).toHaveLength(1);
    await sleep(70);
    // Each run's timer is set as it starts: a run still in progress does not hold the next back.
    expect(held.length).toBeGreaterThanOrEqual(2);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await sleep(5);
    expect(stopped).toBe(false);
    for (const release of held) release();
    await stopping;
    const runs = held.length;
    await sleep(70);
    expect(held).toHaveLength(runs);
  });

  it('counts a step that fails as 0 and logs its failure at error', async () => {
    const { lines, logger } = capturedLog();
    expect(await loggedStep(logger, 'Deleting failed; will retry', async () => 3)).toBe(3);
    expect(
      await loggedStep(logger, 'Deleting failed; will retry', async () => {
        throw new Error('canceling statement due to statement timeout');
      }),
    ).toBe(0);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', msg: 'Deleting failed; will retry', err: expect.anything() }),
    ]);
  });
});
