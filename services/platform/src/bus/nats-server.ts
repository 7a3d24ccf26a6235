import type { NatsConnection } from '@nats-io/transport-node';
import { type NatsOptions, ServerNats } from '@nestjs/microservices';
import { BusReplySerializer } from './reply-body.serializer.js';

/**
 * Nest's NATS transport, finding handlers by plain subject. The stock lookup first tries the subject
 * as JSON (for object patterns), and every plain subject makes that throw: an Error with its stack
 * trace per message. Portico's patterns are all plain subjects.
 */
export class SubjectNatsServer extends ServerNats {
  constructor(options: NatsOptions['options']) {
    // Replies with a body field (reply-body.ts) go out as JSON and text.
    super({ serializer: new BusReplySerializer(), ...options });
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

  override getRouteFromPattern(pattern: string): string {
    const first = pattern.trimStart()[0];
    return first === '{' || first === '[' || first === '"'
      ? super.getRouteFromPattern(pattern)
      : this.normalizePattern(pattern);
  }
}
