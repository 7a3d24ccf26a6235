import '../telemetry/register.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Controller, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  defineRpc,
  type LookupEmailRequest,
  LookupEmailRequestSchema,
  LookupEmailResponseSchema,
} from '@portico/proto';
import { pino } from 'pino';
import { BusClient } from '../bus/bus-client.js';
import { Rpc } from '../bus/rpc.js';
import { openDatabase } from '../db/database.js';
import { runService } from '../service/run-service.js';
import { createServiceDatabase, uniqueDatabaseName } from '../testing/postgres.js';

/** Waits the milliseconds its email says, then answers them back. */
const slow = defineRpc({
  subject: 'test.drain.slow.v1',
  request: LookupEmailRequestSchema,
  response: LookupEmailResponseSchema,
});

@Controller()
class SlowHandler {
  @Rpc(slow)
  async slow(@Payload() req: LookupEmailRequest) {
    await new Promise((resolve) => setTimeout(resolve, Number(req.email)));
    return { uid: req.email };
  }
}

@Module({ controllers: [SlowHandler] })
class SlowModule {}

describe('a stopping service', () => {
  let nc: NatsConnection;
  let bus: BusClient;
  let databaseUrl: string;
  const servers = () => process.env.TEST_NATS_SERVER_URL as string;
  const start = async () =>
    runService({
      name: 'drain-test',
      natsUrl: servers(),
      healthPort: 0,
      database: openDatabase(databaseUrl, {}, { max: 2 }),
      log: pino({ level: 'silent' }),
      module: () => SlowModule,
    });

  beforeAll(async () => {
    databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('drain'),
    );
    nc = await connect({ servers: servers() });
    bus = new BusClient(nc);
  });
  afterAll(async () => {
    await nc.drain();
  });

  it('answers the requests in progress before it goes, and goes as soon as they are done', async () => {
    const service = await start();
    const answered = bus.request(slow, { email: '2500' }, { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopping = Date.now();
    await service.stop();
    // Waited for the request (about 2.3 s more), not a fixed grace period, and the caller has its answer.
    expect(Date.now() - stopping).toBeGreaterThan(2_000);
    expect(Date.now() - stopping).toBeLessThan(6_000);
    await expect(answered).resolves.toMatchObject({ uid: '2500' });
  });

  it('stops at once when nothing is in progress', async () => {
    const service = await start();
    const stopping = Date.now();
    await service.stop();
    expect(Date.now() - stopping).toBeLessThan(1_500);
  });
});
