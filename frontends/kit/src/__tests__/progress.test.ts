import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { newProgressId, onProgress, type ProgressUpdate, reportProgress } from '../progress/progress.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('progress of work on the server', () => {
  const unsubscribes: (() => void)[] = [];
  const listen = (id: string) => {
    const heard: ProgressUpdate[] = [];
    unsubscribes.push(onProgress(id, (update) => heard.push(update)));
    return heard;
  };
  afterEach(() => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    jest.restoreAllMocks();
  });

  it("passes each update to its id's listeners only", () => {
    const zip = listen('zip-1');
    const alsoZip = listen('zip-1');
    const other = listen('zip-2');
    reportProgress({ id: 'zip-1', done: 1, total: 5 });
    reportProgress({ id: 'zip-1', done: 3, total: 5 });
    expect(zip).toEqual([
      { id: 'zip-1', done: 1, total: 5 },
      { id: 'zip-1', done: 3, total: 5 },
    ]);
    expect(alsoZip).toEqual(zip);
    expect(other).toEqual([]);
  });

  it('stops passing updates once unsubscribed, the other listeners of the id kept', () => {
    const heard: ProgressUpdate[] = [];
    const stop = onProgress('zip-1', (update) => heard.push(update));
    const kept = listen('zip-1');
    reportProgress({ id: 'zip-1', done: 1, total: 2 });
    stop();
    stop();
    reportProgress({ id: 'zip-1', done: 2, total: 2 });
    expect(heard).toEqual([{ id: 'zip-1', done: 1, total: 2 }]);
    expect(kept).toHaveLength(2);
  });

  it('drops an update nobody listens to, and hears an id listened to again', () => {
    onProgress('zip-1', () => {})();
    expect(() => reportProgress({ id: 'zip-1', done: 1, total: 2 })).not.toThrow();
    const again = listen('zip-1');
    reportProgress({ id: 'zip-1', done: 2, total: 2 });
    expect(again).toEqual([{ id: 'zip-1', done: 2, total: 2 }]);
  });

  it('lets a listener unsubscribe itself while an update is passed on', () => {
    const heard: number[] = [];
    const stop = onProgress('zip-1', (update) => {
      heard.push(update.done);
      stop();
    });
    const other = listen('zip-1');
    reportProgress({ id: 'zip-1', done: 1, total: 2 });
    reportProgress({ id: 'zip-1', done: 2, total: 2 });
    expect(heard).toEqual([1]);
    expect(other).toHaveLength(2);
  });

  it('names work with a new random UUID each time', () => {
    const first = newProgressId();
    expect(first).toMatch(UUID);
    expect(newProgressId()).not.toBe(first);
  });

  it('makes a UUID without randomUUID, which a page that is not a secure context lacks', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = [newProgressId(), newProgressId()];
      expect(ids[0]).toMatch(UUID);
      expect(ids[1]).toMatch(UUID);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
