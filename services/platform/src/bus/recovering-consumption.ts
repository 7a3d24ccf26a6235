import type { ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** What `consumeRecovering` needs of one consumer: how to read it, open it again, and what to tell. */
export interface RecoveringConsumption {
  nc: NatsConnection;
  /** The consumer's first iterator, already open. */
  first: ConsumerMessages;
  /** Handles the iterator's messages until it ends; `stopping()` says whether the stop has begun. */
  consume: (messages: ConsumerMessages, stopping: () => boolean) => Promise<void>;
  /** A new iterator once the last was lost (the consumer made again first, where it needs to be). */
  reopen: () => Promise<ConsumerMessages>;
  /** The wait before the n-th try to open it again. */
  delayMs: (attempt: number) => number;
  lost: (err: unknown) => void;
  retryFailed: (err: unknown, attempt: number) => void;
  back: () => void;
}

/**
 * Consumes until stopped. An iterator that ends (normally only on stop; with an error when its consumer
 * or stream is gone, or JetStream refuses) is opened again after a growing delay, for as long as it
 * takes: an error left to the loop's promise alone was an unhandled rejection that ended the process.
 * A closed connection is the process going away: nothing is opened again.
 */
export function consumeRecovering(options: RecoveringConsumption): { stop: () => Promise<void> } {
  const { nc } = options;
  let messages = options.first;
  let stopping = false;
  let wakeUp: () => void = () => undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      // A stop that came during a try to open it again is not kept waiting a whole delay.
      if (stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const over = () => stopping || nc.isClosed();

  const loop = (async () => {
    for (;;) {
      try {
        await options.consume(messages, () => stopping);
        if (over()) return;
        throw new Error('The consumer stopped delivering');
      } catch (err) {
        if (over()) return;
        options.lost(err);
      }
      for (let attempt = 1; ; attempt++) {
        await pause(options.delayMs(attempt));
        if (over()) return;
        try {
          messages = await options.reopen();
          break;
        } catch (err) {
          options.retryFailed(err, attempt);
        }
      }
      if (stopping) {
        await messages.close();
        return;
      }
      options.back();
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      wakeUp();
      await messages.close();
      await loop;
    },
  };
}
