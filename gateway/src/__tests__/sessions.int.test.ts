import '@portico/platform/telemetry';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '@portico/platform';
import { Identity } from '@portico/proto';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { isPublicUploadRoute } from '../rate-limit/public-upload-rate-limit.js';
import { runGateway } from '../run-gateway.js';
import { type RunningGateway, startGateway } from '../testing/start-gateway.js';
import { fail, ok, respond } from './support/responders.js';

describe('gateway: sign-in routes (validation, forwarding, errors, limits, CORS, tracing)', () => {
  let nc: NatsConnection;
  let gateway: RunningGateway;
  const stops: Array<() => void> = [];
  let lookup: ReturnType<typeof respond>;
  let exchange: ReturnType<typeof respond>;
  let twoFactor: ReturnType<typeof respond>;
  let authLink: ReturnType<typeof respond>;
  const logged: Array<Record<string, unknown>> = [];
  const INTERNAL_DETAILS = 'relation "refresh_tokens" does not exist at refresh.repository.ts:42';

  type Json = Record<string, unknown> & { fields?: unknown; trace_id?: string; error?: string };
  const json = async (res: Response) => (await res.json()) as Json;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    nc = await connect({ servers: natsUrl });
    lookup = respond(nc, Identity.lookupEmail, (req) => {
      if (req.data.email === 'nobody@example.com') {
        return fail({
          kind: 'not_found',
          code: 'no_user',
          message: "Sorry, we couldn't find a user with that email address",
        });
      }
      return ok({ uid: 'u-1', preferred_sign_in_method: 'password', accountant_id: 'acc-1' });
    });
    exchange = respond(nc, Identity.exchangeToken, () =>
      ok({ access_token: 'a', refresh_token: 'r', expires_in: 900 }),
    );
    twoFactor = respond(nc, Identity.sendTwoFactor, () => ok({ sent_to: 'j***@example.com' }));
    authLink = respond(nc, Identity.sendAuthLink, () => ok({ sent_to: 'j***@example.com' }));
    stops.push(lookup.stop, exchange.stop, twoFactor.stop, authLink.stop);
    stops.push(respond(nc, Identity.forgotPassword, () => ({ delayMs: 2_000, response: {} })).stop);
    // A service's internal error carrying its details, as one that builds its own AppError may send.
    stops.push(
      respond(nc, Identity.refresh, () =>
        fail({ kind: 'internal', code: 'pg_failed', message: INTERNAL_DETAILS, fields: { token: 'r' } }),
      ).stop,
    );
    const config = loadGatewayConfig({
      NATS_URL: natsUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      REQUEST_TIMEOUT_MS: '400',
      RATE_LIMIT_IP_MAX: '1000',
      RATE_LIMIT_ACCOUNT_MAX: '3',
      BODY_LIMIT_BYTES: '2048',
      CORS_ORIGINS: 'https://portal.example.com',
    });
    const log = createLogger('gateway', 'warn', {
      write: (chunk: string) => {
        logged.push(JSON.parse(chunk) as Record<string, unknown>);
      },
    });
    gateway = await runGateway(config, log);
  });

  afterAll(async () => {
    await gateway?.stop();
    for (const stop of stops) stop();
    await nc.drain();
  });

  it('answers 400 with the spec message and field messages for a missing email', async () => {
    const res = await post('/sessions/get_preferred_sign_in_method', {});
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'Email is missing',
      message: 'Email is missing',
      code: 'invalid_input',
      fields: { email: 'Email is missing' },
    });
  });

  it('reports every missing field of a password sign-in', async () => {
    const res = await post('/sessions/verify_password', { email: '   ' });
    expect(res.status).toBe(400);
    expect((await json(res)).fields).toEqual({ email: 'Email is missing', password: 'Password is missing' });
  });

  it('refuses a body that is not JSON with 400 and no details', async () => {
    const res = await post('/sessions/get_preferred_sign_in_method', '{"email":');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_input' });
  });

  it('trims the email and answers with the reply in the spec keys', async () => {
    const res = await post('/sessions/get_preferred_sign_in_method', {
      email: '  jane@example.com ',
      extra: 1,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      uid: 'u-1',
      preferred_sign_in_method: 'password',
      accountant_id: 'acc-1',
    });
    expect(lookup.received.at(-1)?.data).toEqual({ email: 'jane@example.com' });
  });

  it("answers with the service's message and status when it refuses", async () => {
    const res = await post('/sessions/get_preferred_sign_in_method', { email: 'nobody@example.com' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: "Sorry, we couldn't find a user with that email address",
    });
  });

  it('adds the client address and browser to a token exchange', async () => {
    const res = await post(
      '/sessions/exchange_token',
      { auth_token: 'grant' },
      { 'user-agent': 'TestBrowser/1.0' },
    );
    expect(res.status).toBe(200);
    expect(exchange.received.at(-1)?.data).toEqual({
      auth_token: 'grant',
      ip: '127.0.0.1',
      user_agent: 'TestBrowser/1.0',
    });
    expect(exchange.received.at(-1)?.headers?.get('x-portico-client-ip')).toBe('127.0.0.1');
  });

  it('sends two-factor codes and links with their delivery, a link with where the sign-in is headed', async () => {
    await post('/sessions/send_2fa_code', { challenge_token: 'c' });
    expect(twoFactor.received.at(-1)?.data).toEqual({ challenge_token: 'c', delivery: 'code', redirect: '' });
    await post('/sessions/send_2fa_link', { challenge_token: 'c', redirect: '/profile' });
    expect(twoFactor.received.at(-1)?.data).toEqual({
      challenge_token: 'c',
      delivery: 'link',
      redirect: '/profile',
    });
  });

  it('takes the firm of a sign-in link as the spec names it (accountantId) or as the lookup does', async () => {
    for (const firm of [{ accountantId: 'acc-1' }, { accountant_id: 'acc-1' }]) {
      const res = await post('/sessions/send_auth_link', { uid: 'u-1', redirect: '/documents', ...firm });
      expect(res.status).toBe(200);
      expect(authLink.received.at(-1)?.data).toMatchObject({
        uid: 'u-1',
        accountant_id: 'acc-1',
        redirect: '/documents',
      });
    }
  });

  it('answers 504 within the request timeout when the service is slow', async () => {
    const started = Date.now();
    const res = await post('/sessions/forgot_password', { email: 'slow@example.com' });
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect((await json(res)).error).toBeTruthy();
  });

  it('answers 503 at once when no service listens, and stays up', async () => {
    const res = await post('/sessions/verify_auth_link', { token: 't' });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'service_unavailable' });
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
  });

  it('answers 503 for the JWKS while identity cannot be reached and no key set is known', async () => {
    const res = await fetch(`${gateway.url}/.well-known/jwks.json`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'service_unavailable' });
  });

  it("hides a service's internal failure behind a generic 500 with the trace id, its details in the log", async () => {
    const res = await post('/sessions/refresh', { refresh_token: 'r' });
    expect(res.status).toBe(500);
    const body = await json(res);
    expect(body).toEqual({
      error: 'Something went wrong',
      message: 'Something went wrong',
      code: 'internal',
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(JSON.stringify(body)).not.toContain('refresh_tokens');
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'Request failed',
        trace_id: body.trace_id,
        err: expect.objectContaining({ message: INTERNAL_DETAILS, code: 'pg_failed' }),
      }),
    );
  });

  it('continues the caller trace to the service and into the error body', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    const res = await post(
      '/sessions/get_preferred_sign_in_method',
      { email: 'trace@example.com' },
      { traceparent },
    );
    expect(res.headers.get('x-trace-id')).toBe(traceId);
    expect(lookup.received.at(-1)?.headers?.get('traceparent')).toContain(traceId);
    const failed = await post('/sessions/verify_auth_link', { token: 't' }, { traceparent });
    expect((await json(failed)).trace_id).toBe(traceId);
  });

  it('limits requests per account with 429 and Retry-After', async () => {
    const body = { email: 'Limited@Example.com' };
    for (let i = 0; i < 3; i++)
      expect((await post('/sessions/get_preferred_sign_in_method', body)).status).toBe(200);
    const res = await post('/sessions/get_preferred_sign_in_method', { email: ' limited@example.com' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(/^Too many attempts/),
    });
    // Another account from the same address is not affected.
    expect(
      (await post('/sessions/get_preferred_sign_in_method', { email: 'other@example.com' })).status,
    ).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await post('/sessions/get_preferred_sign_in_method', { email: 'x'.repeat(4_000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers a CORS preflight for an allowed origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${gateway.url}/sessions/verify_password`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
    const allowed = await preflight('https://portal.example.com');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://portal.example.com');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    const denied = await preflight('https://evil.example.com');
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('gateway: per-address limit on sign-in routes', () => {
  it('answers 429 once one address exceeds its limit, whatever the account', async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    const gateway = await startGateway({
      natsUrl,
      env: { RATE_LIMIT_IP_MAX: '2', RATE_LIMIT_ACCOUNT_MAX: '100' },
    });
    try {
      const send = (email: string) =>
        fetch(`${gateway.url}/sessions/forgot_password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
      expect((await send('a@example.com')).status).not.toBe(429);
      expect((await send('b@example.com')).status).not.toBe(429);
      const limited = await send('c@example.com');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();
      // Routes outside /sessions are not limited.
      expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });

  it('counts refreshes and sign-outs apart from sign-in, against a budget of their own', async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    const gateway = await startGateway({
      natsUrl,
      env: { RATE_LIMIT_IP_MAX: '2', RATE_LIMIT_SESSION_UPKEEP_IP_MAX: '4' },
    });
    try {
      const call = (path: string, body: unknown) =>
        fetch(`${gateway.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((res) => res.status);
      // More refreshes than the sign-in budget, and sign-in still has all of its own.
      for (let i = 0; i < 3; i++)
        expect(await call('/sessions/refresh', { refresh_token: `r${i}` })).not.toBe(429);
      expect(await call('/sessions/sign_out', { refresh_token: 'r' })).not.toBe(429);
      expect(await call('/sessions/refresh', { refresh_token: 'r-over' })).toBe(429);
      expect(await call('/sessions/forgot_password', { email: 'a@example.com' })).not.toBe(429);
      expect(await call('/sessions/forgot_password', { email: 'b@example.com' })).not.toBe(429);
      expect(await call('/sessions/forgot_password', { email: 'c@example.com' })).toBe(429);
    } finally {
      await gateway.stop();
    }
  });
});

describe('gateway: per-account limit on sign-in routes, counted per address', () => {
  it("keeps one address naming a user from locking that user out, up to the account's own ceiling", async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    // Behind one proxy (as behind Kong), the client address is the forwarded one.
    const gateway = await startGateway({
      natsUrl,
      env: { RATE_LIMIT_IP_MAX: '1000', RATE_LIMIT_ACCOUNT_MAX: '2', TRUST_PROXY: '1' },
    });
    try {
      const lookup = (from: string) =>
        fetch(`${gateway.url}/sessions/forgot_password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
          body: JSON.stringify({ email: 'victim@example.com' }),
        });
      // An address that names the account too often is refused...
      expect((await lookup('203.0.113.9')).status).not.toBe(429);
      expect((await lookup('203.0.113.9')).status).not.toBe(429);
      expect((await lookup('203.0.113.9')).status).toBe(429);
      // ...and the user, from their own address, is not.
      expect((await lookup('198.51.100.7')).status).not.toBe(429);
      // The account's own ceiling (ten addresses' worth) still holds against many addresses.
      for (let i = 1; i <= 9; i++) {
        await lookup(`192.0.2.${i}`);
        await lookup(`192.0.2.${i}`);
      }
      expect((await lookup('192.0.2.100')).status).toBe(429);
    } finally {
      await gateway.stop();
    }
  });
});

