import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { type CurrentUser, SessionStore, ShellContext } from '@portico/kit';
import { aCurrentUser, renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { useLocation } from 'react-router';
import AreaRouter from '../app/AreaRouter.js';
import { ShellRuntimeContext } from '../app/services.js';
import { loadLaterSteps } from '../signin/first-steps.js';
import { TEST_FIRM, testRuntime } from './support/test-runtime.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  window.localStorage.clear();
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** The signed-in shell's routes at `path`, for the user `GET /current_user` answers. */
async function renderSignedIn(user: CurrentUser, path: string) {
  const runtime = testRuntime({
    answers: { '/current_user': user, '/firms/current_user_firm': TEST_FIRM },
    signedIn: true,
  });
  stores.push(runtime.session);
  const signOut = jest.fn(async () => undefined);
  // Awaited: the router waits for the areas (`use`), which React resumes only in an awaited act.
  await act(async () => {
    renderWithClient(
      <ShellRuntimeContext.Provider value={runtime}>
        <ShellContext.Provider value={{ signOut, apiUrl: 'http://api.test' }}>
          <Suspense fallback={null}>
            <AreaRouter />
          </Suspense>
          <Where />
        </ShellContext.Provider>
      </ShellRuntimeContext.Provider>,
      runtime.client,
      path,
    );
  });
  return { signOut };
}

describe('/set-sign-in-method', () => {
  it('is the method chooser, with Sign out, for a user with set_password_required', async () => {
    await loadLaterSteps();
    const { signOut } = await renderSignedIn(
      aCurrentUser({ set_password_required: true }),
      '/set-sign-in-method',
    );
    expect(
      await screen.findByRole('heading', { name: 'How do you want to sign in next time?' }),
    ).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an advisor', true, '/admin-profile'],
    ['a client', false, '/profile'],
  ])('sends %s without set_password_required to their Profile Settings', async (_who, isAdvisor, profile) => {
    await renderSignedIn(
      aCurrentUser({ is_advisor: isAdvisor, firm_access: isAdvisor ? 'partner' : '' }),
      '/set-sign-in-method',
    );
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(profile));
    expect(screen.queryByRole('heading', { name: 'How do you want to sign in next time?' })).toBeNull();
  });
});
