import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { AppError } from '@portico/platform';
import { claimsToActor, issuedAtMs, permits } from '../auth/claims.rules.js';
import { JwksCache, type PublicJwk } from '../auth/jwks.cache.js';
import { authFailure } from '../auth/jwt.strategy.js';
import { RevocationList } from '../auth/revocations.js';
import { VerifiedTokens } from '../auth/verified-tokens.js';

describe('claims to actor', () => {
  const times = { iat: 1_800_000_000, exp: 1_800_000_900 };

  it('maps the verified claims of an advisor', () => {
    expect(
      claimsToActor({
        sub: 'u1',
        firm_id: 'f1',
        role: 'advisor',
        firm_access: 'group',
        firm_group_id: 'g1',
        readonly_access: false,
        sid: 's1',
        iss: 'portico-identity',
        iat: 1_800_000_000,
        exp: 1_800_000_900,
      }),
    ).toEqual({
      user_id: 'u1',
      firm_id: 'f1',
      role: 'advisor',
      firm_access: 'group',
      firm_group_id: 'g1',
      readonly_access: false,
      session_id: 's1',
    });
  });

  it('never gives a client a firm access level, and defaults readonly_access to false', () => {
    expect(
      claimsToActor({ ...times, sub: 'u2', firm_id: 'f1', role: 'client', firm_access: 'partner', sid: 's' }),
    ).toEqual({
      user_id: 'u2',
      firm_id: 'f1',
      role: 'client',
      readonly_access: false,
      session_id: 's',
    });
  });

  it('refuses a token without its subject, firm, a known role, or its times with 401', () => {
    for (const claims of [
      { ...times, firm_id: 'f', role: 'client' },
      { ...times, sub: 'u', role: 'client' },
      { ...times, sub: 'u', firm_id: 'f', role: 'admin' },
      { ...times, sub: 'u', firm_id: 'f', role: 'advisor', firm_access: 'owner' },
      // One that never expires, or escapes a sign-out everywhere.
      { iat: times.iat, sub: 'u', firm_id: 'f', role: 'client' },
      { exp: times.exp, sub: 'u', firm_id: 'f', role: 'client' },
      'not an object',
    ]) {
      expect(() => claimsToActor(claims)).toThrow(
        expect.objectContaining({ status: 401, code: 'unauthenticated' }),
      );
    }
  });
});

describe('route permissions', () => {
  const partner = { user_id: 'u', firm_id: 'f', role: 'advisor' as const, firm_access: 'partner' as const };
  const full = { ...partner, firm_access: 'full' as const };
  const client = { user_id: 'c', firm_id: 'f', role: 'client' as const };

  it('checks declared roles and firm access levels', () => {
    expect(permits(client, {})).toBe(true);
    expect(permits(client, { roles: ['advisor'] })).toBe(false);
    expect(permits(full, { roles: ['advisor'] })).toBe(true);
    expect(permits(partner, { firmAccess: ['partner'] })).toBe(true);
    expect(permits(full, { firmAccess: ['partner'] })).toBe(false);
    expect(permits(client, { firmAccess: ['partner', 'admin', 'full', 'group'] })).toBe(false);
  });
});

describe('passport failures', () => {
  it('maps an expired token to token_expired and anything else to unauthenticated', () => {
    expect(authFailure(Object.assign(new Error('jwt expired'), { name: 'TokenExpiredError' })).code).toBe(
      'token_expired',
    );
    expect(authFailure(new Error('invalid signature')).code).toBe('unauthenticated');
    expect(authFailure(undefined).status).toBe(401);
    const down = new AppError('unavailable', 'service_unavailable', 'down');
    expect(authFailure(down)).toBe(down);
  });
});

