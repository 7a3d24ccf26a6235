import type { JsonValue } from '@bufbuild/protobuf';
import type { Msg, MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node';
import { type Actor, decodeActor, type WireError } from '@portico/platform';
import type { RpcContract } from '@portico/proto';

export interface Received {
  data: Record<string, JsonValue>;
  actor?: Actor;
  headers?: MsgHdrs;
}

export type Reply = { response: JsonValue } | { err: WireError } | { delayMs: number; response: JsonValue };

/**
 * A stand-in service on a real NATS server: answers one contract's subject in the packet format of the
 * NestJS NATS transport, and records what it received (payload, actor header, trace headers).
 */
export function respond(
  nc: NatsConnection,
  contract: RpcContract,
  answer: (req: Received) => Reply | Promise<Reply>,
): { received: Received[]; stop: () => void } {
  const received: Received[] = [];
  const sub: Subscription = nc.subscribe(contract.subject, {
    callback: (_err, msg) => {
      void answerOne(msg);
    },
  });
  const answerOne = async (msg: Msg) => {
    const packet = msg.json<{ id: string; data: Record<string, JsonValue> }>();
    const req: Received = {
      data: packet.data ?? {},
      actor: decodeActor(msg.headers?.get('x-portico-actor') || undefined),
      headers: msg.headers,
    };
    received.push(req);
    const reply = await answer(req);
    if ('delayMs' in reply) await new Promise((r) => setTimeout(r, reply.delayMs));
    msg.respond(JSON.stringify({ id: packet.id, ...reply, delayMs: undefined, isDisposed: true }));
  };
  return { received, stop: () => sub.unsubscribe() };
}

export const ok = (response: JsonValue): Reply => ({ response });
export const fail = (err: WireError): Reply => ({ err });
