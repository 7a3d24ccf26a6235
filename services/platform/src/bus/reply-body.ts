import type { Msg } from '@nats-io/transport-node';

/**
 * Replies whose large text field travels as the message body (`RpcContract.bodyField`): the rest of the
 * reply is JSON at the start of the body, its byte length in a header, and the text follows as UTF-8.
 * A caller says it reads such replies with ACCEPTS_BODY_FIELD; other callers get the usual envelope.
 * The serializer that writes them is in reply-body.serializer.ts (the server side: it needs Nest).
 */
export const ACCEPTS_BODY_FIELD = 'Portico-Accepts-Body-Field';
export const BODY_FIELD = 'Portico-Body-Field';
export const JSON_BYTES = 'Portico-Json-Bytes';

/** A reply whose `field` goes as the body. Serialised as the usual envelope by any other serializer. */
export class BodyFieldReply {
  constructor(
    readonly rest: Record<string, unknown>,
    readonly field: string,
    readonly text: string,
  ) {}

  toJSON() {
    return { ...this.rest, [this.field]: this.text };
  }
}

/** The reply as the handler's JSON, or with `field` as the body when the caller accepts it and it is set. */
export function replyWithBodyField(json: unknown, field: string | undefined, accepted: boolean): unknown {
  if (!field || !accepted || typeof json !== 'object' || json === null) return json;
  const { [field]: text, ...rest } = json as Record<string, unknown>;
  return typeof text === 'string' && text !== '' ? new BodyFieldReply(rest, field, text) : json;
}

export interface ReplyPacket {
  err?: unknown;
  response?: Record<string, unknown>;
}

/**
 * The reply packet of a message and, when its body field came as the body, that field's UTF-8 bytes
 * (left out of the packet's response).
 */
export function readReplyParts(msg: Msg): { packet: ReplyPacket; field?: string; bytes?: Uint8Array } {
  const field = msg.headers?.get(BODY_FIELD);
  if (!field) return { packet: msg.json() };
  const split = Number(msg.headers?.get(JSON_BYTES));
  const packet = JSON.parse(new TextDecoder().decode(msg.data.subarray(0, split)));
  return { packet, field, bytes: msg.data.subarray(split) };
}
