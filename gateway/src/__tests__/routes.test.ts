import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@portico/platform';
import { AppModule, type GatewayResources } from '../app.module.js';
import { AUTH_MODE } from '../auth/auth.decorators.js';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { configureGatewayApp, createNestApp } from '../gateway.app.js';

const prefixes = JSON.parse(
  readFileSync(new URL('../../route-prefixes.json', import.meta.url), 'utf8'),
) as string[];

describe('every route of the gateway', () => {
  const resources: GatewayResources = {
    config: loadGatewayConfig({ NODE_ENV: 'development', DEV_ROUTES_ENABLED: 'true' }),
    nc: {} as NatsConnection,
    log: createLogger('gateway', 'silent'),
  };
  const registered: Array<{ method: string; url: string }> = [];
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createNestApp(resources);
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) registered.push({ method, url: route.url });
      });
    await configureGatewayApp(app, resources);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("answers an address Fastify cannot route in the gateway's error shape", async () => {
    const fastify = app.getHttpAdapter().getInstance();
    const malformed = await fastify.inject({ method: 'GET', url: '/companies/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      error: 'The address is not valid',
      message: 'The address is not valid',
      code: 'invalid_url',
    });
    const long = await fastify.inject({ method: 'GET', url: `/companies/${'x'.repeat(2_100)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ code: 'uri_too_long', error: 'The address is too long' });
    // Answered before any route or hook, with the same headers as every other answer.
    for (const answer of [malformed, long])
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
  });

  it('serves its OpenAPI page under a policy that lets it load only its own files', async () => {
    // The page is HTML on the portal's origin, where the portal keeps its tokens.
    const fastify = app.getHttpAdapter().getInstance();
    const page = await fastify.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Its scripts are files (the policy lets no inline script run).
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    const document = await fastify.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(document.headers['content-security-policy']).toBe(policy);
    // A drop link id grows with its firm's name: one of 1,500 characters reaches the route.
    const dropLink = await fastify.inject({
      method: 'GET',
      url: `/integrations/drop_link/${'A'.repeat(1_500)}`,
    });
    expect(dropLink.statusCode).not.toBe(414);
  });

  it('declares its auth explicitly on the handler or its controller', () => {
    const controllers = AppModule.register(resources).controllers ?? [];
    const undeclared: string[] = [];
    let handlers = 0;
    for (const controller of controllers) {
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined)
          continue;
        handlers++;
        const mode = Reflect.getMetadata(AUTH_MODE, handler) ?? Reflect.getMetadata(AUTH_MODE, controller);
        if (!['public', 'jwt', 'optional'].includes(mode)) {
          undeclared.push(`${controller.name}.${name} (${Reflect.getMetadata(PATH_METADATA, handler)})`);
        }
      }
    }
    expect(handlers).toBeGreaterThan(30);
    expect(undeclared).toEqual([]);
  });

  it('lives under a prefix that Kong routes to the gateway (route-prefixes.json)', () => {
    // The CORS plugin's preflight route matches every path on purpose.
    const outside = registered
      .filter((r) => r.url !== '*' && r.url !== '/*')
      .filter(
        (r) => !prefixes.some((p) => r.url === p || r.url.startsWith(`${p}/`) || r.url.startsWith(`${p}.`)),
      )
      .map((r) => `${r.method} ${r.url}`);
    expect(registered.length).toBeGreaterThan(30);
    expect(outside).toEqual([]);
  });

  it('includes the routes issue 2 asks for', () => {
    const routes = new Set(registered.map((r) => `${r.method} ${r.url}`));
    for (const route of [
      'POST /sessions/verify_password',
      'POST /sessions/exchange_token',
      'POST /sessions/sign_out_everywhere',
      'POST /users/set_sign_in_method',
      'GET /.well-known/jwks.json',
      'GET /current_user',
      'GET /current_user_firm',
      'GET /firms/current_user_firm',
      'GET /firms/get_firm_theme_by_slug',
      'PATCH /users/:id',
      'PATCH /out_of_office/:id',
      'PUT /companies/:id',
      'GET /v2/entities',
      'POST /firms/update_preferences',
      'POST /set_default_company',
      'GET /dev/outbox',
      'GET /health/ready',
      'GET /docs/openapi.json',
    ]) {
      expect(routes).toContain(route);
    }
  });
});