describe('gateway: per-address limit on the public drop-off routes', () => {
  it('answers 429 once one address has used the drop-off routes too often, and leaves the others alone', async () => {
    expect(isPublicUploadRoute('/integrations/drop_link/:id/upload_links')).toBe(true);
    expect(isPublicUploadRoute('/integrations/secure_upload/:slug')).toBe(true);
    expect(isPublicUploadRoute('/integrations/drop_link')).toBe(false);
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    const gateway = await startGateway({ natsUrl, env: { RATE_LIMIT_PUBLIC_UPLOAD_IP_MAX: '2' } });
    try {
      const get = (path: string) => fetch(`${gateway.url}${path}`);
      // No documents service answers here: the first two get through the limit to a 503.
      expect((await get('/integrations/secure_upload/demo-cpa')).status).not.toBe(429);
      expect((await get('/integrations/drop_link/some-link-id')).status).not.toBe(429);
      const limited = await get('/integrations/secure_upload/demo-cpa');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();
      expect(await limited.json()).toMatchObject({
        code: 'rate_limited',
        error: expect.stringMatching(/^Too many/),
      });
      // The budget is shared by the public drop-off routes, and only by them.
      expect((await get('/integrations/drop_link/some-link-id')).status).toBe(429);
      expect((await get('/integrations/drop_link')).status).toBe(401);
      expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});
