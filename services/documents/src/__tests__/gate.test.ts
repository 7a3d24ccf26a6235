import { describe, expect, it } from '@jest/globals';
import { Gate } from '../jobs/gate.js';

/** A promise and its resolve, to hold a piece of work open until the test lets it finish. */
function held() {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Gate', () => {
  it('lets at most its limit in at once, then the others in the order they came', async () => {
    const gate = new Gate(2);
    const holds = [held(), held(), held(), held()];
    const entered: number[] = [];
    const runs = holds.map((h, i) =>
      gate.run(async () => {
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

  it('gives the slot of a failed piece of work to the next one', async () => {
    const gate = new Gate(1);
    const failing = gate.run(async () => {
      throw new Error('store unavailable');
    });
    const next = gate.run(async () => 'ran');
    await expect(failing).rejects.toThrow('store unavailable');
    await expect(next).resolves.toBe('ran');
    // Free again: a later caller enters at once.
    await expect(gate.run(async () => 'again')).resolves.toBe('again');
  });

  it('refuses a limit below one', () => {
    expect(() => new Gate(0)).toThrow('A gate needs a limit of 1 or more: 0');
  });
});