describe('JWKS cache', () => {
  const jwkOf = (kid: string): PublicJwk => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    return { kid, kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  };

  function setup(initial: PublicJwk[]) {
    let now = 1_000_000;
    let keys = initial;
    let fetches = 0;
    let failing = false;
    const cache = new JwksCache(
      async () => {
        fetches++;
        if (failing) throw new AppError('unavailable', 'service_unavailable', 'down');
        return keys;
      },
      { refreshMinIntervalMs: 30_000, maxAgeMs: 600_000 },
      undefined,
      () => now,
    );
    return {
      cache,
      fetches: () => fetches,
      advance: (ms: number) => {
        now += ms;
      },
      publish: (next: PublicJwk[]) => {
        keys = next;
      },
      fail: (value: boolean) => {
        failing = value;
      },
    };
  }

  it('converts the JWK to a public key and fetches once for many lookups', async () => {
    const t = setup([jwkOf('a')]);
    const [first] = await Promise.all([t.cache.keyFor('a'), t.cache.keyFor('a'), t.cache.keyFor('a')]);
    expect(first.asymmetricKeyType).toBe('ec');
    expect(first.export({ type: 'spki', format: 'pem' })).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(t.fetches()).toBe(1);
  });

  it('refreshes on an unknown kid at most once per interval', async () => {
    const t = setup([jwkOf('a')]);
    await t.cache.keyFor('a');
    await expect(t.cache.keyFor('b')).rejects.toMatchObject({ status: 401 });
    await expect(t.cache.keyFor('c')).rejects.toMatchObject({ status: 401 });
    expect(t.fetches()).toBe(2);
    t.publish([jwkOf('a'), jwkOf('b')]);
    t.advance(30_000);
    await expect(t.cache.keyFor('b')).resolves.toMatchObject({ type: 'public' });
    expect(t.fetches()).toBe(3);
  });

  it('answers 503 when identity cannot be reached and no key is known, but keeps known keys on a failed refresh', async () => {
    const t = setup([jwkOf('a')]);
    t.fail(true);
    await expect(t.cache.keyFor('a')).rejects.toMatchObject({ status: 503 });
    t.fail(false);
    await t.cache.keyFor('a');
    t.fail(true);
    t.advance(700_000);
    await expect(t.cache.keyFor('a')).resolves.toMatchObject({ type: 'public' });
  });

  it('drops a rotated-out key once the set older than its maximum age is refreshed, in the background', async () => {
    const t = setup([jwkOf('a')]);
    await t.cache.keyFor('a');
    t.publish([jwkOf('b')]);
    t.advance(600_001);
    // The request that finds the set old does not wait for the new one...
    await expect(t.cache.keyFor('a')).resolves.toMatchObject({ type: 'public' });
    await new Promise((resolve) => setImmediate(resolve));
    // ...and the next one knows it.
    await expect(t.cache.keyFor('a')).rejects.toMatchObject({ status: 401 });
    await expect(t.cache.keyFor('b')).resolves.toMatchObject({ type: 'public' });
    // The background refresh, then the one a kid it no longer knows asks for (once per interval).
    expect(t.fetches()).toBe(3);
  });

  it('serves a known key while identity is slow to answer, and tries a failed refresh again only after the interval', async () => {
    let answer: (keys: PublicJwk[]) => void = () => undefined;
    let fetches = 0;
    let now = 1_000_000;
    const first = [jwkOf('a')];
    const cache = new JwksCache(
      () => {
        fetches++;
        if (fetches === 1) return Promise.resolve(first);
        if (fetches === 2) return new Promise<PublicJwk[]>((resolve) => (answer = resolve));
        return Promise.reject(new AppError('unavailable', 'service_unavailable', 'down'));
      },
      { refreshMinIntervalMs: 30_000, maxAgeMs: 600_000 },
      undefined,
      () => now,
    );
    await cache.keyFor('a');
    now += 600_001;
    // The refresh hangs: requests go on with the key they know, sharing that one refresh.
    await expect(cache.keyFor('a')).resolves.toMatchObject({ type: 'public' });
    await expect(cache.keyFor('a')).resolves.toMatchObject({ type: 'public' });
    expect(fetches).toBe(2);
    answer(first);
    await new Promise((resolve) => setImmediate(resolve));
    now += 600_001;
    await cache.keyFor('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetches).toBe(3);
    // That one failed: not again within the interval, whatever the traffic.
    for (let i = 0; i < 5; i++) await cache.keyFor('a');
    expect(fetches).toBe(3);
    now += 30_000;
    await cache.keyFor('a');
    expect(fetches).toBe(4);
  });

  it('serves the published set from memory, refreshed in the background past its age', async () => {
    const t = setup([jwkOf('a')]);
    // Nothing known and identity away: the caller's 503.
    t.fail(true);
    await expect(t.cache.publishedKeys()).rejects.toMatchObject({ status: 503 });
    t.fail(false);
    const [first] = await t.cache.publishedKeys();
    expect(first?.kid).toBe('a');
    for (let i = 0; i < 5; i++) await t.cache.publishedKeys();
    expect(t.fetches()).toBe(2);
    // The same set the tokens are verified with: known to the route once a token needed it.
    await t.cache.keyFor('a');
    expect(t.fetches()).toBe(2);
    t.publish([jwkOf('b')]);
    t.advance(600_001);
    expect((await t.cache.publishedKeys()).map((k) => k.kid)).toEqual(['a']);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await t.cache.publishedKeys()).map((k) => k.kid)).toEqual(['b']);
    expect(t.fetches()).toBe(3);
    // A failed refresh keeps the set it has.
    t.fail(true);
    t.advance(600_001);
    await expect(t.cache.publishedKeys()).resolves.toHaveLength(1);
  });
});

