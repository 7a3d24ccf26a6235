import {
  create,
  type DescMessage,
  fromJson,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
  toJson,
} from '@bufbuild/protobuf';
import type { NatsConnection } from '@nats-io/transport-node';
import type { SignalContract } from '@portico/proto';
import type { Logger } from 'pino';
import { WIRE_JSON } from './bus-client.js';

/**
 * Sends a signal on core NATS: no outbox, no stream, no acknowledgement. For what only matters at once
 * (how far a zip has come); a signal nobody hears, or one lost with a connection, is simply gone. A
 * connection that is closing drops it rather than failing the work that sent it.
 */
export function sendSignal<M extends DescMessage>(
  nc: NatsConnection,
  contract: SignalContract<M>,
  payload: MessageInitShape<M>,
): void {
  if (nc.isClosed() || nc.isDraining()) return;
  const message = create(contract.message, payload);
  try {
    nc.publish(contract.subject, JSON.stringify(toJson(contract.message, message, WIRE_JSON)));
  } catch {
    // Best effort by design: the work goes on without its signal.
  }
}

/**
 * Hears every signal of a contract (no queue group: each replica hears all, and keeps what concerns the
 * connections it holds). A malformed signal is logged and skipped.
 */
export function subscribeSignal<M extends DescMessage>(
  nc: NatsConnection,
  contract: SignalContract<M>,
  handle: (signal: MessageShape<M>) => void,
  log: Logger,
): { stop: () => void } {
  const subscription = nc.subscribe(contract.subject, {
    callback: (err, msg) => {
      if (err) return log.warn({ err, subject: contract.subject }, 'Signal subscription failed');
      try {
        handle(fromJson(contract.message, msg.json<JsonValue>(), { ignoreUnknownFields: true }));
      } catch (error) {
        log.warn({ err: error, subject: contract.subject }, 'Signal skipped');
      }
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
