import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@portico/platform';
import type { FastifyInstance } from 'fastify';
import type { GatewayResources } from '../app.module.js';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { configureGatewayApp, createNestApp } from '../gateway.app.js';
import { CLIENT_ERRORS_BODY_LIMIT_BYTES } from '../rate-limit/client-errors-rate-limit.js';
import { clientKey } from '../rate-limit/client-key.js';
import { RATE_LIMIT_KEYS_PER_LIMIT } from '../rate-limit/route-limits.js';
import { accountKeyOf } from '../sessions/sessions.schemas.js';

/** The gateway's routes and limits without NATS (nothing here reaches a service), driven by inject. */
async function gatewayWith(env: Record<string, string>) {
  const resources: GatewayResources = {
    config: loadGatewayConfig({ NODE_ENV: 'development', ...env }),
    nc: {} as NatsConnection,
    log: createLogger('gateway', 'silent'),
  };
  const app: NestFastifyApplication = await createNestApp(resources);
  await configureGatewayApp(app, resources);
  return app;
}

const report = { kind: 'render', message: 'Boom', page: '/documents' };

function sendReport(fastify: FastifyInstance, from: string, body: unknown = report) {
  return fastify
    .inject({ method: 'POST', url: '/client_errors', remoteAddress: from, payload: body as object })
    .then((res) => res.statusCode);
}

describe('the address a limit counts', () => {
  it("is the address's group (platform's addressGroup): an IPv6 address by its /64, IPv4 as itself", () => {
    expect(clientKey({ ip: '2001:db8:1:2:aaaa:bbbb:cccc:dddd' })).toBe('2001:db8:1:2::/64');
    expect(clientKey({ ip: 'fe80::1%eth0' })).toBe('fe80:0:0:0::/64');
    expect(clientKey({ ip: '::ffff:192.0.2.1' })).toBe('192.0.2.1');
    // Text a trusted proxy forwarded that is no address at all is kept short.
    expect(clientKey({ ip: `X${'x'.repeat(1_000)}` })).toHaveLength(45);
  });

  it('keeps an email of an account key no longer than any address', () => {
    expect(accountKeyOf({ email: `${'a'.repeat(2_000)}@example.com` }, 'email')).toHaveLength(
      'email:'.length + 320,
    );
  });
});

describe('limits per address, counting one IPv6 network as one address', () => {
  let app: NestFastifyApplication;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    app = await gatewayWith({
      RATE_LIMIT_IP_MAX: '1',
      RATE_LIMIT_ACCOUNT_MAX: '100',
      RATE_LIMIT_SESSION_UPKEEP_IP_MAX: '1',
      RATE_LIMIT_PUBLIC_UPLOAD_IP_MAX: '1',
      RATE_LIMIT_CLIENT_ERRORS_IP_MAX: '1',
      // Out of the way: past it every report is refused whatever its address's counter says.
      RATE_LIMIT_CLIENT_ERRORS_TOTAL_MAX: '1000000',
    });
    fastify = app.getHttpAdapter().getInstance();
  });

  afterAll(async () => {
    await app?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, from: string, payload?: object) =>
    fastify.inject({ method, url, remoteAddress: from, payload }).then((res) => res.statusCode);

  it('on sign-in, session upkeep, the public drop-off routes and error reports', async () => {
    const routes: Array<[string, (from: string) => Promise<number>]> = [
      [
        'sign-in',
        (from) => call('POST', '/sessions/forgot_password', from, { email: `${from}@example.com` }),
      ],
      ['upkeep', (from) => call('POST', '/sessions/refresh', from, { refresh_token: 'r' })],
      ['drop-off', (from) => call('GET', '/integrations/secure_upload/demo-cpa', from)],
      ['error reports', (from) => sendReport(fastify, from)],
    ];
    for (const [name, send] of routes) {
      const net = `2001:db8:${name.length}:1`;
      expect([name, await send(`${net}::1`)]).not.toEqual([name, 429]);
      // Another address of the same /64 is the same client...
      expect([name, await send(`${net}:ffff:ffff:ffff:fffe`)]).toEqual([name, 429]);
      // ...another /64 is not.
      expect([name, await send(`2001:db8:${name.length}:2::1`)]).not.toEqual([name, 429]);
      // An IPv4 client is the same whether the server sees it mapped into IPv6 or not.
      const v4 = `198.51.100.${name.length}`;
      expect([name, await send(v4)]).not.toEqual([name, 429]);
      expect([name, await send(`::ffff:${v4}`)]).toEqual([name, 429]);
    }
  });

  it("remembers a limited address while many others come and go (a victim's counter is not evicted)", async () => {
    const victim = '203.0.113.7';
    expect(await sendReport(fastify, victim)).toBe(204);
    expect(await sendReport(fastify, victim)).toBe(429);
    // More addresses than the rate-limit plugin's default of 5,000 keys, each sending one report.
    const churn = 6_000;
    expect(churn).toBeLessThan(RATE_LIMIT_KEYS_PER_LIMIT);
    for (let i = 0; i < churn; i++)
      await sendReport(fastify, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, {});
    expect(await sendReport(fastify, victim)).toBe(429);
  }, 120_000);
});

