import '@portico/platform/telemetry';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '@portico/platform';
import { Documents, Identity } from '@portico/proto';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { type RunningGateway, runGateway } from '../run-gateway.js';
import { advisorClaims, createTestKey, type TestKey } from './support/keys.js';
import { ok, respond } from './support/responders.js';

const TIMEOUT_MS = 1_000;

/** A whole folder is read within one call's time, however many pages it takes. */
describe('gateway: a folder listing read a page at a time', () => {
  let nc: NatsConnection;
  let gateway: RunningGateway;
  let key: TestKey;
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    nc = await connect({ servers: natsUrl });
    key = await createTestKey('key-1');
    stops.push(respond(nc, Identity.jwks, () => ok({ keys: [key.publicJwk] })).stop);
    // A service that is slow and never reaches the last page (a page token that always leads on).
    stops.push(
      respond(nc, Documents.getDocuments, () => ({
        delayMs: TIMEOUT_MS * 0.4,
        response: { path: '/', next_page_token: 'more', count: 0 },
      })).stop,
    );
    const config = loadGatewayConfig({
      NATS_URL: natsUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    gateway = await runGateway(config, createLogger('gateway', 'silent'));
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const stop of stops) stop();
    await nc?.close();
  });

  it.each([false, true])('answers 504 once one call’s time has run out (lean: %s)', async (lean) => {
    // Signed before the clock starts: what is timed is the gateway's answer.
    const authorization = `Bearer ${await key.sign(advisorClaims)}`;
    const started = Date.now();
    const res = await fetch(`${gateway.url}/integrations/get_documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ companyId: '0b6f2f5e-4c43-4f0e-9a0e-6f4f3d9b8a11', path: '/', lean }),
    });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { message: string }).message).toBe(
      'The service did not answer in time. Please try again.',
    );
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2);
  });
});
