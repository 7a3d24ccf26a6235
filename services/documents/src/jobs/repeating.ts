/**
 * Runs `work` now and then every `everyMs` in the background (the timer does not keep the process alive).
 * `work` handles its own failures; `stop` clears the timer and waits for a run in progress.
 */
export function startRepeating(work: () => Promise<unknown>, everyMs: number): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = work();
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
