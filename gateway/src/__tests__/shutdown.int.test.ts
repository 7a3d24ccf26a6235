import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { waitFor } from '@portico/platform/testing';
import { Identity } from '@portico/proto';
import { startGateway } from '../testing/start-gateway.js';
import { type Received, respond } from './support/responders.js';

describe('gateway: graceful shutdown', () => {
  let nc: NatsConnection;
  let slow: { received: Received[]; stop: () => void };

  beforeAll(async () => {
    nc = await connect({ servers: process.env.TEST_NATS_SERVER_URL as string });
    slow = respond(nc, Identity.firmThemeBySlug, () => ({
      delayMs: 600,
      response: { name: 'Demo CPA' },
    }));
  });

  afterAll(async () => {
    slow.stop();
    await nc.drain();
  });

  it('turns readiness to 503, finishes the request in flight, then closes NATS', async () => {
    const gateway = await startGateway({
      natsUrl: process.env.TEST_NATS_SERVER_URL as string,
      env: { SHUTDOWN_DELAY_MS: '300' },
    });
    expect((await fetch(`${gateway.url}/health/ready`)).status).toBe(200);
    const inFlight = fetch(`${gateway.url}/firms/get_firm_theme_by_slug?slug=demo`);
    // Stopped once the service has the request, so it is in flight (its answer 600 ms away).
    await waitFor(async () => slow.received.length > 0, 5_000, 'the service to receive the request');
    const stopped = gateway.stop();
    const ready = await fetch(`${gateway.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'Demo CPA' });
    await stopped;
    expect(gateway.nc.isClosed()).toBe(true);
    await expect(fetch(`${gateway.url}/health/live`)).rejects.toThrow();
  });
});