describe('revocations', () => {
  it('refuses tokens issued before the last revocation of their user only, to the millisecond', () => {
    let now = 10_000_000;
    const list = new RevocationList(3_600_000, () => now);
    list.revoke('u1', 9_990_500);
    expect(list.isRevoked('u1', 9_980_000)).toBe(true);
    // The same second as the revocation, before it and after it.
    expect(list.isRevoked('u1', 9_990_200)).toBe(true);
    expect(list.isRevoked('u1', 9_990_700)).toBe(false);
    expect(list.isRevoked('u2', 9_000_000)).toBe(false);
    expect(list.isRevoked('u1', undefined)).toBe(false);
    now += 7_200_000;
    list.revoke('u3');
    expect(list.isRevoked('u1', 9_980_000)).toBe(false);
  });

  it("refuses every token of a revoked session, whenever issued, and no other session's", () => {
    let now = 10_000_000;
    const list = new RevocationList(3_600_000, () => now);
    list.revokeSession('s1', 9_990_000);
    expect(list.isRevoked('u1', 9_995_000, 's1')).toBe(true);
    expect(list.isRevoked('u1', 9_995_000, 's2')).toBe(false);
    expect(list.isRevoked('u1', 9_995_000)).toBe(false);
    now += 7_200_000;
    list.revokeSession('s3');
    expect(list.isRevoked('u1', 9_995_000, 's1')).toBe(false);
  });

  it('reads the issue time to the millisecond when the token has it, else from its seconds', () => {
    expect(issuedAtMs({ iat: 10, iat_ms: 10_250 })).toBe(10_250);
    expect(issuedAtMs({ iat: 10 })).toBe(10_000);
    expect(issuedAtMs({})).toBeUndefined();
  });
});

describe('verified tokens', () => {
  const actor = { user_id: 'u', firm_id: 'f', role: 'client' as const };

  it('remembers a token until it expires, and only that exact token', () => {
    let now = 1_000;
    const tokens = new VerifiedTokens(10, () => now);
    tokens.set('t1', { actor, exp: 1_900, issuedAtMs: 1_000_000 });
    expect(tokens.get('t1')?.actor).toBe(actor);
    expect(tokens.get('t1x')).toBeUndefined();
    now = 1_900;
    expect(tokens.get('t1')).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const tokens = new VerifiedTokens(2, () => 0);
    tokens.set('a', { actor, exp: 10 });
    tokens.set('b', { actor, exp: 10 });
    tokens.set('c', { actor, exp: 10 });
    expect([tokens.get('a'), !!tokens.get('b'), !!tokens.get('c')]).toEqual([undefined, true, true]);
  });
});
