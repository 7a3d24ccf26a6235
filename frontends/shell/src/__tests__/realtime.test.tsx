import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiClient, KitProvider, onProgress, type ProgressUpdate, SessionStore } from '@portico/kit';
import { accessTokenWith, jsonResponse, sessionTokens } from '@portico/kit/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { type ShellRuntime, ShellRuntimeContext } from '../app/services.js';
import { Realtime } from '../realtime/Realtime.js';
import { reconnectDelay } from '../realtime/realtime.js';

/** The part of a WebSocket the realtime code uses, recording what it was opened with. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen?: () => void;
  onmessage?: (event: { data: string }) => void;
  onclose?: (event: { code: number }) => void;
  closed = false;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
}

describe('the realtime socket', () => {
  let session: SessionStore;
  let refreshes: number;
  let refreshAnswer: () => Response;

  function mount() {
    const fetch = (async (input: RequestInfo | URL) => {
      if (String(input).endsWith('/sessions/refresh')) {
        refreshes += 1;
        return refreshAnswer();
      }
      return jsonResponse(404, { error: 'not here' });
    }) as typeof globalThis.fetch;
    const runtime = {
      config: { apiUrl: 'http://api.test', remotes: {} },
      session,
      client: new ApiClient({ baseUrl: 'http://api.test', session, fetch }),
      reportError: async () => undefined,
      areas: Promise.resolve([]),
    } as unknown as ShellRuntime;
    return render(
      <ShellRuntimeContext.Provider value={runtime}>
        <KitProvider env="test">
          <Realtime />
        </KitProvider>
      </ShellRuntimeContext.Provider>,
    );
  }
  const alert = (socket: FakeSocket, show: boolean, text = 'Down at 9pm') =>
    act(() => socket.onmessage?.({ data: JSON.stringify({ type: 'maintenance_alert', show, text }) }));

  beforeEach(() => {
    // The waits' spread at its middle: the waits below are the doubling ones (reconnectDelay is tested alone).
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    (globalThis as { WebSocket?: unknown }).WebSocket = FakeSocket;
    FakeSocket.all = [];
    window.localStorage.clear();
    session = new SessionStore(window.localStorage);
    refreshes = 0;
    refreshAnswer = () => jsonResponse(200, { ...sessionTokens(2), expires_in: 900 });
  });
  afterEach(() => {
    session.close();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('connects with the current token while it is valid', async () => {
    session.set({ ...sessionTokens(1), expires_in: 900 });
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(FakeSocket.all[0]?.protocols).toEqual(['portico.realtime', 'access-1']);
    expect(refreshes).toBe(0);
  });

  it('refreshes an expired token before it connects, instead of being refused with it', async () => {
    session.set({ ...sessionTokens(1), expires_in: 0 });
    mount();
    await waitFor(() => expect(FakeSocket.all.at(-1)?.protocols).toEqual(['portico.realtime', 'access-2']));
    expect(refreshes).toBe(1);
    expect(FakeSocket.all.some((s) => s.protocols.includes('access-1'))).toBe(false);
  });

  it('tries again later when the token cannot be refreshed now, keeping the session', async () => {
    jest.useFakeTimers();
    session.set({ ...sessionTokens(1), expires_in: 0 });
    refreshAnswer = () =>
      jsonResponse(503, { error: 'The service is not available right now. Please try again.' });
    mount();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(refreshes).toBe(1);
    expect(FakeSocket.all).toHaveLength(0);
    expect(session.get()?.refresh_token).toBe('refresh-1');
    refreshAnswer = () => jsonResponse(200, { ...sessionTokens(2), expires_in: 900 });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2_000);
    });
    expect(FakeSocket.all.at(-1)?.protocols).toEqual(['portico.realtime', 'access-2']);
  });

  it('backs off from a socket closed as soon as it opened, and waits the shortest again after one that stayed up', async () => {
    jest.useFakeTimers();
    session.set({ ...sessionTokens(1), expires_in: 900 });
    mount();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    const waitsBeforeNext = async (openFor: number) => {
      const socket = FakeSocket.all.at(-1) as FakeSocket;
      const count = FakeSocket.all.length;
      act(() => socket.onopen?.());
      await act(async () => {
        await jest.advanceTimersByTimeAsync(openFor);
      });
      act(() => socket.onclose?.({ code: 1013 }));
      let waited = 0;
      while (FakeSocket.all.length === count) {
        await act(async () => {
          await jest.advanceTimersByTimeAsync(500);
        });
        waited += 500;
      }
      return waited;
    };
    expect(await waitsBeforeNext(0)).toBe(2_000);
    expect(await waitsBeforeNext(0)).toBe(4_000);
    expect(await waitsBeforeNext(0)).toBe(8_000);
    expect(await waitsBeforeNext(10_000)).toBe(2_000);
  });

  it('drops the socket when the browser goes offline, and opens one at once when it is back', async () => {
    jest.useFakeTimers();
    session.set({ ...sessionTokens(1), expires_in: 900 });
    mount();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    const first = FakeSocket.all[0] as FakeSocket;
    act(() => first.onopen?.());
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(first.closed).toBe(true);
    // Back a moment later: no wait for the next try.
    await act(async () => {
      await jest.advanceTimersByTimeAsync(100);
      window.dispatchEvent(new Event('online'));
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(FakeSocket.all).toHaveLength(2);
    // The dropped socket's late close starts nothing more, and one socket is kept while one is open.
    const timersBefore = jest.getTimerCount();
    act(() => first.onclose?.({ code: 1006 }));
    expect(jest.getTimerCount()).toBe(timersBefore);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await jest.advanceTimersByTimeAsync(5_000);
    });
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('spreads the waits before reconnecting by half either way, doubling from 2 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => reconnectDelay(n, () => 0.5))).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(reconnectDelay(1, () => 0)).toBe(1_000);
    expect(reconnectDelay(5, () => 0.999)).toBeCloseTo(44_970);
  });

  it('signs out when its session ends, not when a session that another took the place of ends', async () => {
    const replaced = accessTokenWith({ sub: 'u1', sid: 'before' });
    session.set({ ...sessionTokens(1), access_token: replaced, expires_in: 900 });
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const old = FakeSocket.all[0] as FakeSocket;
    // Another tab signs in (as this user or another), which also signs the session it replaced out: the
    // old socket hears of that before this tab's page follows the new session.
    session.set({
      ...sessionTokens(2),
      access_token: accessTokenWith({ sub: 'u2', sid: 'after' }),
      expires_in: 900,
    });
    act(() => old.onmessage?.({ data: JSON.stringify({ type: 'forced_sign_out' }) }));
    act(() => old.onclose?.({ code: 4401 }));
    expect(session.get()?.refresh_token).toBe('refresh-2');
    // The new session's own socket, closed by its revocation, signs it out.
    await waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    act(() => FakeSocket.all[1]?.onclose?.({ code: 4401 }));
    expect(session.get()).toBeNull();
  });

  it('passes the progress of work on to the area that follows it, leaving out what is not a progress update', async () => {
    session.set({ ...sessionTokens(1), expires_in: 900 });
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.all[0] as FakeSocket;
    const heard: ProgressUpdate[] = [];
    const stop = onProgress('zip-1', (update) => heard.push(update));
    const send = (message: Record<string, unknown>) =>
      act(() => socket.onmessage?.({ data: JSON.stringify({ type: 'progress', ...message }) }));
    try {
      send({ id: 'zip-1', done: 3, total: 5, extra: 'kept out' });
      send({ id: 'zip-2', done: 1, total: 2 });
      send({ done: 4, total: 5 });
      send({ id: '', done: 4, total: 5 });
      send({ id: 42, done: 4, total: 5 });
      send({ id: 'zip-1', done: '4', total: 5 });
      send({ id: 'zip-1', done: 4 });
      send({ id: 'zip-1', done: 4, total: null });
      send({ id: 'zip-1', done: -1, total: 5 });
      act(() => socket.onmessage?.({ data: 'not json' }));
      send({ id: 'zip-1', done: 5, total: 5 });
      expect(heard).toEqual([
        { id: 'zip-1', done: 3, total: 5 },
        { id: 'zip-1', done: 5, total: 5 },
      ]);
      // Nothing else of the socket changed: no alert, no sign-out.
      expect(screen.queryByTestId('maintenance-alert')).toBeNull();
      expect(session.get()?.refresh_token).toBe('refresh-1');
    } finally {
      stop();
    }
  });

  it('takes the maintenance alert down on sign-out, and on a new connection until the gateway repeats it', async () => {
    session.set({ ...sessionTokens(1), expires_in: 900 });
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const first = FakeSocket.all[0] as FakeSocket;
    alert(first, true);
    expect(screen.getByTestId('maintenance-alert').textContent).toContain('Down at 9pm');
    // Reconnected after the alert was turned off while the socket was down: nothing repeats it.
    act(() => first.onopen?.());
    expect(screen.queryByTestId('maintenance-alert')).toBeNull();
    alert(first, true);
    act(() => session.signOut('user'));
    expect(first.closed).toBe(true);
    expect(screen.queryByTestId('maintenance-alert')).toBeNull();
  });
});
