import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KitProvider, SessionStore, SIGNED_OUT_NOTICE } from '@portico/kit';
import { sessionTokens } from '@portico/kit/testing';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SignedOutWatcher } from '../app/SignedOutWatcher.js';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

describe('a tab signed out', () => {
  let session: SessionStore;

  beforeEach(() => {
    jest.useFakeTimers();
    window.localStorage.clear();
    session = new SessionStore();
    session.set(sessionTokens(1));
  });
  afterEach(() => {
    session.close();
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
            {/* As the shell's signed-out redirect: a page without a session sends to /signin. */}
            <Route path="*" element={session.get() ? <p>page</p> : <Navigate to="/signin" replace />} />
          </Routes>
        </MemoryRouter>
      </KitProvider>,
    );
  }

  it('opens /signin with the notice, for 10 s, and stays there when told again', () => {
    mount();
    act(() => {
      session.signOut('forced');
      session.signOut('forced');
    });
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.getByText(SIGNED_OUT_NOTICE)).toBeTruthy();
    act(() => session.signOut('expired'));
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    // Counted from the sign-out, through the page changing under it.
    act(() => jest.advanceTimersByTime(9_999));
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
  });

  it('opens /signin without the notice in the tab whose user signed out', () => {
    mount();
    act(() => session.signOut('user'));
    expect(screen.getByTestId('where').textContent).toBe('/signin');
    expect(screen.queryByText(SIGNED_OUT_NOTICE)).toBeNull();
  });
});