describe('limits per account named from one address', () => {
  it('count one IPv6 network as one address', async () => {
    const app = await gatewayWith({ RATE_LIMIT_IP_MAX: '1000', RATE_LIMIT_ACCOUNT_MAX: '1' });
    try {
      const fastify = app.getHttpAdapter().getInstance();
      const lookup = (from: string) =>
        fastify
          .inject({
            method: 'POST',
            url: '/sessions/forgot_password',
            remoteAddress: from,
            payload: { email: 'victim@example.com' },
          })
          .then((res) => res.statusCode);
      expect(await lookup('2001:db8:5:1::1')).not.toBe(429);
      expect(await lookup('2001:db8:5:1::2')).toBe(429);
      expect(await lookup('2001:db8:5:2::1')).not.toBe(429);
    } finally {
      await app.close();
    }
  });

  it('keep their keys, not the long emails the keys were cut from', async () => {
    const app = await gatewayWith({ RATE_LIMIT_IP_MAX: '1000', RATE_LIMIT_ACCOUNT_MAX: '1000' });
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    try {
      const fastify = app.getHttpAdapter().getInstance();
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      // Each a new account, named by an email of most of a megabyte: two limits key it, cut to 320.
      const requests = 32;
      for (let i = 0; i < requests; i++) {
        await fastify.inject({
          method: 'POST',
          url: '/sessions/forgot_password',
          remoteAddress: '192.0.2.40',
          payload: { email: `${i}${'a'.repeat(900_000)}@example.com` },
        });
      }
      collectGarbage();
      // Keys holding their emails would keep 2 x 32 x 900 KB, over 50 MB.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(10 * 2 ** 20);
    } finally {
      await app.close();
    }
  });
});

describe('error reports of the portal pages', () => {
  let app: NestFastifyApplication;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    app = await gatewayWith({
      RATE_LIMIT_CLIENT_ERRORS_IP_MAX: '30',
      RATE_LIMIT_CLIENT_ERRORS_TOTAL_MAX: '3',
    });
    fastify = app.getHttpAdapter().getInstance();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('refuses a report over 32 KB with 413, and takes the largest valid one', async () => {
    const largest = {
      kind: 'render',
      message: 'm'.repeat(1_000),
      stack: 's'.repeat(8_000),
      component_stack: 'c'.repeat(8_000),
      page: `/${'p'.repeat(999)}`,
      area: 'documents',
    };
    expect(await sendReport(fastify, '192.0.2.10', largest)).toBe(204);
    const oversized = { ...report, stack: 's'.repeat(CLIENT_ERRORS_BODY_LIMIT_BYTES) };
    const res = await fastify.inject({
      method: 'POST',
      url: '/client_errors',
      remoteAddress: '192.0.2.11',
      payload: oversized,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 429 past the limit of all addresses together, each address within its own', async () => {
    const ownApp = await gatewayWith({
      RATE_LIMIT_CLIENT_ERRORS_IP_MAX: '30',
      RATE_LIMIT_CLIENT_ERRORS_TOTAL_MAX: '2',
    });
    try {
      const own = ownApp.getHttpAdapter().getInstance();
      expect(await sendReport(own, '192.0.2.20')).toBe(204);
      expect(await sendReport(own, '192.0.2.21')).toBe(204);
      expect(await sendReport(own, '2001:db8:9::1')).toBe(429);
    } finally {
      await ownApp.close();
    }
  });
});
