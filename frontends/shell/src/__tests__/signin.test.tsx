import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { KitProvider, PASSWORD_MESSAGES } from '@portico/kit';
import { ApiClient, ApiProvider, SessionStore, ShellContext, SignInThemeProvider } from '@portico/kit/signin';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { SignInFirst } from '../app/SignInFirst.js';
import type { ShellRuntime } from '../app/services.js';
import { ShellRuntimeContext } from '../app/services.js';
import { forgetRecentEntities, readRecentEntities, rememberEntity } from '../layouts/recent-entities.js';
import { useSession } from '../session/useSession.js';
import { loadLaterSteps } from '../signin/first-steps.js';
import { MESSAGES } from '../signin/messages.js';
import { SignInNavigationContext, windowNavigation } from '../signin/navigation.js';
import { RoutedSignInPage } from '../signin/RoutedSignInPage.js';
import { SignInPage } from '../signin/SignInPage.js';
import type { SignInState } from '../signin/states.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The sign-in page as on a first load of /signin: no router, no query client. */
/** A first factor answered with the two-factor step: a challenge, the code gone to the mailbox. */
const twoFactorAsked = () =>
  json({
    auth_token: '',
    two_factor_required: true,
    challenge_token: 'challenge',
    uid: 'u1',
    two_factor_methods: [{ name: 'email', value: 'c***@client.test' }],
  });

/** The page reloaded: the address and the history entry as the page left them. */
const RELOAD = Symbol('reload');

/**
 * The sign-in page opened at /signin`address` (a query and fragment) as on a first load, the window's
 * address and history entry its own; `RELOAD` opens it again as the previous one left them.
 */
function renderSignIn(
  address: string | typeof RELOAD,
  answer: (path: string, body: unknown) => Response | Promise<Response>,
  initial?: SignInState,
  session = new SessionStore(window.localStorage),
) {
  if (address !== RELOAD) window.history.replaceState(null, '', `/signin${address}`);
  const { calls, client, runtime } = answeredRuntime(answer, session);
  const navigation = { ...windowNavigation(() => undefined), navigate: jest.fn(), signedIn: jest.fn() };
  // The shell's own sign-out, which /set-sign-in-method offers (it is opened signed in).
  const signOut = jest.fn(async () => undefined);
  render(
    <ShellRuntimeContext.Provider value={runtime}>
      <ShellContext.Provider value={{ signOut, apiUrl: 'http://api.test' }}>
        <ApiProvider client={client}>
          <SignInThemeProvider env="test">
            <SignInNavigationContext.Provider value={navigation}>
              <SignInPage initial={initial} />
            </SignInNavigationContext.Provider>
          </SignInThemeProvider>
        </ApiProvider>
      </ShellContext.Provider>
    </ShellRuntimeContext.Provider>,
  );
  return { navigation, calls, session, signOut };
}

/** A shell runtime whose API `answer` answers, recording the paths called. */
function answeredRuntime(
  answer: (path: string, body: unknown) => Response | Promise<Response>,
  session = new SessionStore(window.localStorage),
) {
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
    reportError: async () => undefined,
    areas: Promise.resolve([]),
  };
  return { calls, client, runtime, session };
}

/** The sign-in page of a first load of /signin`address` as the shell mounts it (`SignInFirst`). */
function renderSignInFirst(
  address: string | typeof RELOAD,
  answer: (path: string, body: unknown) => Response | Promise<Response>,
) {
  if (address !== RELOAD) window.history.replaceState(null, '', `/signin${address}`);
  const { calls, runtime, session } = answeredRuntime(answer);
  const leave = jest.fn();
  render(<SignInFirst runtime={runtime} primary={undefined} setPrimary={() => undefined} onLeave={leave} />);
  return { calls, leave, session };
}

/** `SignInFirst` with the firm colour's state as ShellRoot keeps it. */
function FirstLoadWithColour({ runtime }: { runtime: ShellRuntime }) {
  const [primary, setPrimary] = useState<string | undefined>();
  return <SignInFirst runtime={runtime} primary={primary} setPrimary={setPrimary} onLeave={() => {}} />;
}

/** verify_auth_link's answers for a reset link, which is spent once opened; `opened` counts the calls. */
function resetLinkSpentOnceOpened() {
  let opened = 0;
  return {
    opened: () => opened,
    open: () => {
      opened += 1;
      return opened === 1
        ? json({ auth_token: 'grant-1', uid: 'u1', purpose: 'set_password' })
        : json({ error: 'link_expired', message: 'gone' }, 410);
    },
  };
}

/** The address and history entry the router is at. */
function RouterWhere() {
  const location = useLocation();
  return (
    <output data-testid="router-where">
      {location.pathname + location.search + location.hash} {JSON.stringify(location.state ?? null)}
    </output>
  );
}

const ROUTED_FIRM_COLOUR = '#aa3311';

/**
 * /signin and /set-sign-in-method as the signed-in shell's router mounts them (`RoutedSignInPage`),
 * at `entry` (an address and the state of its history entry).
 */
function renderRoutedSignIn(
  entry: { pathname: string; search: string; state?: unknown },
  answer: (path: string, body: unknown) => Response | Promise<Response>,
) {
  const { calls, client, runtime } = answeredRuntime(answer);
  render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryClientProvider client={new QueryClient()}>
        <ShellRuntimeContext.Provider value={runtime}>
          <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
            <ApiProvider client={client}>
              {/* The signed-in shell's provider, in a firm's colour, as App renders it. */}
              <KitProvider env="test" primary={ROUTED_FIRM_COLOUR}>
                <Routes>
                  {/* Two pages, as in the shell (/signin in App, /set-sign-in-method in AreaRouter). */}
                  <Route path="/signin" element={<RoutedSignInPage key="signin" />} />
                  <Route
                    path="/set-sign-in-method"
                    element={<RoutedSignInPage key="method" initial="set-sign-in-method" />}
                  />
                  <Route path="*" element={null} />
                </Routes>
                <RouterWhere />
              </KitProvider>
            </ApiProvider>
          </ShellContext.Provider>
        </ShellRuntimeContext.Provider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { calls };
}

/**
 * /signin opened from a used link, for a user who signs in with texted codes and whose code cannot be
 * sent (the SMS failure the expired-link step offers a way around); `answer` answers first.
 */
