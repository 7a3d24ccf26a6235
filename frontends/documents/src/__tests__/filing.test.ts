import { describe, expect, it } from '@jest/globals';
import { Filer, type Landed, MOST_PER_CALL } from '../upload/filing.js';

/** A filing call that ends when the test says so. */
function controlledFiling() {
  const calls: { batch: number[]; done: () => void }[] = [];
  const file = (batch: Landed[]) =>
    new Promise<void>((resolve) => calls.push({ batch: batch.map((l) => l.index), done: resolve }));
  return { calls, file };
}
const landed = (index: number): Landed => ({ index, uploadId: `up-${index}` });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('filing an upload while it is sent', () => {
  it('files a batch once enough landed, gathers what lands meanwhile for the next call, the rest at the end', async () => {
    const { calls, file } = controlledFiling();
    const filer = new Filer(file, 3);
    filer.add(landed(0));
    filer.add(landed(1));
    expect(calls).toHaveLength(0);
    filer.add(landed(2));
    expect(calls.map((c) => c.batch)).toEqual([[0, 1, 2]]);
    // One call at a time: what lands during the first call waits for it.
    for (const i of [3, 4, 5, 6]) filer.add(landed(i));
    expect(calls).toHaveLength(1);
    calls[0]?.done();
    await tick();
    expect(calls.map((c) => c.batch)).toEqual([
      [0, 1, 2],
      [3, 4, 5, 6],
    ]);
    calls[1]?.done();
    await tick();
    filer.add(landed(7));
    expect(calls).toHaveLength(2);
    const finished = filer.finish(false);
    await tick();
    expect(calls.at(-1)?.batch).toEqual([7]);
    calls[2]?.done();
    await expect(finished).resolves.toEqual([]);
  });

  it('files fewer than a batch in one call at the end, and nothing when nothing landed', async () => {
    const { calls, file } = controlledFiling();
    const filer = new Filer(file, 20);
    filer.add(landed(0));
    filer.add(landed(1));
    const finished = filer.finish(false);
    await tick();
    expect(calls.map((c) => c.batch)).toEqual([[0, 1]]);
    calls[0]?.done();
    await finished;
    const empty = controlledFiling();
    await expect(new Filer(empty.file, 20).finish(false)).resolves.toEqual([]);
    expect(empty.calls).toHaveLength(0);
  });

  it('files at most MOST_PER_CALL files in one call', async () => {
    const { calls, file } = controlledFiling();
    const filer = new Filer(file, 1);
    filer.add(landed(0));
    for (let i = 1; i <= MOST_PER_CALL + 1; i++) filer.add(landed(i));
    calls[0]?.done();
    await tick();
    expect(calls[1]?.batch).toHaveLength(MOST_PER_CALL);
    calls[1]?.done();
    await tick();
    expect(calls[2]?.batch).toEqual([MOST_PER_CALL + 1]);
    calls[2]?.done();
    await filer.finish(false);
  });

  it('cancelled, lets the call in flight end and answers what waits, unfiled', async () => {
    const { calls, file } = controlledFiling();
    const filer = new Filer(file, 2);
    filer.add(landed(0));
    filer.add(landed(1));
    filer.add(landed(2));
    const finished = filer.finish(true);
    await tick();
    calls[0]?.done();
    await expect(finished).resolves.toEqual([landed(2)]);
    expect(calls.map((c) => c.batch)).toEqual([[0, 1]]);
  });

  it('cancelled while a call runs and a full batch waits, files nothing more after that call', async () => {
    const { calls, file } = controlledFiling();
    const filer = new Filer(file, 2);
    filer.add(landed(0));
    filer.add(landed(1));
    // A whole batch lands during the first call: without the cancel, the next call would take it.
    filer.add(landed(2));
    filer.add(landed(3));
    const finished = filer.finish(true);
    await tick();
    calls[0]?.done();
    await expect(finished).resolves.toEqual([landed(2), landed(3)]);
    expect(calls.map((c) => c.batch)).toEqual([[0, 1]]);
    // Nothing landing after the cancel starts a call either.
    filer.add(landed(4));
    filer.add(landed(5));
    await tick();
    expect(calls).toHaveLength(1);
  });
});
