import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { accessTokenWith, jsonResponse, sessionTokens } from '../../testing/fixtures.js';
import { ApiClient, REFRESH_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../api/client.js';
import { ApiError, errorMessage, shouldRetryRead } from '../api/errors.js';
import { companiesApi } from '../api/users.js';
import { SESSION_KEY, SessionStore } from '../session/session-store.js';

type Call = { method: string; url: string; auth?: string; body?: unknown };

function fakeFetch(responder: (call: Call, n: number) => Response) {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(input),
      auth: headers.Authorization,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    return responder(call, calls.length);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('ApiClient', () => {
  let session: SessionStore;
  let signedOut: { reason: string; notice: boolean }[];

  beforeEach(() => {
    window.localStorage.clear();
    session = new SessionStore(window.localStorage);
    session.set({ ...sessionTokens(1), expires_in: 900 });
    signedOut = [];
    session.onSignedOut((e) => signedOut.push(e));
  });
  afterEach(() => session.close());

  it('sends the bearer token', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, { id: 'u1' }));
    const api = new ApiClient({ baseUrl: 'http://api.test/', session, fetch });
    await expect(api.get('/current_user')).resolves.toEqual({ id: 'u1' });
    expect(calls[0]).toMatchObject({
      method: 'GET',
      url: 'http://api.test/current_user',
      auth: 'Bearer access-1',
    });
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    const { fetch, calls } = fakeFetch((call, n) => {
      if (call.url.endsWith('/sessions/refresh'))
        return jsonResponse(200, { ...sessionTokens(2), expires_in: 900, token_type: 'Bearer' });
      return n === 1
        ? jsonResponse(401, { error: 'unauthorized', code: 'token_expired', message: 'expired' })
        : jsonResponse(200, { ok: 1 });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).resolves.toEqual({ ok: 1 });
    expect(calls.map((c) => c.url.replace('http://api.test', ''))).toEqual([
      '/current_user',
      '/sessions/refresh',
      '/current_user',
    ]);
    expect(calls[1]?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(calls[1]?.auth).toBeUndefined();
    expect(calls[2]?.auth).toBe('Bearer access-2');
    expect(session.get()?.refresh_token).toBe('refresh-2');
    expect(signedOut).toEqual([]);
  });

  it('shares one refresh between calls that fail together', async () => {
    let refreshes = 0;
    const { fetch } = fakeFetch((call) => {
      if (call.url.endsWith('/sessions/refresh')) {
        refreshes += 1;
        return jsonResponse(200, { ...sessionTokens(2), expires_in: 900 });
      }
      return call.auth === 'Bearer access-1'
        ? jsonResponse(401, { error: 'unauthorized' })
        : jsonResponse(200, {});
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(refreshes).toBe(1);
  });

  it('signs out everywhere with the notice when the refresh fails', async () => {
    const { fetch, calls } = fakeFetch((call) =>
      call.url.endsWith('/sessions/refresh')
        ? jsonResponse(401, { error: 'unauthorized' })
        : jsonResponse(401, { error: 'unauthorized' }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(2);
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(signedOut).toEqual([{ reason: 'expired', notice: true }]);
  });

  it('keeps the session when the refresh could not be made (offline, a 5xx, a 429), failing only that call', async () => {
    const failures: Array<() => Response> = [
      () => jsonResponse(503, { error: 'The service is not available right now. Please try again.' }),
      () => jsonResponse(429, { error: 'Too many attempts. Try again in a minute.' }),
      () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    for (const failure of failures) {
      const { fetch } = fakeFetch((call) =>
        call.url.endsWith('/sessions/refresh') ? failure() : jsonResponse(401, { error: 'unauthorized' }),
      );
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      await expect(api.get('/current_user')).rejects.toBeDefined();
      expect(session.get()?.refresh_token).toBe('refresh-1');
    }
    expect(signedOut).toEqual([]);
    // The next call refreshes again, and goes on once the refresh works.
    const { fetch } = fakeFetch((call) =>
      call.url.endsWith('/sessions/refresh')
        ? jsonResponse(200, { ...sessionTokens(2), expires_in: 900 })
        : call.auth === 'Bearer access-2'
          ? jsonResponse(200, { ok: 1 })
          : jsonResponse(401, { error: 'unauthorized' }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).resolves.toEqual({ ok: 1 });
  });

  it('takes the tokens another tab renewed the session with, when identity says it was just renewed (409)', async () => {
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url.endsWith('/sessions/refresh')) {
        // The other tab's new tokens reach this tab's storage a moment after identity's answer.
        setTimeout(() => session.set({ ...sessionTokens(2), expires_in: 900 }), 150);
        return jsonResponse(409, {
          error: 'This session was just renewed. Please try again.',
          code: 'refresh_superseded',
        });
      }
      return call.auth === 'Bearer access-2'
        ? jsonResponse(200, { ok: 1 })
        : jsonResponse(401, { error: 'x' });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).resolves.toEqual({ ok: 1 });
    expect(calls.filter((c) => c.url.endsWith('/sessions/refresh'))).toHaveLength(1);
    expect(signedOut).toEqual([]);
  });

  /** A network that swallows requests: each ends only when the client gives up on it, with its reason. */
  function swallowingFetch(swallows: (url: string) => boolean, otherwise: () => Response) {
    const swallowed: string[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!swallows(String(input))) return otherwise();
      swallowed.push(String(input));
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }) as typeof globalThis.fetch;
    return { fetch, swallowed };
  }

  it('gives up a refresh that does not answer at REFRESH_TIMEOUT_MS, failing that call and keeping the session', async () => {
    jest.useFakeTimers();
    try {
      const { fetch, swallowed } = swallowingFetch(
        (url) => url.endsWith('/sessions/refresh'),
        () => jsonResponse(401, { error: 'unauthorized' }),
      );
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      const call = api.get('/current_user');
      const outcome = call.then(
        () => 'answered',
        (err: Error) => err.name,
      );
      await jest.advanceTimersByTimeAsync(1);
      expect(swallowed).toEqual(['http://api.test/sessions/refresh']);
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS - 2);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
      await jest.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('TimeoutError');
      expect(session.get()?.refresh_token).toBe('refresh-1');
      expect(signedOut).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  /** A refresh identity carries out (it rotates the token) but whose answer comes `late` ms after it was sent. */
  function lateRefreshFetch(late: number) {
    const refresh: { signal?: AbortSignal | null } = {};
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.endsWith('/sessions/sign_out')) return jsonResponse(200, {});
      if (!url.endsWith('/sessions/refresh')) return jsonResponse(401, { error: 'unauthorized' });
      refresh.signal = init?.signal;
      return new Promise<Response>((resolve, reject) => {
        setTimeout(() => resolve(jsonResponse(200, { ...sessionTokens(2), expires_in: 900 })), late);
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }) as typeof globalThis.fetch;
    return { fetch, refresh };
  }

  it('stops waiting for a refresh at REFRESH_TIMEOUT_MS without abandoning it: its tokens, when they come, are kept', async () => {
    jest.useFakeTimers();
    try {
      // Identity has rotated the refresh token by then: the old one kept here would be refused as reused.
      const { fetch, refresh } = lateRefreshFetch(REFRESH_TIMEOUT_MS + 5_000);
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      const outcome = api.get('/current_user').then(
        () => 'answered',
        (err: Error) => err.name,
      );
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS);
      expect(await outcome).toBe('TimeoutError');
      expect(session.get()?.refresh_token).toBe('refresh-1');
      await jest.advanceTimersByTimeAsync(5_000);
      expect(refresh.signal?.aborted ?? false).toBe(false);
      expect(session.get()?.refresh_token).toBe('refresh-2');
      expect(signedOut).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('sends the refresh token once while its refresh is out, also for calls made after the first gave up', async () => {
    jest.useFakeTimers();
    try {
      const { fetch } = lateRefreshFetch(REFRESH_TIMEOUT_MS + 20_000);
      let refreshes = 0;
      const api = new ApiClient({
        baseUrl: 'http://api.test',
        session,
        fetch: (input, init) => {
          if (String(input).endsWith('/sessions/refresh')) refreshes += 1;
          return fetch(input, init);
        },
      });
      const first = api.get('/current_user').catch((err: Error) => err.name);
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS);
      expect(await first).toBe('TimeoutError');
      await jest.advanceTimersByTimeAsync(1_000);
      const second = api.get('/current_user').catch((err: Error) => err.name);
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS);
      expect(await second).toBe('TimeoutError');
      await jest.advanceTimersByTimeAsync(5_000);
      expect(refreshes).toBe(1);
      expect(session.get()?.refresh_token).toBe('refresh-2');
      expect(signedOut).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('signs out the late tokens of a refresh given up on, when the session changed meanwhile', async () => {
    jest.useFakeTimers();
    try {
      const { fetch } = lateRefreshFetch(REFRESH_TIMEOUT_MS + 5_000);
      const calls: Array<{ url: string; body: unknown }> = [];
      const api = new ApiClient({
        baseUrl: 'http://api.test',
        session,
        fetch: (input, init) => {
          calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
          return fetch(input, init);
        },
      });
      const outcome = api.get('/current_user').catch((err: Error) => err.name);
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS);
      expect(await outcome).toBe('TimeoutError');
      // Someone else signs in, in this tab or another, before the late answer.
      const other = { ...sessionTokens(3), user_id: 'u2', expires_at: Date.now() + 900_000 };
      window.localStorage.setItem(SESSION_KEY, JSON.stringify(other));
      await jest.advanceTimersByTimeAsync(5_000);
      expect(session.get()).toEqual(other);
      expect(calls.at(-1)).toEqual({
        url: 'http://api.test/sessions/sign_out',
        body: { refresh_token: 'refresh-2' },
      });
      expect(signedOut).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives up any call after REQUEST_TIMEOUT_MS, and a call its caller aborts at once', async () => {
    jest.useFakeTimers();
    try {
      const { fetch } = swallowingFetch(
        () => true,
        () => jsonResponse(200, {}),
      );
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      const outcome = api.get('/current_user').then(
        () => 'answered',
        (err: Error) => err.name,
      );
      await jest.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
      await jest.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('TimeoutError');
      // Not retried: it has waited its whole limit already.
      expect(shouldRetryRead(0, new DOMException('The request took too long', 'TimeoutError'))).toBe(false);

      const caller = new AbortController();
      const aborted = api.get('/current_user', { signal: caller.signal });
      const reason = new DOMException('Left the page', 'AbortError');
      caller.abort(reason);
      await expect(aborted).rejects.toBe(reason);
    } finally {
      jest.useRealTimers();
    }
  });

  it('bounds the wait for an answer only: no timer is left once it has come', async () => {
    jest.useFakeTimers();
    try {
      const { fetch } = fakeFetch(() => jsonResponse(200, { id: 'u1' }));
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      const before = jest.getTimerCount();
      await expect(api.get('/current_user')).resolves.toEqual({ id: 'u1' });
      expect(jest.getTimerCount()).toBe(before);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not retry twice: a second 401 after the refresh signs out', async () => {
    const { fetch, calls } = fakeFetch((call) =>
      call.url.endsWith('/sessions/refresh')
        ? jsonResponse(200, { ...sessionTokens(2), expires_in: 900 })
        : jsonResponse(401, { error: 'x' }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(3);
    expect(session.get()).toBeNull();
    expect(signedOut).toHaveLength(1);
  });

  it('does not bring back a session signed out while its refresh was under way: the new tokens are signed out', async () => {
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url.endsWith('/sessions/refresh')) {
        // Another tab signs out while this refresh is on its way.
        window.localStorage.removeItem(SESSION_KEY);
        return jsonResponse(200, { ...sessionTokens(2), expires_in: 900 });
      }
      return call.url.endsWith('/sessions/sign_out')
        ? jsonResponse(200, {})
        : jsonResponse(401, { error: 'x' });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toBeNull();
    expect(calls.map((c) => c.url.replace('http://api.test', ''))).toEqual([
      '/current_user',
      '/sessions/refresh',
      '/sessions/sign_out',
    ]);
    expect(calls[2]?.body).toEqual({ refresh_token: 'refresh-2' });
  });

  it('never sends a call again as another user who signed in meanwhile in another tab, nor signs them out', async () => {
    const other = { ...sessionTokens(3), user_id: 'u2', expires_at: Date.now() + 900_000 };
    const { fetch, calls } = fakeFetch((call) => {
      if (call.auth === 'Bearer access-1') {
        // The first user's call is refused after the second user signed in in another tab.
        window.localStorage.setItem(SESSION_KEY, JSON.stringify(other));
        return jsonResponse(401, { error: 'x' });
      }
      return jsonResponse(200, { as: call.auth });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.post('/messages', { text: 'for the first user' })).rejects.toMatchObject({
      status: 401,
    });
    expect(calls).toHaveLength(1);
    expect(session.get()?.user_id).toBe('u2');
    expect(signedOut).toEqual([]);
  });

  it('keeps a session stored meanwhile when the refresh is refused: a new sign-in revoked the old one', async () => {
    const newer = { ...sessionTokens(3), user_id: 'u2', expires_at: Date.now() + 900_000 };
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url.endsWith('/sessions/refresh')) {
        // Someone signs in in another tab, which ends this browser's previous session on the server.
        window.localStorage.setItem(SESSION_KEY, JSON.stringify(newer));
        return jsonResponse(401, { error: 'unauthorized', code: 'refresh_revoked' });
      }
      return jsonResponse(401, { error: 'unauthorized' });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    expect(session.get()).toEqual(newer);
    expect(signedOut).toEqual([]);
  });

  it('goes on with the new session of the same user when the refresh of the old one is refused', async () => {
    const newer = { ...sessionTokens(3), expires_at: Date.now() + 900_000 };
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url.endsWith('/sessions/refresh')) {
        window.localStorage.setItem(SESSION_KEY, JSON.stringify(newer));
        return jsonResponse(401, { error: 'unauthorized' });
      }
      return call.auth === 'Bearer access-3'
        ? jsonResponse(200, { ok: 1 })
        : jsonResponse(401, { error: 'x' });
    });
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/current_user')).resolves.toEqual({ ok: 1 });
    expect(calls.map((c) => c.auth)).toEqual(['Bearer access-1', undefined, 'Bearer access-3']);
    expect(session.get()).toEqual(newer);
    expect(signedOut).toEqual([]);
  });

  it("shows the generic text for an error whose body is not JSON (a proxy's page), on 429 too", async () => {
    for (const status of [502, 429]) {
      const { fetch } = fakeFetch(
        () => new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status }),
      );
      const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
      const err = await api.get('/current_user').catch((e: unknown) => e);
      expect(err).toMatchObject({ status });
      expect(errorMessage(err)).toBe('Something went wrong');
      expect(errorMessage(err, 'Failed to send SMS code')).toBe(
        status === 429 ? 'Something went wrong' : 'Failed to send SMS code',
      );
    }
    // A page where JSON was expected is a failure even with a 2xx status (a fallback page of a web server).
    const { fetch } = fakeFetch(() => new Response('<!doctype html><title>Portico</title>', { status: 200 }));
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    const err = await api.get('/current_user').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(errorMessage(err)).toBe('Something went wrong');
  });

  it('does not refresh public calls', async () => {
    const { fetch, calls } = fakeFetch(() =>
      jsonResponse(401, { error: 'invalid_credentials', message: 'Invalid password' }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(
      api.post('/sessions/verify_password', { email: 'a', password: 'b' }, { auth: false }),
    ).rejects.toMatchObject({
      status: 401,
      message: 'Invalid password',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.auth).toBeUndefined();
    expect(signedOut).toEqual([]);
  });

  it('treats a 200 body with an error field as a failure', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(200, { error: 'not_connected', message: 'Stripe is not connected' }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.get('/integrations/check_stripe_integration')).rejects.toMatchObject({
      status: 200,
      message: 'Stripe is not connected',
    });
  });

  it('keeps the trace id of a failure, the reference an error page can show', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(503, {
        error: 'x',
        message: 'Service unavailable',
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      }),
    );
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    await expect(api.post('/integrations/get_documents', {})).rejects.toMatchObject({
      status: 503,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });

  it("shows the server's message on 429, even where a specific message is listed", async () => {
    const server = 'Too many codes sent. Try again in 10 minutes.';
    const { fetch } = fakeFetch(() => jsonResponse(429, { error: 'rate_limited', message: server }));
    const api = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
    const err = await api
      .post('/sessions/send_sms_verification_code', { uid: 'x' }, { auth: false })
      .catch((e) => e);
    expect(errorMessage(err, 'Failed to send SMS code')).toBe(server);
    expect(errorMessage(new ApiError(500, { error: 'x', message: 'boom' }), 'Failed to send SMS code')).toBe(
      'Failed to send SMS code',
    );
    expect(errorMessage(new Error('network'))).toBe('Something went wrong');
  });

  it('tries a failed read once more after a dropped connection or a 5xx, never after a 4xx or a timeout', () => {
    const unavailable = new ApiError(503, { error: 'Service unavailable' });
    expect(shouldRetryRead(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetryRead(0, unavailable)).toBe(true);
    expect(shouldRetryRead(1, unavailable)).toBe(false);
    for (const status of [400, 403, 404, 429, 504]) {
      expect(shouldRetryRead(0, new ApiError(status, { error: 'x' }))).toBe(false);
    }
  });
});

describe('SessionStore across tabs', () => {
  type SignedOut = { reason: string; notice: boolean };
  const opened: SessionStore[] = [];
  /** A tab's store; every one is closed after the test, passed or not (the channel's name is shared). */
  const tab = () => {
    const store = new SessionStore(window.localStorage);
    opened.push(store);
    return store;
  };
  /** What a tab is told, and a promise of its first sign-out, resolved by the listener itself. */
  const watch = (store: SessionStore) => {
    const seen: SignedOut[] = [];
    const first = new Promise<void>((resolve) =>
      store.onSignedOut((e) => {
        seen.push(e);
        resolve();
      }),
    );
    return { seen, first };
  };
  beforeEach(() => window.localStorage.clear());
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
  });

  it('signs this tab out with the notice when another tab signs out', async () => {
    const here = tab();
    const other = tab();
    here.set({ ...sessionTokens(1), expires_in: 900 });
    const told = watch(here);
    other.signOut('user');
    await told.first;
    expect(told.seen).toEqual([{ reason: 'user', notice: true }]);
    expect(here.get()).toBeNull();
  });

  it("tells a tab when another tab signs in as someone else over its user, not when it refreshes the same user's tokens", async () => {
    const here = tab();
    const other = tab();
    here.set({ ...sessionTokens(1), expires_in: 900 });
    let changed = 0;
    here.onUserChanged(() => {
      changed += 1;
    });
    const heard = () =>
      new Promise<void>((resolve) => {
        const off = here.onChange(() => {
          off();
          resolve();
        });
      });
    let next = heard();
    other.set({ ...sessionTokens(2), expires_in: 900 });
    await next;
    expect(changed).toBe(0);
    next = heard();
    other.set({ ...sessionTokens(3), user_id: 'u2', expires_in: 900 });
    await next;
    expect(changed).toBe(1);
    expect(here.get()?.user_id).toBe('u2');
  });

  it("tells a tab of another user's sign-in that arrives before its copy of the storage shows it", async () => {
    // A browser keeps a copy of localStorage per page process and may deliver the channel's message
    // first: this tab's storage still holds the first user when the other tab's sign-in is heard.
    const copyHere = new Map<string, string>();
    const here = new SessionStore({
      getItem: (key: string) => copyHere.get(key) ?? null,
      setItem: (key: string, value: string) => void copyHere.set(key, value),
      removeItem: (key: string) => void copyHere.delete(key),
    } as Storage);
    opened.push(here);
    const other = tab();
    here.set({ ...sessionTokens(1), expires_in: 900 });
    const changed = new Promise<void>((resolve) => here.onUserChanged(resolve));
    other.set({ ...sessionTokens(2), user_id: 'u2', expires_in: 900 });
    await changed;
    expect(here.get()?.user_id).toBe('u1');
  });

  it("tells a token of another session (another id, or another user's without ids) from the stored session's", () => {
    const store = tab();
    const stored = accessTokenWith({ sub: 'u1', sid: 's2' });
    expect(store.isOtherSession(stored)).toBe(false);
    store.set({ ...sessionTokens(1), access_token: stored, expires_in: 900 });
    expect(store.isOtherSession(accessTokenWith({ sub: 'u1', sid: 's1' }))).toBe(true);
    // A refreshed token of the same session.
    expect(
      store.isOtherSession(accessTokenWith({ sub: 'u1', sid: 's2' }).replace('signature', 'other')),
    ).toBe(false);
    store.set({ ...sessionTokens(1), access_token: accessTokenWith({ sub: 'u2' }), expires_in: 900 });
    expect(store.isOtherSession(accessTokenWith({ sub: 'u1' }))).toBe(true);
    expect(store.isOtherSession(accessTokenWith({ sub: 'u2' }))).toBe(false);
    // What cannot be read is not taken for another session.
    expect(store.isOtherSession('not-a-token')).toBe(false);
  });

  it('ends only the session a sign-out expects: not one stored since', async () => {
    const store = tab();
    const told = watch(store);
    const first = store.set({ ...sessionTokens(1), expires_in: 900 });
    const second = store.set({ ...sessionTokens(2), expires_in: 900 });
    store.signOut('expired', first);
    expect(store.get()).toEqual(second);
    expect(told.seen).toEqual([]);
    store.signOut('expired', second);
    expect(store.get()).toBeNull();
    expect(told.seen).toEqual([{ reason: 'expired', notice: true }]);
  });

  it('keeps the session in the tab where the browser refuses site data (localStorage throws)', () => {
    const blocked = jest.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      const here = new SessionStore();
      opened.push(here);
      expect(here.get()).toBeNull();
      here.set({ ...sessionTokens(1), expires_in: 900 });
      expect(here.get()?.access_token).toBe('access-1');
      expect(here.accessToken).toBe('access-1');
      // The same answer each time while nothing changed (a snapshot React can compare).
      expect(here.get()).toBe(here.get());
      // Kept in this tab's memory only: another tab (another store) does not have it.
      const other = new SessionStore();
      opened.push(other);
      expect(other.get()).toBeNull();
      here.signOut('user');
      expect(here.get()).toBeNull();
    } finally {
      blocked.mockRestore();
    }
  });

  it('says nothing more once signed out: the echoes of a sign-out reach no tab', async () => {
    const here = tab();
    const other = tab();
    here.set({ ...sessionTokens(1), expires_in: 900 });
    const toldHere = watch(here);
    const toldThere = watch(other);
    here.signOut('user');
    await toldThere.first;
    // The revocation closing the other tab's socket, and a call of this tab refused with the old token.
    other.signOut('forced');
    here.signOut('expired');
    // A message sent after them arrives after anything they would have sent.
    const later = new Promise<void>((resolve) => here.onChange(resolve));
    other.set({ ...sessionTokens(2), expires_in: 900 });
    await later;
    expect(toldHere.seen).toEqual([{ reason: 'user', notice: false }]);
    expect(toldThere.seen).toEqual([{ reason: 'user', notice: true }]);
  });
});

describe('entity list', () => {
  it('reads every entity in pages of 50, and asks for inactive ones (identity lists them to advisors only)', async () => {
    const total = 120;
    const { fetch, calls } = fakeFetch((call) => {
      const url = new URL(call.url);
      const size = Number(url.searchParams.get('rows_per_page'));
      const page = Number(url.searchParams.get('page'));
      const ids = Array.from({ length: total }, (_, i) => `c-${i + 1}`).slice((page - 1) * size, page * size);
      return jsonResponse(200, {
        companies: ids.map((id) => ({ id, name: id })),
        current_page: page,
        total_count: total,
        total_pages: Math.ceil(total / size),
      });
    });
    const session = new SessionStore();
    const api = companiesApi(new ApiClient({ baseUrl: 'http://api.test', session, fetch }));
    const all = await api.listAll();
    expect(all.companies.map((c) => c.id)).toEqual(Array.from({ length: total }, (_, i) => `c-${i + 1}`));
    expect(all.total_count).toBe(total);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(new URL(call.url).searchParams.get('rows_per_page')).toBe('50');
      expect(new URL(call.url).searchParams.get('include_inactive')).toBe('true');
    }
    await api.listAll({ entity_type: 'Trust' });
    expect(new URL(calls.at(-1)?.url ?? '').searchParams.get('entity_type')).toBe('Trust');
  });
});
