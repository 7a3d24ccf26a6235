import '../telemetry/register.js';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import type { INestMicroservice } from '@nestjs/common';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import { context, trace } from '@opentelemetry/api';
import {
  defineRpc,
  type LookupEmailRequest,
  LookupEmailRequestSchema,
  LookupEmailResponseSchema,
} from '@portico/proto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ACTOR_HEADER, type Actor, encodeActor } from '../auth/actor.js';
import { BusClient } from '../bus/bus-client.js';
import { SERVICE_TIMEOUT_MESSAGE, SERVICE_UNAVAILABLE_MESSAGE } from '../bus/deadline.js';
import { CurrentActor, Rpc, rpcLog } from '../bus/rpc.js';
import { AppError } from '../errors/app-error.js';
import { inSpan, SpanKind } from '../telemetry/propagation.js';
import { capturedLog } from '../testing/captured-log.js';
import { startNatsServer } from '../testing/nats.js';

const echo = defineRpc({
  subject: 'test.echo.run.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});
const slow = defineRpc({
  subject: 'test.echo.slow.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});
const nobody = defineRpc({
  subject: 'test.echo.nobody.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});

const actor: Actor = { user_id: 'u1', firm_id: 'f1', role: 'advisor', firm_access: 'partner' };

/** A logger whose lines a test reads: the RPC layer's lines are sent to it while a test spies on them. */
const capturedRpcLog = () => capturedLog('rpc');

@Controller()
class EchoHandler {
  @Rpc(echo)
  async run(@Payload() req: LookupEmailRequest, @CurrentActor() who: Actor) {
    if (req.email === 'nodb@example.com') {
      // A database that refuses connections (nothing listens on port 1).
      const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
      try {
        await pool.query('select 1');
      } finally {
        await pool.end();
      }
    }
    if (req.email === 'poolbusy@example.com') {
      // A pool whose one connection another request holds past the pool's wait.
      const pool = new pg.Pool({
        connectionString: process.env.TEST_PG_ADMIN_URL,
        max: 1,
        connectionTimeoutMillis: 100,
      });
      const held = await pool.connect();
      try {
        await pool.query('select 1');
      } finally {
        held.release();
        await pool.end();
      }
    }
    if (req.email === 'deadlock@example.com') {
      // Two transactions taking the same two rows in opposite orders: the database ends one of them.
      const pool = new pg.Pool({ connectionString: process.env.TEST_PG_ADMIN_URL, max: 2 });
      const [a, b] = [await pool.connect(), await pool.connect()];
      try {
        await a.query('create table if not exists deadlock_probe (id int primary key)');
        await a.query('insert into deadlock_probe values (1), (2) on conflict do nothing');
        await Promise.all([a.query('begin'), b.query('begin')]);
        await a.query('update deadlock_probe set id = id where id = 1');
        await b.query('update deadlock_probe set id = id where id = 2');
        const outcomes = await Promise.allSettled([
          a.query('update deadlock_probe set id = id where id = 2'),
          b.query('update deadlock_probe set id = id where id = 1'),
        ]);
        const ended = outcomes.find((o) => o.status === 'rejected');
        if (ended) throw ended.reason;
      } finally {
        await Promise.all([a.query('rollback'), b.query('rollback')]);
        a.release();
        b.release();
        await pool.end();
      }
    }
    if (req.email === 'missing@example.com')
      throw new AppError('not_found', 'no_user', "Sorry, we couldn't find a user with that email address");
    if (req.email === 'boom@example.com') throw new Error('database password is hunter2');
    if (req.email.includes('\u0000')) {
      // The text sent to the real database through the query builder, as a service stores it: what comes
      // back is PostgreSQL's own refusal of NUL, wrapped the way the query builder wraps it.
      const pool = new pg.Pool({ connectionString: process.env.TEST_PG_ADMIN_URL, max: 1 });
      try {
        await drizzle(pool).execute(sql`select ${req.email}::text`);
      } finally {
        await pool.end();
      }
    }
    return {
      email: undefined,
      uid: who.user_id,
      accountantId: req.email.toUpperCase(),
      preferredSignInMethod: trace.getActiveSpan()?.spanContext().traceId ?? '',
    };
  }

  @Rpc(slow)
  async slow() {
    await new Promise((r) => setTimeout(r, 1_500));
    return { uid: 'late' };
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

describe('bus: request/reply between a client and a NestJS NATS microservice', () => {
  let app: INestMicroservice;
  let nc: NatsConnection;
  let bus: BusClient;

  beforeAll(async () => {
    const servers = process.env.TEST_NATS_SERVER_URL as string;
    app = await NestFactory.createMicroservice<MicroserviceOptions>(EchoModule, {
      transport: Transport.NATS,
      options: { servers, queue: 'test' },
      logger: false,
    });
    await app.listen();
    nc = await connect({ servers });
    bus = new BusClient(nc);
  });

  afterAll(async () => {
    await app.close();
    await nc.drain();
  });

  it('decodes the request, passes the actor header and encodes the reply', async () => {
    const reply = await bus.request(echo, { email: 'a@b.co' }, { actor });
    expect(reply.accountantId).toBe('A@B.CO');
    expect(reply.uid).toBe('u1');
  });

  it('continues the caller trace in the handler', async () => {
    const { traceId, reply } = await inSpan('test', SpanKind.INTERNAL, context.active(), async () => ({
      traceId: trace.getActiveSpan()?.spanContext().traceId,
      reply: await bus.request(echo, { email: 'a@b.co' }, { actor }),
    }));
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.preferredSignInMethod).toBe(traceId);
  });

  it('refuses a call without an actor with 401', async () => {
    await expect(bus.request(echo, { email: 'a@b.co' })).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
  });

  it('carries an AppError with its kind and user-facing message', async () => {
    await expect(bus.request(echo, { email: 'missing@example.com' }, { actor })).rejects.toMatchObject({
      kind: 'not_found',
      message: "Sorry, we couldn't find a user with that email address",
    });
  });

  it('hides an unexpected error behind a generic 500 with no details', async () => {
    const err = (await bus
      .request(echo, { email: 'boom@example.com' }, { actor })
      .catch((e) => e)) as AppError;
    expect(err.kind).toBe('internal');
    expect(err.message).toBe('Something went wrong');
    expect(JSON.stringify(err)).not.toContain('hunter2');
    expect(err.extra.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers 503 with a trace id, not 500, when the database cannot be reached', async () => {
    const err = (await bus
      .request(echo, { email: 'nodb@example.com' }, { actor })
      .catch((e) => e)) as AppError;
    expect(err).toMatchObject({
      kind: 'unavailable',
      message: 'The service is not available right now. Please try again.',
    });
    expect(err.extra.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(err)).not.toContain('127.0.0.1');
  });

  it('answers 503 overloaded, not database unavailable, when no pooled connection came free in time', async () => {
    const { lines, logger } = capturedRpcLog();
    const warn = jest.spyOn(rpcLog, 'warn').mockImplementation(((...args: never[]) => {
      (logger.warn as (...a: never[]) => void)(...args);
    }) as never);
    const error = jest.spyOn(rpcLog, 'error').mockImplementation(((...args: never[]) => {
      (logger.error as (...a: never[]) => void)(...args);
    }) as never);
    try {
      const err = (await bus
        .request(echo, { email: 'poolbusy@example.com' }, { actor })
        .catch((e) => e)) as AppError;
      expect(err).toMatchObject({ status: 503, code: 'overloaded', message: SERVICE_UNAVAILABLE_MESSAGE });
      expect(err.extra.traceId).toMatch(/^[0-9a-f]{32}$/);
      // Logged as this replica being busy, with its trace id; not as the database being down.
      expect(lines.map((l) => l.msg)).toEqual(['Overloaded: no database connection came free in time']);
      expect(lines[0]).toMatchObject({ level: 'warn', trace_id: err.extra.traceId });
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('answers 503, to be sent again, when the database ends the transaction to break a deadlock', async () => {
    const err = (await bus
      .request(echo, { email: 'deadlock@example.com' }, { actor })
      .catch((e) => e)) as AppError;
    expect(err).toMatchObject({
      status: 503,
      code: 'transaction_conflict',
      message: SERVICE_UNAVAILABLE_MESSAGE,
    });
  });

  it('answers 400 for text the database cannot store, not 500', async () => {
    await expect(bus.request(echo, { email: 'a\u0000b' }, { actor })).rejects.toMatchObject({
      kind: 'bad_request',
      code: 'invalid_text',
      message: 'Must not contain control characters',
    });
  });

  it('answers 503 at once when no service listens', async () => {
    const started = Date.now();
    await expect(bus.request(nobody, { email: 'x@y.zz' }, { actor })).rejects.toMatchObject({
      status: 503,
      // The user reads no subject name; the log line has it.
      message: SERVICE_UNAVAILABLE_MESSAGE,
    });
    // Far sooner than any timeout (5 s by default), with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 503 at once past its queue of waiting requests, instead of queueing without end', async () => {
    process.env.RPC_QUEUE_LIMIT = '4';
    try {
      // 64 handlers at once (RPC_CONCURRENCY), four waiting: the rest are refused.
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 80 }, () =>
          bus.request(slow, { email: 'x@y.zz' }, { actor, timeoutMs: 8_000 }).then(
            () => ({ status: 200, at: Date.now() - started }),
            (err: AppError) => ({ status: err.status, at: Date.now() - started }),
          ),
        ),
      );
      const refused = outcomes.filter((o) => o.status === 503);
      expect(outcomes.filter((o) => o.status === 200)).toHaveLength(68);
      expect(refused).toHaveLength(12);
      // Refused as they came, not after waiting for a slot (each handler takes 1.5 s).
      for (const o of refused) expect(o.at).toBeLessThan(1_400);
    } finally {
      delete process.env.RPC_QUEUE_LIMIT;
    }
  });

  it('logs a request refused past its queue with the caller’s trace id, which the answer carries too', async () => {
    process.env.RPC_QUEUE_LIMIT = '0';
    const { lines, logger } = capturedRpcLog();
    const warn = jest.spyOn(rpcLog, 'warn').mockImplementation(((...args: never[]) => {
      (logger.warn as (...a: never[]) => void)(...args);
    }) as never);
    try {
      const { traceId, err } = await inSpan('caller', SpanKind.INTERNAL, context.active(), async () => ({
        traceId: trace.getActiveSpan()?.spanContext().traceId,
        err: (await bus.request(echo, { email: 'a@b.co' }, { actor }).catch((e) => e)) as AppError,
      }));
      expect(err).toMatchObject({ status: 503, code: 'overloaded' });
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(err.extra.traceId).toBe(traceId);
      expect(lines.find((l) => l.msg === 'Overloaded: refused a request')).toMatchObject({
        trace_id: traceId,
      });
    } finally {
      warn.mockRestore();
      delete process.env.RPC_QUEUE_LIMIT;
    }
  });

  it('answers 504 when the service is slower than the timeout', async () => {
    await expect(bus.request(slow, { email: 'x@y.zz' }, { actor, timeoutMs: 300 })).rejects.toMatchObject({
      status: 504,
      message: SERVICE_TIMEOUT_MESSAGE,
    });
  });

  it('refuses a payload that does not match the request schema with 400', async () => {
    const reply = await nc.request(
      echo.subject,
      JSON.stringify({ pattern: echo.subject, id: '1', data: { email: 42 } }),
      {
        timeout: 2_000,
      },
    );
    // Without the parser's text, which names the contract's types and fields.
    expect(reply.json<{ err: { kind: string; message: string } }>().err).toMatchObject({
      kind: 'bad_request',
      message: 'Invalid request',
    });
  });

  it('reads a request holding a field its contract does not know yet, as a newer caller sends it', async () => {
    const headers = natsHeaders();
    headers.set(ACTOR_HEADER, encodeActor(actor));
    const reply = await nc.request(
      echo.subject,
      JSON.stringify({
        pattern: echo.subject,
        id: '2',
        data: { email: 'newer@caller.test', added_in_a_later_release: '' },
      }),
      { timeout: 2_000, headers },
    );
    const answer = reply.json<{ err?: unknown; response?: { accountant_id?: string } }>();
    expect(answer.err ?? null).toBeNull();
    expect(answer.response?.accountant_id).toBe('NEWER@CALLER.TEST');
  });
});

describe('BusClient while NATS is away', () => {
  /** Resolves on the next status event of that type. */
  async function nextStatus(nc: NatsConnection, type: 'disconnect' | 'reconnect') {
    for await (const status of nc.status()) if (status.type === type) return;
  }

  it('answers 503 at once while the connection is lost (not 504 after the timeout), then works again', async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url, reconnectTimeWait: 100, maxReconnectAttempts: -1 });
    // A responder in the Nest transport's packet format, on the same connection (resubscribed on reconnect).
    const sub = nc.subscribe(echo.subject);
    void (async () => {
      for await (const msg of sub) {
        const { id, data } = msg.json<{ id: string; data: { email: string } }>();
        msg.respond(
          JSON.stringify({ id, response: { accountant_id: data.email.toUpperCase() }, isDisposed: true }),
        );
      }
    })();
    const bus = new BusClient(nc);
    try {
      expect((await bus.request(echo, { email: 'a@b.co' }, { actor })).accountantId).toBe('A@B.CO');

      const lost = nextStatus(nc, 'disconnect');
      await server.pause();
      await lost;
      await expect(
        bus.request(echo, { email: 'a@b.co' }, { actor, timeoutMs: 10_000 }),
      ).rejects.toMatchObject({
        status: 503,
        code: 'bus_disconnected',
        message: SERVICE_UNAVAILABLE_MESSAGE,
      });

      const back = nextStatus(nc, 'reconnect');
      await server.resume();
      await back;
      expect((await bus.request(echo, { email: 'c@d.co' }, { actor })).accountantId).toBe('C@D.CO');
    } finally {
      await nc.close();
      await server.stop();
    }
  });
});
