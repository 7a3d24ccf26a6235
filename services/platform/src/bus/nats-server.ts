import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { type NatsOptions, ServerNats } from '@nestjs/microservices';
import { BusReplySerializer } from './reply-body.serializer.js';
import { rpcRequestsInProgress } from './rpc.js';

/**
 * Nest's NATS transport, finding handlers by plain subject. The stock lookup first tries the subject
 * as JSON (for object patterns), and every plain subject makes that throw: an Error with its stack
 * trace per message. Portico's patterns are all plain subjects.
 */
export class SubjectNatsServer extends ServerNats {
  constructor(options: NatsOptions['options']) {
    // Replies with a body field (reply-body.ts) go out as JSON and text.
    super({ serializer: new BusReplySerializer(), ...options });
    // Nest's graceful close unsubscribes, then waits its whole grace period, whatever is running: with
    // the 2 s it had, a zip or an upload's processing under way when a pod stopped lost its reply (and
    // its work could still commit). It now waits until the requests in progress are done, up to the
    // grace period, and not a moment longer. (A private method of the base class, hence the shadowing.)
    const gracePeriodMs = Number(options?.gracePeriod ?? 10_000);
    Object.defineProperty(this, 'waitForGracePeriod', {
      value: () => untilIdle(gracePeriodMs, () => this.receiving),
    });
  }

  /**
   * Requests received and not yet handed to their handler (being decoded, passing guards): the count of
   * requests in progress (rpc.ts) starts only there, and a close that looked at it alone went on while
   * these were on their way and closed the connection their replies needed.
   */
  private receiving = 0;

  override async handleMessage(channel: string, message: Msg): Promise<unknown> {
    this.receiving++;
    try {
      return await super.handleMessage(channel, message);
    } finally {
      this.receiving--;
    }
  }

  /**
   * Ready only once the NATS server has the subscriptions: they are sent asynchronously, and a request
   * from another connection right after start-up (another replica, a test) found no responder (503).
   */
  override start(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    const client = this.unwrap<NatsConnection>();
    this.bindEvents(client);
    client.flush().then(() => callback(), callback);
  }

  /**
   * Stops taking requests by draining the subscriptions rather than unsubscribing them: a drain first
   * hands over the requests the NATS server had already sent this pod, where an unsubscribe dropped
   * them at once and their callers waited out their whole timeout (504) instead of being answered.
   * Then Nest's close waits for the requests in progress (above) and closes the connection.
   */
  override async close(): Promise<void> {
    const subscriptions = (this as unknown as { subscriptions?: Subscription[] }).subscriptions ?? [];
    await Promise.all(subscriptions.map((sub) => sub.drain().catch(() => undefined)));
    return super.close();
  }

  override getRouteFromPattern(pattern: string): string {
    const first = pattern.trimStart()[0];
    return first === '{' || first === '[' || first === '"'
      ? super.getRouteFromPattern(pattern)
      : this.normalizePattern(pattern);
  }
}

/** Resolves once no request is received or in progress, or after `limitMs`. */
async function untilIdle(limitMs: number, receiving: () => number): Promise<void> {
  const until = Date.now() + limitMs;
  while ((receiving() > 0 || rpcRequestsInProgress() > 0) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 25));
}
