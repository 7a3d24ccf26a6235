import { headers as natsHeaders } from '@nats-io/transport-node';
import { NatsRecordSerializer } from '@nestjs/microservices/serializers/nats-record.serializer.js';
import { BODY_FIELD, BodyFieldReply, JSON_BYTES } from './reply-body.js';

/** Nest's NATS serializer, sending a BodyFieldReply as JSON and text instead of one escaped envelope. */
export class BusReplySerializer extends NatsRecordSerializer {
  override serialize(packet: { response?: unknown; err?: unknown; [key: string]: unknown }) {
    const reply = packet?.response;
    if (!(reply instanceof BodyFieldReply) || packet.err) return super.serialize(packet);
    const json = Buffer.from(JSON.stringify({ ...packet, response: reply.rest }));
    const h = natsHeaders();
    h.set(BODY_FIELD, reply.field);
    h.set(JSON_BYTES, String(json.length));
    // One buffer written in place: the text is megabytes, a concat would copy it once more.
    const data = Buffer.allocUnsafe(json.length + Buffer.byteLength(reply.text));
    json.copy(data);
    data.write(reply.text, json.length);
    return { data, headers: h };
  }
}
