import type { Logger } from 'pino';

/** A job started by `startRepeating`. */
export interface Repeating {
  /** Clears the timer (no run starts after it) and waits for the run in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `run` at once (on the next turn of the event loop) and then every `everyMs`, each run's timer set
 * as it starts: for a housekeeping job (a retention pass each hour) started in a Nest module's
 * `onApplicationBootstrap` and stopped, awaited, in its `onApplicationShutdown`. `run` handles its own
 * failures (`loggedStep`).
 */
export function startRepeating(run: () => Promise<unknown>, everyMs: number): Repeating {
  let running: Promise<unknown> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = run();
    timer = setTimeout(tick, everyMs);
    timer.unref();
  };
  timer = setTimeout(tick, 0);
  // A background job: its timer does not keep the process alive.
  timer.unref();
  return {
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * One step of a repeating job's pass: what `work` counts, or, when it fails, 0 with `failure` logged at
 * error, so the pass's other steps run whatever became of it and the next pass takes it up again.
 */
export async function loggedStep(log: Logger, failure: string, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (err) {
    log.error({ err }, failure);
    return 0;
  }
}
