import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { CHANNEL_NAME, KitProvider, SessionStore, SIGNED_OUT_NOTICE, type TabMessage } from '@portico/kit';
import { sessionTokens } from '@portico/kit/testing';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SignedOutWatcher } from '../app/SignedOutWatcher.js';
import { useSession } from '../session/useSession.js';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** As the shell's signed-out redirect: a page without a session sends to /signin. */
function Page({ session }: { session: SessionStore }) {
  return useSession(session) ? <p>page</p> : <Navigate to="/signin" replace />;
}

describe('a tab signed out', () => {
  let session: SessionStore;
  let otherTab: BroadcastChannel;

  beforeEach(() => {
    jest.useFakeTimers();
    window.localStorage.clear();
    session = new SessionStore();
    session.set(sessionTokens(1));
    otherTab = new BroadcastChannel(CHANNEL_NAME);
  });
  afterEach(() => {
    session.close();
    otherTab.close();
    jest.useRealTimers();
  });

  function mount() {
    render(
      <KitProvider env="test">
        <MemoryRouter initialEntries={['/profile']}>
          <SignedOutWatcher session={session} />
          <Where />
          <Routes>
            <Route path="/signin" element={<p>sign in</p>} />
            <Route path="*" element={<Page session={session} />} />
          </Routes>
        </MemoryRouter>
      </KitProvider>,
    );
  }

  /** Another tab saying it signed out, `times` times: each message reaches this tab's store. */
  async function toldByAnotherTab(times: number) {
    let told = 0;
    const all = new Promise<void>((resolve) => {
      const off = session.onSignedOut(() => {
        told += 1;
        if (told === times) {
          off();
          resolve();
        }
      });
    });
    for (let i = 0; i < times; i++)
      otherTab.postMessage({ type: 'signed_out', reason: 'forced' } satisfies TabMessage);
    await act(() => all);
  }

  it('opens /signin with the notice for 10 s, however many times it is told', async () => {
    mount();
    expect(screen.getByText('page')).toBeTruthy();
    await toldByAnotherTab(2);
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.getByText(SIGNED_OUT_NOTICE)).toBeTruthy();
    // Counted through the page's change to /signin, which renews the watcher's subscription.
    act(() => jest.advanceTimersByTime(9_999));
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
    // Told again later: shown again, for another 10 s, still on /signin.
    await toldByAnotherTab(1);
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeTruthy();
    act(() => jest.advanceTimersByTime(10_000));
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
  });

  it('opens /signin without the notice in the tab whose user signed out', () => {
    mount();
    act(() => session.signOut('user'));
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
  });
});
