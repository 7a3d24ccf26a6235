import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { CHANNEL_NAME, KitProvider, SessionStore, SIGNED_OUT_NOTICE, type TabMessage } from '@portico/kit';
import { sessionTokens } from '@portico/kit/testing';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SignedOutWatcher } from '../app/SignedOutWatcher.js';
import type { AreaStatus } from '../remotes/registry.js';
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

  /** The areas as a portal with the documents area loads them: its drop-off pages are public. */
  const areas: Promise<AreaStatus[]> = Promise.resolve([
    {
      name: 'documents',
      descriptor: {
        name: 'documents',
        routes: [
          { path: '/documents', layout: 'client', audience: 'client' },
          { path: '/drop-link', module: './DropOff', layout: 'public', audience: 'public' },
          { path: '/secure-upload', module: './DropOff', layout: 'public', audience: 'public' },
        ],
      },
    },
  ]);

  function mount(at = '/profile') {
    render(
      <KitProvider env="test">
        <MemoryRouter initialEntries={[at]}>
          <SignedOutWatcher session={session} areas={areas} />
          <Where />
          <Routes>
            <Route path="/signin" element={<p>sign in</p>} />
            <Route path="/drop-link" element={<p>drop-off</p>} />
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

  it('opens /signin without the notice in the tab whose user signed out', async () => {
    mount();
    await act(async () => session.signOut('user'));
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
  });

  it('leaves a public page where it is, a visitor may be uploading there; the notice still shows', async () => {
    mount('/drop-link?id=x');
    await toldByAnotherTab(1);
    await act(() => areas);
    expect(screen.getByTestId('where').textContent).toBe('/drop-link?id=x');
    expect(screen.getByText('drop-off')).toBeTruthy();
    expect(screen.getByText(SIGNED_OUT_NOTICE)).toBeTruthy();
  });

  describe('in a tab out of sight', () => {
    let visibility: DocumentVisibilityState;
    beforeEach(() => {
      visibility = 'hidden';
      jest.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    });
    afterEach(() => {
      jest.restoreAllMocks();
    });

    const comeBack = () =>
      act(() => {
        visibility = 'visible';
        document.dispatchEvent(new Event('visibilitychange'));
      });

    it("counts the notice's 10 s from when the tab is seen", async () => {
      mount();
      await toldByAnotherTab(1);
      expect(screen.getByTestId('where').textContent).toBe('/signin');
      act(() => jest.advanceTimersByTime(11_000));
      expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeTruthy();
      comeBack();
      act(() => jest.advanceTimersByTime(9_999));
      expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeTruthy();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
    });
  });
});