function renderExpiredLinkOfSmsUser(answer: (path: string, body: unknown) => Response | undefined) {
  return renderSignIn('#token=used-link', (path, body) => {
    const own = answer(path, body);
    if (own) return own;
    if (path === '/sessions/verify_auth_link') return json({ error: 'link_expired', message: 'gone' }, 410);
    if (path === '/sessions/get_preferred_sign_in_method')
      return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'sms', methods: [] });
    if (path === '/sessions/send_sms_verification_code')
      return json({ error: 'sms_failed', message: MESSAGES.smsFailed }, 400);
    return json({ error: 'not found' }, 404);
  });
}

/** The user of the session as the signed-in shell reads it. */
function SignedInAs({ session }: { session: SessionStore }) {
  return <output data-testid="signed-in-as">{useSession(session)?.user_id}</output>;
}

/** An answer the test holds back until it calls `release`. */
function heldAnswer() {
  let release: (response: Response) => void = () => undefined;
  const answer = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { answer, release };
}

describe('sign-in page without the router', () => {
  // The later steps' code loads on demand; loaded once here, so that a first import of the whole kit does
  // not race the queries' timeout.
  beforeAll(async () => {
    await loadLaterSteps();
  });

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
    // The field arrives with the later steps' code, and still takes the focus: the user types on.
    await waitFor(() => expect(document.activeElement).toBe(password));

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

  it('signs in where the browser refuses site data, the session kept in the tab', async () => {
    const blocked = jest.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      const { navigation, session } = renderSignIn(
        '?redirect=%2Fprofile',
        (path) => {
          if (path === '/sessions/get_preferred_sign_in_method')
            return json({
              uid: 'u1',
              accountant_id: 'a1',
              preferred_sign_in_method: 'password',
              methods: [],
            });
          if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
          if (path === '/sessions/exchange_token')
            return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
          return json({ error: 'not found' }, 404);
        },
        undefined,
        new SessionStore(),
      );
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'alice@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'secret' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/profile'));
      expect(screen.queryByText(MESSAGES.signInProblem)).toBeNull();
      expect(session.get()?.access_token).toBe('at');

      // The signed-in shell reads it as well, and the switcher's recent entities are simply not kept.
      render(<SignedInAs session={session} />);
      expect(screen.getByTestId('signed-in-as').textContent).toBe('u1');
      expect(readRecentEntities('u1')).toEqual([]);
      expect(
        rememberEntity('u1', {
          id: 'c1',
          hash_id: 'h1',
          name: 'C',
          entity_type: 'Individual',
          inactive: false,
        }),
      ).toHaveLength(1);
      expect(() => forgetRecentEntities()).not.toThrow();
    } finally {
      blocked.mockRestore();
    }
  });

  it('ends on the server the session this browser held when someone signs in over it, not only here', async () => {
    const signOuts: unknown[] = [];
    const { session } = renderSignIn('', (path, body) => {
      if (path === '/sessions/get_preferred_sign_in_method')
        return json({ uid: 'u2', accountant_id: 'a1', preferred_sign_in_method: 'password', methods: [] });
      if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
      if (path === '/sessions/exchange_token')
        return json({ access_token: 'at-2', refresh_token: 'rt-2', expires_in: 900, user_id: 'u2' });
      if (path === '/sessions/sign_out') {
        signOuts.push(body);
        return json({ message: 'Signed out' });
      }
      return json({ error: 'not found' }, 404);
    });
    session.set({
      access_token: 'at-1',
      refresh_token: 'rt-1',
      user_id: 'u1',
      is_advisor: false,
      set_password_required: false,
    });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'bob@client.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'pw' } });
    window.localStorage.setItem('portico.recent-entities.u1', JSON.stringify([{ id: 'c1', hash_id: 'h1' }]));
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(signOuts).toEqual([{ refresh_token: 'rt-1' }]));
    expect(session.get()?.refresh_token).toBe('rt-2');
    // Nor is the previous user's list of recent entities left for the new one.
    expect(window.localStorage.getItem('portico.recent-entities.u1')).toBeNull();
  });

  it("says the spec's text when the first step's code or link cannot be sent, and the server's refusal as it is", async () => {
    let method = 'email';
    let sendAnswer = () => json({ error: 'unavailable', message: 'Service Unavailable' }, 503);
    renderSignIn('', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method')
        return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: method, methods: [] });
      if (path === '/sessions/send_email_verification_code' || path === '/sessions/send_auth_link')
        return sendAnswer();
      return json({ error: 'not found' }, 404);
    });
    const submit = () => {
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'alice@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    };
    submit();
    expect(await screen.findByText(MESSAGES.codeSendFailed)).toBeTruthy();
    method = '';
    submit();
    expect(await screen.findByText(MESSAGES.linkSendFailed)).toBeTruthy();
    sendAnswer = () =>
      json({ error: 'too_many_sends', message: 'Too many verification codes were requested.' }, 429);
    submit();
    expect(await screen.findByText('Too many verification codes were requested.')).toBeTruthy();
  });

  it("checks the new password's rules and that its confirmation matches, before any call", async () => {
    const { calls } = renderSignIn('', () => json({ error: 'not found' }, 404), 'set-sign-in-method');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText(/New password/), { target: { value: 'one' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'two' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeTruthy();
    expect(screen.getByText(PASSWORD_MESSAGES.passwordTooShort)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/New password/), { target: { value: 'ten-chars!' } });
    expect(await screen.findByText(PASSWORD_MESSAGES.passwordNeedsUppercase)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/New password/), { target: { value: 'Ten-chars-1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Ten-chars-1' } });
    await waitFor(() => expect(screen.queryByText(MESSAGES.passwordsDiffer)).toBeNull());
    expect(screen.queryByText(PASSWORD_MESSAGES.passwordNeedsUppercase)).toBeNull();
    expect(calls).toEqual([]);
  });

  it("takes a refused attempt's error away on the next attempt, even one the form itself refuses", async () => {
    renderSignIn('', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method')
        return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'password', methods: [] });
      if (path === '/sessions/verify_password')
        return json({ error: 'invalid_password', message: 'Invalid password' }, 401);
      return json({ error: 'not found' }, 404);
    });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'alice@client.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe('Invalid password');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MESSAGES.passwordMissing)).toBeTruthy();
    expect(screen.queryByTestId('signin-error')).toBeNull();
  });

  describe('another way to sign in', () => {
    const lookup = (methods: { name: string; value: string }[]) =>
      json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'password', methods });

    const EMAIL_AND_SMS = [
      { name: 'email', value: 'c***@client.test' },
      { name: 'sms', value: '(***) ***-0123' },
    ];

    async function openAlternate(answer: (path: string, body: unknown) => Response) {
      const rendered = renderSignIn('?email=cleo%40client.test', answer);
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Sign in another way' }));
      await screen.findByRole('button', { name: 'Email me a code' });
      return rendered;
    }

    it('offers Text me a code when the lookup lists the sms method, and sends it', async () => {
      const { calls } = await openAlternate((path) => {
        if (path === '/sessions/get_preferred_sign_in_method') return lookup(EMAIL_AND_SMS);
        if (path === '/sessions/send_sms_verification_code')
          return json({ uid: 'u1', sent_to: '(***) ***-0123' });
        return json({ error: 'not found' }, 404);
      });
      fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
      expect(await screen.findByText(/We sent a 6-digit code to \(\*\*\*\) \*\*\*-0123/)).toBeTruthy();
      expect(calls.at(-1)).toBe('/sessions/send_sms_verification_code');
    });

    it('has no Text me a code without a phone', async () => {
      await openAlternate((path) =>
        path === '/sessions/get_preferred_sign_in_method'
          ? lookup([{ name: 'email', value: 'c***@client.test' }])
          : json({ error: 'not found' }, 404),
      );
      expect(screen.queryByRole('button', { name: 'Text me a code' })).toBeNull();
    });

    it('shows the SMS failure with the Reset sign-in method button it points to', async () => {
      const { calls } = await openAlternate((path) => {
        if (path === '/sessions/get_preferred_sign_in_method') return lookup(EMAIL_AND_SMS);
        if (path === '/sessions/send_sms_verification_code')
          return json({ error: 'sms_failed', message: MESSAGES.smsFailed }, 400);
        if (path === '/sessions/forgot_password') return json({ sent_to: 'c***@client.test' });
        return json({ error: 'not found' }, 404);
      });
      fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
      expect((await screen.findByTestId('signin-error')).textContent).toBe(MESSAGES.smsFailed);
      fireEvent.click(screen.getByRole('button', { name: 'Reset sign-in method' }));
      expect(await screen.findByText(/We sent a link to c\*\*\*@client\.test/)).toBeTruthy();
      expect(calls.at(-1)).toBe('/sessions/forgot_password');
      expect(screen.queryByRole('button', { name: 'Reset sign-in method' })).toBeNull();
    });
  });

  it.each([
    ['#token=reset-link', 'its token in the fragment'],
    ['?token=reset-link', 'its token in the query, as sent before'],
  ])(
    'goes on with the set-password step when the page of an opened reset link reloads, and forgets it once set (%s: %s)',
    async (link) => {
      const resetLink = resetLinkSpentOnceOpened();
      const resets: unknown[] = [];
      const answer = (path: string, body: unknown) => {
        if (path === '/sessions/verify_auth_link') return resetLink.open();
        if (path === '/sessions/reset_password') {
          resets.push(body);
          return json({ auth_token: 'signed-in' });
        }
        if (path === '/sessions/exchange_token')
          return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
        return json({ error: 'not found' }, 404);
      };
      renderSignIn(link, answer);
      await screen.findByLabelText(/New password/);
      // The token left the address (the spent token kept with the history entry), and the page reloads.
      expect(window.location.href).toBe('http://localhost/signin');
      cleanup();
      const { navigation } = renderSignIn(RELOAD, answer);
      const password = await screen.findByLabelText(/New password/);
      expect(resetLink.opened()).toBe(1);
      // Not signed in: nothing to sign out of.
      expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
      fireEvent.change(password, { target: { value: 'Good-Password-1' } });
      fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Good-Password-1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      await waitFor(() => expect(navigation.signedIn).toHaveBeenCalled());
      expect(resets).toEqual([expect.objectContaining({ token: 'grant-1' })]);
      expect(window.sessionStorage.length).toBe(0);
    },
  );

  describe('emailed links', () => {
    const address = () => window.location.pathname + window.location.search + window.location.hash;
    const signInLink = (held: Promise<Response>, bodies: unknown[]) => (path: string, body: unknown) => {
      if (path === '/sessions/verify_auth_link') {
        bodies.push(body);
        return held;
      }
      if (path === '/sessions/exchange_token')
        return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
      return json({ error: 'not found' }, 404);
    };

    it.each([
      ['?firm=demo-cpa&redirect=%2Fdocuments#token=link-1', 'in the fragment'],
      ['?token=link-1&firm=demo-cpa&redirect=%2Fdocuments', 'in the query, as sent before'],
    ])(
      'follows a sign-in link (%s: its token %s) once, taking the token out of the address before its answer',
      async (link) => {
        const { answer, release } = heldAnswer();
        const bodies: unknown[] = [];
        const { navigation } = renderSignIn(link, signInLink(answer, bodies));
        await waitFor(() => expect(bodies).toEqual([{ token: 'link-1' }]));
        // Out of the address while the link is checked; the firm and the redirect stay, in the same entry.
        expect(address()).toBe('/signin?firm=demo-cpa&redirect=%2Fdocuments');
        expect(window.history.length).toBe(1);
        release(json({ auth_token: 'grant', uid: 'u1', purpose: 'sign_in', redirect: '' }));
        await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/documents'));
        expect(bodies).toHaveLength(1);
      },
    );

    it('shows the expired-link step for a spent link of the fragment, its token gone from the address', async () => {
      renderSignIn('#token=spent', (path) =>
        path === '/sessions/verify_auth_link'
          ? json({ error: 'link_expired', message: 'gone' }, 410)
          : json({ error: 'not found' }, 404),
      );
      await screen.findByText('This link has expired or was already used. Get a new one:');
      expect(address()).toBe('/signin');
      // Nor kept with the entry: opening /signin again shows the sign-in form, not this step.
      expect(window.history.state?.usr).toEqual({});
    });

    it('puts back the fragment of the page a visitor without a session opened on the way there', async () => {
      // As the shell's router left the entry, sending a visitor of /profile#email_token=e-1 to sign in.
      window.history.replaceState(
        { usr: { redirectHash: '#email_token=e-1' }, key: 'k', idx: 0 },
        '',
        '/signin?redirect=%2Fprofile',
      );
      const { navigation } = renderSignIn(RELOAD, (path) => {
        if (path === '/sessions/get_preferred_sign_in_method')
          return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'password', methods: [] });
        if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
        if (path === '/sessions/exchange_token')
          return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
        return json({ error: 'not found' }, 404);
      });
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'pw' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/profile#email_token=e-1'));
    });
  });

  it('asks for a new link when the kept grant of a reloaded reset page has run out', async () => {
    window.sessionStorage.setItem(
      'portico.reset-grant',
      JSON.stringify({ token: 'old-link', grant: 'stale' }),
    );
    renderSignIn('#token=old-link', (path) =>
      path === '/sessions/reset_password'
        ? json({ error: 'link_expired', message: 'gone' }, 410)
        : json({ error: 'not found' }, 404),
    );
    fireEvent.change(await screen.findByLabelText(/New password/), { target: { value: 'Good-Password-1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Good-Password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByText('This link has expired or was already used. Get a new one:');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('shows the Reset sign-in method button with the SMS failure on the expired-link screen', async () => {
    const forgot: unknown[] = [];
    renderExpiredLinkOfSmsUser((path, body) => {
      if (path !== '/sessions/forgot_password') return undefined;
      forgot.push(body);
      return json({ sent_to: 'c***@client.test' });
    });
    await screen.findByText('This link has expired or was already used. Get a new one:');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@client.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(MESSAGES.smsFailed);
    expect(screen.getByText('This link has expired or was already used. Get a new one:')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset sign-in method' }));
    await screen.findByText(/We sent a link to c\*\*\*@client\.test/);
    expect(forgot).toEqual([{ email: 'cleo@client.test' }]);
  });

  it('asks for the second factor after a texted code when identity requires it', async () => {
    renderSignIn('?email=cleo%40client.test', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method')
        return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'sms', methods: [] });
      if (path === '/sessions/send_sms_verification_code')
        return json({ uid: 'u1', sent_to: '(***) ***-0123' });
      if (path === '/sessions/verify_verification_code') return twoFactorAsked();
      return json({ error: 'not found' }, 404);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await screen.findByRole('heading', { name: '2-Factor Auth' })).toBeTruthy();
    expect(screen.getByText('Enter the 6-digit code we sent to c***@client.test.')).toBeTruthy();
  });

  describe('set-email (a user with a temporary email chooses email passcode)', () => {
    const tempUser = { id: 'u1', email: 'temp-u1@temporary.test', preferences: { has_temp_email: true } };

    it('asks to confirm the new email in a dialog and does not switch the sign-in method yet', async () => {
      const { calls, navigation } = renderSignIn(
        '',
        (path) => {
          if (path === '/current_user') return json(tempUser);
          if (path === '/users/u1')
            return json({
              user: { ...tempUser, pending_email: 'cleo@real.test' },
              email_confirmation_sent: true,
            });
          if (path === '/users/set_sign_in_method') return json({ auth_token: 'grant' });
          return json({ error: 'not found' }, 404);
        },
        'set-sign-in-method',
      );
      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByRole('heading', { name: 'One more step to go…' })).toBeTruthy();
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@real.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm your new email' });
      expect(dialog.textContent).toContain('We sent a confirmation link to cleo@real.test.');
      expect(dialog.textContent).toContain(
        'Your new email must be confirmed before it is used, and your login method will be updated',
      );
      expect(calls).toEqual(['/current_user', '/users/u1']);
      expect(navigation.navigate).not.toHaveBeenCalled();
      expect(screen.getByTestId('pending-email').textContent).toContain('cleo@real.test');
    });

    it("checks the new address with spec 2's messages before saving it", async () => {
      const { calls } = renderSignIn(
        '',
        (path) => (path === '/current_user' ? json(tempUser) : json({ error: 'not found' }, 404)),
        'set-sign-in-method',
      );
      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByRole('heading', { name: 'One more step to go…' });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Email is required')).toBeTruthy();
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@real' } });
      expect(await screen.findByText('Invalid email address')).toBeTruthy();
      expect(calls).toEqual(['/current_user']);
    });

    it("checks the phone number with spec 2's messages before saving it", async () => {
      const { calls } = renderSignIn('', () => json({ error: 'not found' }, 404), 'set-sign-in-method');
      fireEvent.click(await screen.findByLabelText('SMS passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Phone is required')).toBeTruthy();
      fireEvent.change(screen.getByLabelText('Phone Number'), { target: { value: '415555' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Phone number must be 10 digits')).toBeTruthy();
      expect(calls).toEqual([]);
    });

    it('switches to email passcode at once when the address needs no confirmation', async () => {
      const { calls, navigation } = renderSignIn(
        '',
        (path) => {
          if (path === '/current_user') return json(tempUser);
          if (path === '/users/u1') return json({ user: tempUser, email_confirmation_sent: false });
          if (path === '/users/set_sign_in_method') return json({ auth_token: 'grant' });
          if (path === '/sessions/exchange_token')
            return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
          return json({ error: 'not found' }, 404);
        },
        'set-sign-in-method',
      );
      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'cleo@real.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/'));
      expect(calls).toEqual([
        '/current_user',
        '/users/u1',
        '/users/set_sign_in_method',
        '/sessions/exchange_token',
      ]);
    });

    it('goes on without signing in again when a signed-in user changes method (no grant comes back)', async () => {
      const { calls, navigation } = renderSignIn(
        '',
        (path) => {
          if (path === '/current_user') return json({ id: 'u1', email: 'cleo@real.test', preferences: {} });
          if (path === '/users/set_sign_in_method')
            return json({ auth_token: '', preferred_sign_in_method: 'email' });
          return json({ error: 'not found' }, 404);
        },
        'set-sign-in-method',
      );
      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(navigation.navigate).toHaveBeenCalledWith('/'));
      expect(calls).toEqual(['/current_user', '/users/set_sign_in_method']);
      expect(screen.queryByTestId('signin-error')).toBeNull();
    });

    it.each([
      ['?firm=demo-cpa#email_token=tok-1', 'in the fragment'],
      ['?email_token=tok-1&firm=demo-cpa', 'in the query, as sent before'],
    ])(
      'confirms the email from the emailed link on /signin (%s: its token %s) and offers to sign in with it',
      async (link) => {
        const bodies: unknown[] = [];
        renderSignIn(link, (path, body) => {
          if (path === '/users/confirm_email') {
            bodies.push(body);
            return json({ ...tempUser, email: 'cleo@real.test', preferences: { has_temp_email: false } });
          }
          return json({ error: 'not found' }, 404);
        });
        await waitFor(() =>
          expect(screen.getByTestId('signin-notice').textContent).toBe(MESSAGES.emailConfirmed),
        );
        expect(bodies).toEqual([{ token: 'tok-1' }]);
        expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('cleo@real.test');
        // The token left the address, the firm stayed; no token is kept for a reload.
        expect(window.location.pathname + window.location.search + window.location.hash).toBe(
          '/signin?firm=demo-cpa',
        );
        expect(window.history.state?.usr).toEqual({});
      },
    );
  });

  const passwordLookup = () =>
    json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'password', methods: [] });

  describe('2-Factor Auth', () => {
    const challengeGone = () =>
      json({ error: MESSAGES.invalidCode, message: MESSAGES.invalidCode, code: 'challenge_expired' }, 401);

    /** Signs in with a password up to the second factor; `answer` answers first when it has an answer. */
    async function openTwoFactor(
      answer: (path: string, body: unknown) => Response | Promise<Response> | undefined,
      query = '?email=cleo%40client.test',
    ) {
      const rendered = renderSignIn(query, (path, body) => {
        const own = answer(path, body);
        if (own) return own;
        if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
        if (path === '/sessions/verify_password') return twoFactorAsked();
        return json({ error: 'not found' }, 404);
      });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'pw' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
      await screen.findByRole('heading', { name: '2-Factor Auth' });
      return rendered;
    }

    it('goes back to the sign-in step', async () => {
      await openTwoFactor(() => undefined);
      fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
      expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeTruthy();
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('cleo@client.test');
      expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    });

    it.each([
      ['Verify Code', '/sessions/verify_2fa_code'],
      ['Resend code', '/sessions/send_2fa_code'],
      ['Email me a sign-in link instead', '/sessions/send_2fa_link'],
    ])(
      'goes back to the sign-in step with the error once the challenge has run out (%s)',
      async (button, call) => {
        await openTwoFactor((path) => (path === call ? challengeGone() : undefined));
        fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
        fireEvent.click(screen.getByRole('button', { name: button }));
        expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeTruthy();
        expect(screen.getByTestId('signin-error').textContent).toBe(MESSAGES.invalidCode);
        expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
      },
    );

    it('sends where the sign-in is headed with the two-factor link, which opens in a new tab', async () => {
      const bodies: unknown[] = [];
      await openTwoFactor((path, body) => {
        if (path !== '/sessions/send_2fa_link') return undefined;
        bodies.push(body);
        return json({ uid: 'u1', sent_to: 'c***@client.test' });
      }, '?email=cleo%40client.test&redirect=%2Fprofile');
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link instead' }));
      await waitFor(() => expect(bodies).toEqual([{ challenge_token: 'challenge', redirect: '/profile' }]));
    });

    it('stays on the step when only the code is wrong', async () => {
      await openTwoFactor((path) =>
        path === '/sessions/verify_2fa_code'
          ? json({ error: MESSAGES.invalidCode, message: MESSAGES.invalidCode, code: 'invalid_code' }, 401)
          : undefined,
      );
      fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
      expect((await screen.findByTestId('signin-error')).textContent).toBe(MESSAGES.invalidCode);
      expect(screen.getByRole('heading', { name: '2-Factor Auth' })).toBeTruthy();
    });

    it('keeps Back to sign in still while the code is checked', async () => {
      const held = heldAnswer();
      await openTwoFactor((path) => (path === '/sessions/verify_2fa_code' ? held.answer : undefined));
      fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
      const back = screen.getByRole('button', { name: 'Back to sign in' }) as HTMLButtonElement;
      await waitFor(() => expect(back.disabled).toBe(true));
      await act(async () =>
        held.release(json({ error: 'unavailable', message: 'Service Unavailable' }, 503)),
      );
      await screen.findByTestId('signin-error');
      expect(back.disabled).toBe(false);
    });
  });

  it("moves the focus to each new step's heading, or to its field, and says when a new code was sent", async () => {
    renderSignIn('?email=cleo%40client.test', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
      if (path === '/sessions/send_email_verification_code')
        return json({ uid: 'u1', sent_to: 'c***@client.test' });
      return json({ error: 'not found' }, 404);
    });
    const heading = screen.getByRole('heading', { name: 'Sign In' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    fireEvent.click(screen.getByRole('button', { name: 'Use another email' }));
    await waitFor(() => expect(document.activeElement).toBe(heading));

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in another way' }));
    await screen.findByRole('button', { name: 'Email me a code' });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Sign In' })),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));
    const code = await screen.findByLabelText('Verification code');
    // The step's own field keeps the focus it took.
    await waitFor(() => expect(document.activeElement).toBe(code));
    // The status region is there, empty, before the notice: one created holding its text is often not read.
    const notice = screen.getByRole('status');
    expect(notice.getAttribute('data-testid')).toBe('signin-notice');
    expect(notice.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(notice.textContent).toBe(MESSAGES.codeResent));
    expect(screen.getByRole('status')).toBe(notice);
  });

  it("shows the firm's branding that answers after Continue was pressed", async () => {
    const theme = heldAnswer();
    renderSignIn('?firm=late-cpa&email=cleo%40client.test', (path) => {
      if (path === '/firms/get_firm_theme_by_slug') return theme.answer;
      if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
      return json({ error: 'not found' }, 404);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Password');
    theme.release(json({ name: 'Late CPA', slug: 'late-cpa', logo_url: '', primary: '' }));
    expect((await screen.findByTestId('firm-branding')).textContent).toBe('Late CPA');
  });

  it("draws a first load in the firm's own colour, the later steps included", async () => {
    window.history.replaceState(null, '', '/signin?firm=red-cpa&email=cleo%40client.test');
    const { runtime } = answeredRuntime((path) => {
      if (path === '/firms/get_firm_theme_by_slug')
        return json({ name: 'Red CPA', slug: 'red-cpa', logo_url: '', primary: '#aa3311' });
      if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
      return json({ error: 'not found' }, 404);
    });
    render(<FirstLoadWithColour runtime={runtime} />);
    const firmColours = () =>
      [...document.querySelectorAll('style[data-mantine-styles]')].map(
        (sheet) => /--mantine-color-firm-6: (#[0-9a-f]+)/.exec(sheet.textContent ?? '')?.[1],
      );
    expect(firmColours()).toEqual(['#1f5fa8']);
    await screen.findByTestId('firm-branding');
    await waitFor(() => expect(firmColours()).toEqual(['#aa3311']));
    // The password step is Mantine's, with the kit's provider around it in the same colour.
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Password');
    await waitFor(() => expect(firmColours()).toEqual(['#aa3311', '#aa3311']));
  });

  it('keeps the links still while a request is out', async () => {
    const password = heldAnswer();
    const code = heldAnswer();
    renderSignIn('?email=cleo%40client.test', (path) => {
      if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
      if (path === '/sessions/verify_password') return password.answer;
      if (path === '/sessions/send_email_verification_code') return code.answer;
      return json({ error: 'not found' }, 404);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const links = ['Use another email', 'Forgot password?', 'Sign in another way'].map(
      (name) => screen.getByRole('button', { name }) as HTMLButtonElement,
    );
    await waitFor(() => expect(links.map((l) => l.disabled)).toEqual([true, true, true]));
    await act(async () =>
      password.release(json({ error: 'invalid_password', message: 'Invalid password' }, 401)),
    );
    await screen.findByTestId('signin-error');
    expect(links.map((l) => l.disabled)).toEqual([false, false, false]);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in another way' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Email me a code' }));
    const back = screen.getByRole('button', { name: 'Back to sign in' }) as HTMLButtonElement;
    await waitFor(() => expect(back.disabled).toBe(true));
    await act(async () => code.release(json({ uid: 'u1', sent_to: 'c***@client.test' })));
    await screen.findByLabelText('Verification code');
  });

  it('sends a new link from the expired-link step as a form, taking the SMS failure away on each attempt', async () => {
    const links: unknown[] = [];
    renderExpiredLinkOfSmsUser((path, body) => {
      if (path !== '/sessions/send_auth_link') return undefined;
      links.push(body);
      return json({ sent_to: 'c***@client.test' });
    });
    await screen.findByText('This link has expired or was already used. Get a new one:');
    const email = screen.getByLabelText('Email');
    const form = email.closest('form');
    expect(form).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Email me a new link' }).getAttribute('type')).toBe('submit');
    expect(screen.getByRole('button', { name: 'Text me a code' }).getAttribute('type')).toBe('button');
    fireEvent.change(email, { target: { value: 'cleo@client.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(MESSAGES.smsFailed);

    // An attempt the form refuses by itself takes the SMS failure and its button away too.
    fireEvent.change(email, { target: { value: '' } });
    fireEvent.submit(form as HTMLFormElement);
    expect(await screen.findByText(MESSAGES.emailFirst)).toBeTruthy();
    expect(screen.queryByTestId('signin-error')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset sign-in method' })).toBeNull();

    // Enter in the field submits the form: a new link.
    fireEvent.change(email, { target: { value: 'cleo@client.test' } });
    fireEvent.submit(form as HTMLFormElement);
    expect(await screen.findByText(/We sent a link to c\*\*\*@client\.test/)).toBeTruthy();
    expect(links).toEqual([expect.objectContaining({ uid: 'u1', accountantId: 'a1' })]);
  });

  describe('/set-sign-in-method (signed in, with set_password_required)', () => {
    it('offers Sign out on the method chooser and on each of its steps', async () => {
      const { signOut } = renderSignIn(
        '',
        (path) =>
          path === '/current_user'
            ? json({ id: 'u1', email: 'temp-u1@temporary.test', preferences: { has_temp_email: true } })
            : json({ error: 'not found' }, 404),
        'set-sign-in-method',
      );
      const signOutLink = () => screen.findByRole('button', { name: 'Sign out' });
      await signOutLink();

      fireEvent.click(screen.getByLabelText('SMS passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByRole('heading', { name: 'Sign in via SMS' });
      await signOutLink();
      fireEvent.click(await screen.findByRole('button', { name: 'Back' }));

      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByRole('heading', { name: 'One more step to go…' });
      await signOutLink();
      fireEvent.click(await screen.findByRole('button', { name: 'Back' }));

      fireEvent.click(await screen.findByLabelText('Password'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByLabelText(/New password/);
      fireEvent.click(await signOutLink());
      expect(signOut).toHaveBeenCalledTimes(1);
    });

    it('drops the answer of the method being set when the user signs out meanwhile', async () => {
      const held = heldAnswer();
      const { signOut, calls, navigation, session } = renderSignIn(
        '',
        (path) => {
          if (path === '/users/set_sign_in_method') return held.answer;
          if (path === '/sessions/exchange_token')
            return json({ access_token: 'at', refresh_token: 'rt', expires_in: 900, user_id: 'u1' });
          return json({ error: 'not found' }, 404);
        },
        'set-sign-in-method',
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText(/New password/), {
        target: { value: 'Good-Password-1' },
      });
      fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Good-Password-1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      await waitFor(() => expect(calls).toContain('/users/set_sign_in_method'));
      // Signing out is never held back by a request on its way.
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
      expect(signOut).toHaveBeenCalledTimes(1);
      await act(async () => {
        held.release(json({ auth_token: 'grant' }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(calls).not.toContain('/sessions/exchange_token');
      expect(navigation.navigate).not.toHaveBeenCalled();
      expect(session.get()).toBeNull();
    });
  });

  it("draws the later steps in the signed-in shell's firm colour, under its own provider", async () => {
    renderRoutedSignIn({ pathname: '/set-sign-in-method', search: '' }, () =>
      json({ error: 'not found' }, 404),
    );
    await screen.findByLabelText('Email passcode');
    const colours = [...document.querySelectorAll('style[data-mantine-styles]')]
      .map((sheet) => /--mantine-color-firm-6: (#[0-9a-f]+)/.exec(sheet.textContent ?? '')?.[1])
      .filter(Boolean);
    expect(colours).toEqual([ROUTED_FIRM_COLOUR]);
  });

  describe('follow-ups of emailed links', () => {
    const address = () => window.location.pathname + window.location.search + window.location.hash;
    const signedInTokens = (setPasswordRequired = false) =>
      json({
        access_token: 'at',
        refresh_token: 'rt',
        expires_in: 900,
        user_id: 'u1',
        set_password_required: setPasswordRequired,
      });

    it('follows a sign-in link opened in the tab that already shows /signin (only its fragment differs)', async () => {
      const bodies: unknown[] = [];
      const { leave, calls } = renderSignInFirst('?firm=demo-cpa', (path, body) => {
        if (path === '/sessions/verify_auth_link') {
          bodies.push(body);
          return json({ auth_token: 'grant', uid: 'u1', purpose: 'sign_in', redirect: '/documents' });
        }
        if (path === '/sessions/exchange_token') return signedInTokens();
        return json({ error: 'not found' }, 404);
      });
      await screen.findByRole('button', { name: 'Continue' });
      // An in-page jump, as the browser makes it for a link that differs only in its fragment: no load.
      await act(async () => {
        window.location.hash = '#token=link-1';
      });
      await waitFor(() => expect(leave).toHaveBeenCalled());
      expect(bodies).toEqual([{ token: 'link-1' }]);
      expect(calls.filter((c) => c === '/sessions/verify_auth_link')).toHaveLength(1);
      expect(address()).toBe('/documents');
    });

    it('confirms an email whose link arrives in the tab that already shows /signin, the token out of the address', async () => {
      const bodies: unknown[] = [];
      renderSignInFirst('?firm=demo-cpa', (path, body) => {
        if (path === '/users/confirm_email') {
          bodies.push(body);
          return json({ id: 'u1', email: 'cleo@real.test', preferences: { has_temp_email: false } });
        }
        return json({ error: 'not found' }, 404);
      });
      await screen.findByRole('button', { name: 'Continue' });
      await act(async () => {
        window.location.hash = '#email_token=tok-1';
      });
      await waitFor(() =>
        expect(screen.getByTestId('signin-notice').textContent).toBe(MESSAGES.emailConfirmed),
      );
      expect(bodies).toEqual([{ token: 'tok-1' }]);
      expect(address()).toBe('/signin?firm=demo-cpa');
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('cleo@real.test');
    });

    it('keeps the token with the entry when a reset link is opened again in its tab, so a reload goes on', async () => {
      // The link was opened in this tab before: its grant is kept, the link itself spent.
      window.sessionStorage.setItem(
        'portico.reset-grant',
        JSON.stringify({ token: 'reset-link', grant: 'grant-1' }),
      );
      let verifies = 0;
      const answer = (path: string) => {
        if (path === '/sessions/verify_auth_link') {
          verifies += 1;
          return json({ error: 'link_expired', message: 'gone' }, 410);
        }
        return json({ error: 'not found' }, 404);
      };
      renderSignIn('#token=reset-link', answer);
      await screen.findByLabelText(/New password/);
      expect(address()).toBe('/signin');
      expect(window.history.state?.usr).toEqual({ linkToken: 'reset-link' });
      cleanup();
      renderSignIn(RELOAD, answer);
      expect(await screen.findByLabelText(/New password/)).toBeTruthy();
      expect(verifies).toBe(0);
    });

    it.each([
      ['its grant run out', { token: 'old-link', grant: 'stale' }],
      ['its grant gone from the tab', null],
    ])(
      'drops a spent reset token from the entry (%s): a reload does not post it again',
      async (_case, kept) => {
        if (kept) window.sessionStorage.setItem('portico.reset-grant', JSON.stringify(kept));
        // The page of an opened reset link, its spent token kept with the entry.
        window.history.replaceState({ usr: { linkToken: 'old-link' } }, '', '/signin?firm=demo-cpa');
        const verified: unknown[] = [];
        const answer = (path: string, body: unknown) => {
          if (path === '/sessions/verify_auth_link') {
            verified.push(body);
            return json({ error: 'link_expired', message: 'gone' }, 410);
          }
          if (path === '/sessions/reset_password')
            return json({ error: 'link_expired', message: 'gone' }, 410);
          return json({ error: 'not found' }, 404);
        };
        renderSignIn(RELOAD, answer);
        if (kept) {
          fireEvent.change(await screen.findByLabelText(/New password/), {
            target: { value: 'Good-Password-1' },
          });
          fireEvent.change(screen.getByLabelText('Confirm password'), {
            target: { value: 'Good-Password-1' },
          });
          fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
          await screen.findByText('This link has expired or was already used. Get a new one:');
        } else {
          // No grant for it: the token is spent, dropped quietly (not posted), and the sign-in form shows.
          expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
          await waitFor(() => expect(window.history.state?.usr).toEqual({}));
        }
        expect(verified).toEqual([]);
        expect(window.history.state?.usr).toEqual({});
        expect(address()).toBe('/signin?firm=demo-cpa');
        cleanup();
        renderSignIn(RELOAD, answer);
        expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
        expect(verified).toEqual([]);
      },
    );

    it('does not post a reset token again at its earlier entry once the password was set (Back, set, Forward)', async () => {
      const verified: unknown[] = [];
      const resets: unknown[] = [];
      const answer = (path: string, body: unknown) => {
        if (path === '/sessions/verify_auth_link') {
          verified.push(body);
          return verified.length === 1
            ? json({ auth_token: 'grant-1', uid: 'u1', purpose: 'set_password' })
            : json({ error: 'link_expired', message: 'gone' }, 410);
        }
        if (path === '/sessions/reset_password') {
          resets.push(body);
          return json({ auth_token: 'signed-in' });
        }
        if (path === '/sessions/exchange_token') return signedInTokens();
        return json({ error: 'not found' }, 404);
      };
      const { leave } = renderSignInFirst('?firm=demo-cpa', answer);
      await screen.findByRole('button', { name: 'Continue' });
      // The reset link opened in this page (an in-page jump: a new history entry).
      await act(async () => {
        window.location.hash = '#token=reset-link';
      });
      const password = await screen.findByLabelText(/New password/);
      expect(window.history.state?.usr).toEqual({ linkToken: 'reset-link' });
      // Back, while the set-password step shows: the address is the earlier entry's, the form stays.
      await act(async () => {
        window.history.back();
      });
      await waitFor(() => expect(window.history.state?.usr).toBeUndefined());
      fireEvent.change(password, { target: { value: 'Good-Password-1' } });
      fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Good-Password-1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      await waitFor(() => expect(leave).toHaveBeenCalled());
      expect(resets).toEqual([expect.objectContaining({ token: 'grant-1' })]);
      expect(address()).toBe('/');
      // Forward: the reset link's entry, its spent token still kept with it, opens the sign-in page.
      await act(async () => {
        window.history.forward();
      });
      await waitFor(() => expect(address()).toBe('/signin?firm=demo-cpa'));
      expect(window.history.state?.usr).toEqual({ linkToken: 'reset-link' });
      cleanup();
      renderSignIn(RELOAD, answer);
      expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
      await waitFor(() => expect(window.history.state?.usr).toEqual({}));
      expect(verified).toEqual([{ token: 'reset-link' }]);
      expect(screen.queryByText('This link has expired or was already used. Get a new one:')).toBeNull();
    });

    it('keeps the token with the new entry when a reset link is reopened in the tab it left, so a reload goes on', async () => {
      const resetLink = resetLinkSpentOnceOpened();
      const answer = (path: string) => {
        if (path === '/sessions/verify_auth_link') return resetLink.open();
        return json({ error: 'not found' }, 404);
      };
      renderSignInFirst('#token=reset-link', answer);
      await screen.findByLabelText(/New password/);
      expect(address()).toBe('/signin');
      expect(window.history.state?.usr).toEqual({ linkToken: 'reset-link' });
      // The same link opened again in this tab: the address differs only in its fragment, an in-page jump
      // to a new history entry without state.
      await act(async () => {
        window.location.hash = '#token=reset-link';
      });
      await waitFor(() => expect(address()).toBe('/signin'));
      expect(screen.getByLabelText(/New password/)).toBeTruthy();
      expect(window.history.state?.usr).toEqual({ linkToken: 'reset-link' });
      cleanup();
      renderSignInFirst(RELOAD, answer);
      expect(await screen.findByLabelText(/New password/)).toBeTruthy();
      expect(resetLink.opened()).toBe(1);
    });

    it('drops the reset token from the entry once the password is set, before a two-factor step', async () => {
      const resetLink = resetLinkSpentOnceOpened();
      const answer = (path: string) => {
        if (path === '/sessions/verify_auth_link') return resetLink.open();
        if (path === '/sessions/reset_password') return twoFactorAsked();
        return json({ error: 'not found' }, 404);
      };
      renderSignIn('#token=reset-link', answer);
      fireEvent.change(await screen.findByLabelText(/New password/), {
        target: { value: 'Good-Password-1' },
      });
      fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Good-Password-1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      await screen.findByRole('heading', { name: '2-Factor Auth' });
      fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
      await screen.findByRole('heading', { name: 'Sign In' });
      expect(window.history.state?.usr).toEqual({});
      cleanup();
      renderSignIn(RELOAD, answer);
      expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
      expect(resetLink.opened()).toBe(1);
    });

    /** A visitor of /profile#email_token=e-1 sent to sign in, as the shell's router left the entry. */
    const fromConfirmation = { redirectHash: '#email_token=e-1' };
    const passwordSignIn = async () => {
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'pw' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    };

    it('carries the kept fragment to /set-sign-in-method and puts it back once a method is set', async () => {
      let exchanges = 0;
      renderRoutedSignIn(
        { pathname: '/signin', search: '?redirect=%2Fprofile', state: fromConfirmation },
        (path) => {
          if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
          if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
          if (path === '/sessions/exchange_token') {
            exchanges += 1;
            return signedInTokens(exchanges === 1);
          }
          if (path === '/current_user') return json({ id: 'u1', email: 'cleo@client.test', preferences: {} });
          if (path === '/users/set_sign_in_method') return json({ auth_token: 'grant-2' });
          return json({ error: 'not found' }, 404);
        },
      );
      await passwordSignIn();
      await waitFor(() =>
        expect(screen.getByTestId('router-where').textContent).toBe(
          `/set-sign-in-method?redirect=%2Fprofile ${JSON.stringify(fromConfirmation)}`,
        ),
      );
      fireEvent.click(await screen.findByLabelText('Email passcode'));
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() =>
        expect(screen.getByTestId('router-where').textContent).toBe('/profile#email_token=e-1 null'),
      );
    });

    it('carries the kept fragment to /set-sign-in-method from the first load of /signin too', async () => {
      window.history.replaceState({ usr: fromConfirmation }, '', '/signin?redirect=%2Fprofile');
      const { leave } = renderSignInFirst(RELOAD, (path) => {
        if (path === '/sessions/get_preferred_sign_in_method') return passwordLookup();
        if (path === '/sessions/verify_password') return json({ auth_token: 'grant' });
        if (path === '/sessions/exchange_token') return signedInTokens(true);
        return json({ error: 'not found' }, 404);
      });
      await passwordSignIn();
      await waitFor(() => expect(leave).toHaveBeenCalled());
      expect(address()).toBe('/set-sign-in-method?redirect=%2Fprofile');
      expect(window.history.state?.usr).toEqual(fromConfirmation);
    });

    it('says the email change is not confirmed yet when the sign-in goes on in an emailed link', async () => {
      window.history.replaceState({ usr: fromConfirmation }, '', '/signin?redirect=%2Fprofile');
      const sent: unknown[] = [];
      renderSignIn(RELOAD, (path, body) => {
        if (path === '/sessions/get_preferred_sign_in_method')
          return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'link', methods: [] });
        if (path === '/sessions/send_auth_link') {
          sent.push(body);
          return json({ sent_to: 'c***@client.test' });
        }
        return json({ error: 'not found' }, 404);
      });
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByText(/We sent a link to c\*\*\*@client\.test/);
      expect(screen.getByTestId('confirmation-left-behind').textContent).toBe(
        MESSAGES.confirmationLeftBehind,
      );
      // The confirmation's token goes nowhere near the link (nor its ?redirect=).
      expect(JSON.stringify(sent)).not.toContain('e-1');
      expect(sent).toEqual([expect.objectContaining({ redirect: '/profile' })]);
    });

    it('says nothing of a confirmation when the page opened without one', async () => {
      renderSignIn('?redirect=%2Fprofile', (path) => {
        if (path === '/sessions/get_preferred_sign_in_method')
          return json({ uid: 'u1', accountant_id: 'a1', preferred_sign_in_method: 'link', methods: [] });
        if (path === '/sessions/send_auth_link') return json({ sent_to: 'c***@client.test' });
        return json({ error: 'not found' }, 404);
      });
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'cleo@client.test' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByText(/We sent a link to c\*\*\*@client\.test/);
      expect(screen.queryByTestId('confirmation-left-behind')).toBeNull();
    });
  });
});
