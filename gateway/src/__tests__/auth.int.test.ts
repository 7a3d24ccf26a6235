import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Identity } from '@portico/proto';
import { SignJWT } from 'jose';
import { type RunningGateway, startGateway } from '../testing/start-gateway.js';
import { advisorClaims, clientClaims, createTestKey, type TestKey } from './support/keys.js';
import { fail, ok, respond } from './support/responders.js';

describe('gateway: access tokens verified against identity keys served over NATS', () => {
  let nc: NatsConnection;
  let gateway: RunningGateway;
  let key: TestKey;
  let impostor: TestKey;
  let stranger: TestKey;
  const stops: Array<() => void> = [];
  let currentUser: ReturnType<typeof respond>;
  let jwks: ReturnType<typeof respond>;

  const get = (path: string, token?: string) =>
    fetch(`${gateway.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    nc = await connect({ servers: natsUrl });
    key = await createTestKey('key-1');
    impostor = await createTestKey('key-1');
    stranger = await createTestKey('key-unknown');
    jwks = respond(nc, Identity.jwks, () => ok({ keys: [key.publicJwk] }));
    stops.push(jwks.stop);
    currentUser = respond(nc, Identity.currentUser, (req) =>
      ok({ id: req.actor?.user_id ?? '', email: 'a@b.co' }),
    );
    stops.push(currentUser.stop);
    stops.push(respond(nc, Identity.updatePreferences, () => ok({ id: 'firm-1', name: 'Demo CPA' })).stop);
    stops.push(
      respond(nc, Identity.updateCompany, () =>
        fail({ kind: 'not_found', code: 'not_found', message: 'Not found' }),
      ).stop,
    );
    gateway = await startGateway({ natsUrl });
  });

  afterAll(async () => {
    await gateway?.stop();
    for (const stop of stops) stop();
    await nc.drain();
  });

  it('answers 401 unauthenticated without a token', async () => {
    const res = await get('/current_user');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'Unauthorized',
      message: 'Unauthorized',
      code: 'unauthenticated',
    });
  });

  it('passes a valid token through and sends the verified actor to the service', async () => {
    const res = await get('/current_user', await key.sign(advisorClaims));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 'user-partner', email: 'a@b.co' });
    expect(currentUser.received.at(-1)?.actor).toEqual({
      user_id: 'user-partner',
      firm_id: 'firm-1',
      role: 'advisor',
      firm_access: 'partner',
      readonly_access: false,
      session_id: 'session-1',
    });
  });

  it('answers 401 token_expired for an expired token, so the browser refreshes once', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await key.sign(advisorClaims, { issuedAt: now - 1_000, expiresIn: now - 60 });
    const res = await get('/current_user', token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'Unauthorized', code: 'token_expired' });
  });

  it('refuses a token signed with another key under a known kid', async () => {
    const res = await get('/current_user', await impostor.sign(advisorClaims));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a token whose kid identity does not publish', async () => {
    const res = await get('/current_user', await stranger.sign(advisorClaims));
    expect(res.status).toBe(401);
  });

  it('refuses a malformed token and one with missing claims', async () => {
    expect((await get('/current_user', 'not.a.jwt')).status).toBe(401);
    const { firm_id: _, ...noFirm } = advisorClaims;
    expect((await get('/current_user', await key.sign(noFirm))).status).toBe(401);
  });

  describe('refuses, with the same 401 as any bad token, a token of the right key', () => {
    const unauthorized = { error: 'Unauthorized', message: 'Unauthorized', code: 'unauthenticated' };
    const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = () => Math.floor(Date.now() / 1000);
    const claims = () => ({
      ...advisorClaims,
      iss: 'portico-identity',
      aud: 'portico',
      iat: now(),
      exp: now() + 900,
    });
    const expectRefused = async (token: string) => {
      const res = await get('/current_user', token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(unauthorized);
    };

    it('for another audience', async () => {
      await expectRefused(await key.sign(advisorClaims, { audience: 'another-app' }));
    });

    it('from another issuer', async () => {
      await expectRefused(await key.sign(advisorClaims, { issuer: 'someone-else' }));
    });

    it('not valid yet (nbf in the future)', async () => {
      await expectRefused(await key.sign(advisorClaims, { notBefore: now() + 3_600 }));
    });

    it('signed with HS256 keyed with the public key itself (algorithm confusion)', async () => {
      const publicPem = createPublicKey({ key: key.publicJwk, format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      for (const secret of [publicPem, JSON.stringify(key.publicJwk)]) {
        const token = await new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
          .sign(new TextEncoder().encode(secret));
        await expectRefused(token);
      }
    });

    it('unsigned (alg none)', async () => {
      for (const alg of ['none', 'None', 'NONE']) {
        const header = base64url({ alg, kid: key.kid, typ: 'JWT' });
        await expectRefused(`${header}.${base64url(claims())}.`);
      }
    });
  });

  it('takes the client address from the connection, not X-Forwarded-For, by default (TRUST_PROXY false)', async () => {
    const res = await fetch(`${gateway.url}/current_user`, {
      headers: { authorization: `Bearer ${await key.sign(advisorClaims)}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.status).toBe(200);
    expect(currentUser.received.at(-1)?.headers?.get('x-portico-client-ip')).toBe('127.0.0.1');
  });

  it('serves the JWKS from the keys it verifies with, without asking identity on every request', async () => {
    const fetchesBefore = jwks.received.length;
    for (let i = 0; i < 3; i++) {
      const res = await get('/.well-known/jwks.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await res.json()).toEqual({
        keys: [
          expect.objectContaining({
            kid: 'key-1',
            kty: 'EC',
            crv: 'P-256',
            x: key.publicJwk.x,
            y: key.publicJwk.y,
          }),
        ],
      });
    }
    // The gateway already knows the keys from the tokens verified above.
    expect(fetchesBefore).toBeGreaterThan(0);
    expect(jwks.received.length).toBe(fetchesBefore);
  });

  it('answers 403 when the role or firm access the route declares is missing', async () => {
    const client = await key.sign(clientClaims);
    const full = await key.sign({ ...advisorClaims, firm_access: 'full' });
    const partner = await key.sign(advisorClaims);
    const post = (token: string) =>
      fetch(`${gateway.url}/firms/update_preferences`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ preferences: { tour_enabled: true } }),
      });
    const clientDenied = await post(client);
    expect(clientDenied.status).toBe(403);
    // A client is told the action is the firm's, in the words the services use.
    expect(await clientDenied.json()).toMatchObject({
      code: 'advisor_only',
      error: 'Only your firm can do that',
    });
    const denied = await post(full);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 'forbidden' });
    expect((await post(partner)).status).toBe(200);
    const patch = await fetch(`${gateway.url}/companies/c-1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Acme' }),
    });
    expect(patch.status).toBe(403);
  });

  it('answers 400 with the field, not 500, for a number JSON cannot carry on (1e400 is Infinity)', async () => {
    const res = await fetch(`${gateway.url}/firms/update_preferences`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await key.sign(advisorClaims)}`,
        'content-type': 'application/json',
      },
      body: '{"preferences":{"in_app_banner_text":1e400}}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_input',
      fields: { preferences: 'Preferences hold a number that is out of range' },
    });
  });

  it('passes the service error through with its status and message', async () => {
    const res = await fetch(`${gateway.url}/companies/other-firm-company`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${await key.sign(advisorClaims)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Acme' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'Not found', code: 'not_found' });
  });
});
