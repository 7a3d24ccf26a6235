import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ApiClient, ApiProvider, KitThemeProvider, SessionStore } from '@portico/kit/signin';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ShellRuntime } from '../app/services.js';
import { ShellRuntimeContext } from '../app/services.js';
import { MESSAGES } from '../signin/messages.js';
import { SignInNavigationContext } from '../signin/navigation.js';
import { SignInPage } from '../signin/SignInPage.js';
import type { SignInState } from '../signin/states.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  window.localStorage.clear();
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The sign-in page as on a first load of /signin: no router, no query client. */
function renderSignIn(
  search: string,
  answer: (path: string, body: unknown) => Response,
  initial?: SignInState,
) {
  const session = new SessionStore(window.localStorage);
  stores.push(session);
  const calls: string[] = [];
  const client = new ApiClient({
    baseUrl: 'http://api.test',
    session,
    fetch: async (input, init) => {
      const path = new URL(String(input)).pathname;
      calls.push(path);
      return answer(path, init?.body ? JSON.parse(String(init.body)) : undefined);
    },
  });
  const runtime: ShellRuntime = {
    config: { apiUrl: 'http://api.test', remotes: {} },
    session,
    client,
    areas: Promise.resolve([]),
  };
  const navigation = { params: new URLSearchParams(search), navigate: jest.fn(), signedIn: jest.fn() };
  render(
    <ShellRuntimeContext.Provider value={runtime}>
      <ApiProvider client={client}>
        <KitThemeProvider env="test">
          <SignInNavigationContext.Provider value={navigation}>
            <SignInPage initial={initial} />
          </SignInNavigationContext.Provider>
        </KitThemeProvider>
      </ApiProvider>
    </ShellRuntimeContext.Provider>,
  );
  return { navigation, calls, session };
}

describe('sign-in page without the router', () => {
  it('validates on submit, asks for the password, signs in and goes to ?redirect=', async () => {
    const { navigation, calls, session } = renderSignIn('?redirect=%2Fprofile', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method')
        return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'password', methods: [] });
      if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
      if (path === '/sessions/exchange_token')
        return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
      return json({ error: 'not found' }, 404);
    });

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MESSAGES.emailFirst)).toBeTruthy();
    expect(calls).toEqual([]);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' alice@client.test ' } });
    await waitFor(() => expect(screen.queryByText(MESSAGES.emailFirst)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const password = (await screen.findByLabelText('Password')) as HTMLInputElement;

    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MESSAGES.passwordMissing)).toBeTruthy();

    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/profile'));
    expect(navigation.signedIn).toHaveBeenCalled();
    expect(session.get()?.access_token).toBe('at');
    expect(calls).toEqual([
      '/sessions/get_preferred_sign_in_method',
      '/sessions/verify_password',
      '/sessions/exchange_token',
    ]);
  });

  it('checks that the new password and its confirmation match', async () => {
    const { calls } = renderSignIn('', () => json({ error: 'not found' }, 404), 'set-sign-in-method');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'one' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'two' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'one' } });
    await waitFor(() => expect(screen.queryByText(MESSAGES.passwordsDiffer)).toBeNull());
    expect(calls).toEqual([]);
  });
});
