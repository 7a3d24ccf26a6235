import { describe, expect, it } from '@jest/globals';
import { Semaphore } from '../bus/semaphore.js';

/** A promise and its resolve, to hold a task open until the test lets it finish. */
function held() {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('lets at most its limit in at once, then the others in the order they came', async () => {
    const slots = new Semaphore(2);
    const holds = [held(), held(), held(), held()];
    const entered: number[] = [];
    const runs = holds.map((h, i) =>
      slots.run(async () => {
        entered.push(i);
        await h.done;
        return i;
      }),
    );
    await settle();
    expect(entered).toEqual([0, 1]);

    holds[1]?.release();
    await settle();
    expect(entered).toEqual([0, 1, 2]);

    holds[0]?.release();
    await settle();
    expect(entered).toEqual([0, 1, 2, 3]);

    for (const h of holds) h.release();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3]);
  });

  it('hands a freed slot to the task waiting, not to one arriving as it is freed', async () => {
    const slots = new Semaphore(1);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const runs: Promise<void>[] = [];
    const task = (name: string, atEnd?: () => void) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      await settle();
      running--;
      atEnd?.();
    };
    /** Calls `work` after `depth` microtasks. */
    const later = (depth: number, work: () => void): void =>
      queueMicrotask(depth > 1 ? () => later(depth - 1, work) : work);
    // As the first task ends, newcomers ask for a slot over the next few microtasks, while the slot
    // passes to the task already waiting.
    const newcomers = () => {
      for (const depth of [1, 2, 3, 4]) later(depth, () => runs.push(slots.run(task(`newcomer ${depth}`))));
    };
    runs.push(slots.run(task('first', newcomers)), slots.run(task('waiting')));
    while (order.length < 6) await settle();
    await Promise.all(runs);
    expect(order).toEqual(['first', 'waiting', 'newcomer 1', 'newcomer 2', 'newcomer 3', 'newcomer 4']);
    expect(most).toBe(1);
  });

  it('gives the slot of a failed task to the next one', async () => {
    const slots = new Semaphore(1);
    const failing = slots.run(async () => {
      throw new Error('store unavailable');
    });
    const next = slots.run(async () => 'ran');
    await expect(failing).rejects.toThrow('store unavailable');
    await expect(next).resolves.toBe('ran');
    // Free again: a later caller enters at once.
    await expect(slots.run(async () => 'again')).resolves.toBe('again');
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow('A semaphore needs a limit of 1 or more: 0');
  });
});
