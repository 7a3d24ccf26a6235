import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type { INestMicroservice } from '@nestjs/common';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import {
  defineRpc,
  type LookupEmailRequest,
  LookupEmailRequestSchema,
  LookupEmailResponseSchema,
} from '@portico/proto';
import type { Actor } from '../auth/actor.js';
import { ACTOR_HEADER, encodeActor } from '../auth/actor.js';
import { BusClient } from '../bus/bus-client.js';
import { SubjectNatsServer } from '../bus/nats-server.js';
import { ACCEPTS_BODY_FIELD } from '../bus/reply-body.js';
import { Rpc } from '../bus/rpc.js';
import { AppError } from '../errors/app-error.js';

/** A contract whose `preferred_sign_in_method` plays the large text field. */
const big = defineRpc({
  subject: 'test.body.big.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
  bodyField: 'preferred_sign_in_method',
});

/** Quotes, backslashes, newlines, non-ASCII and astral characters, about 3 MB. */
const TEXT = `{"name":"Ré\\"sumé \u{1F600}","path":"C:\\\\x"}\n`.repeat(70_000);

@Controller()
class BigHandler {
  @Rpc(big)
  run(@Payload() req: LookupEmailRequest) {
    if (req.email === 'missing@example.com') throw new AppError('not_found', 'gone', 'Not there');
    return {
      uid: 'u"1',
      accountantId: 'é',
      preferredSignInMethod: req.email === 'empty@example.com' ? '' : TEXT,
    };
  }
}

@Module({ controllers: [BigHandler] })
class BigModule {}

/** `call` again while it answers 503 (no responder yet), for up to 5 seconds. */
async function untilSubscribed<T>(call: () => Promise<T>): Promise<T> {
  for (const started = Date.now(); ; ) {
    try {
      return await call();
    } catch (err) {
      if ((err as AppError).status !== 503 || Date.now() - started > 5_000) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const actor: Actor = { user_id: 'u1', firm_id: 'f1', role: 'advisor', firm_access: 'partner' };

async function service(strategy: 'portico' | 'stock', servers: string) {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(
    BigModule,
    strategy === 'portico'
      ? { strategy: new SubjectNatsServer({ servers, queue: `body-${strategy}` }), logger: false }
      : { transport: Transport.NATS, options: { servers, queue: `body-${strategy}` }, logger: false },
  );
  await app.listen();
  return app;
}

describe('bus: a large text field as the reply body', () => {
  let nc: NatsConnection;
  let bus: BusClient;
  const servers = process.env.TEST_NATS_SERVER_URL as string;

  beforeAll(async () => {
    nc = await connect({ servers });
    bus = new BusClient(nc);
  });
  afterAll(async () => {
    await nc.drain();
  });

  describe('from a Portico service', () => {
    let app: INestMicroservice;
    beforeAll(async () => {
      app = await service('portico', servers);
    });
    afterAll(async () => {
      await app.close();
    });

    it('hands the caller the same reply, the text intact', async () => {
      const reply = await bus.request(big, { email: 'a@b.co' }, { actor });
      expect(reply).toMatchObject({ uid: 'u"1', accountantId: 'é' });
      expect(reply.preferredSignInMethod === TEXT).toBe(true);
    });

    it('hands a caller that passes the text on its UTF-8 bytes, the field left empty', async () => {
      const { message, body } = await bus.requestWithBody(big, { email: 'a@b.co' }, { actor });
      expect(message).toMatchObject({ uid: 'u"1', accountantId: 'é', preferredSignInMethod: '' });
      expect(Buffer.from(body).equals(Buffer.from(TEXT))).toBe(true);
    });

    it('sends the text unescaped after the rest of the reply to a caller that accepts it', async () => {
      const h = headers();
      h.set(ACTOR_HEADER, encodeActor(actor));
      h.set(ACCEPTS_BODY_FIELD, '1');
      const body = JSON.stringify({ pattern: big.subject, id: '1', data: { email: 'a@b.co' } });
      const msg = await nc.request(big.subject, body, { headers: h, timeout: 5_000 });
      expect(msg.headers?.get('Portico-Body-Field')).toBe('preferred_sign_in_method');
      const split = Number(msg.headers?.get('Portico-Json-Bytes'));
      expect(msg.data.length - split).toBe(Buffer.byteLength(TEXT));
      expect(JSON.parse(Buffer.from(msg.data.subarray(0, split)).toString()).response).toMatchObject({
        uid: 'u"1',
      });
    });

    it('answers other callers with the usual envelope', async () => {
      const h = headers();
      h.set(ACTOR_HEADER, encodeActor(actor));
      const body = JSON.stringify({ pattern: big.subject, id: '1', data: { email: 'a@b.co' } });
      const msg = await nc.request(big.subject, body, { headers: h, timeout: 5_000 });
      expect(msg.headers?.get('Portico-Body-Field') ?? '').toBe('');
      expect(
        msg.json<{ response: { preferred_sign_in_method: string } }>().response.preferred_sign_in_method ===
          TEXT,
      ).toBe(true);
    });

    it('keeps an empty field and errors in the envelope', async () => {
      await expect(bus.request(big, { email: 'empty@example.com' }, { actor })).resolves.toMatchObject({
        uid: 'u"1',
        preferredSignInMethod: '',
      });
      await expect(bus.request(big, { email: 'missing@example.com' }, { actor })).rejects.toMatchObject({
        status: 404,
        message: 'Not there',
      });
    });
  });

  it("reads the envelope of a service on Nest's own serializer, which sends the field inside it", async () => {
    const app = await service('stock', servers);
    try {
      // Nest's own server sends its subscriptions without waiting for them (SubjectNatsServer does).
      const reply = await untilSubscribed(() => bus.request(big, { email: 'a@b.co' }, { actor }));
      expect(reply.preferredSignInMethod === TEXT).toBe(true);
      const { body } = await bus.requestWithBody(big, { email: 'a@b.co' }, { actor });
      expect(Buffer.from(body).equals(Buffer.from(TEXT))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
