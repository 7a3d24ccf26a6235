import {
  errorMessage,
  isApiError,
  type SignInStep,
  takeLinkSecret,
  useApi,
  type VerifiedLink,
} from '@portico/kit/signin';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useShellRuntime } from '../app/services.js';
import { forgetRecentEntities } from '../layouts/recent-entities.js';
import { MESSAGES } from './messages.js';
import { useSignInNavigation } from './navigation.js';
import { forgetResetGrant, keepResetGrant, keptResetGrant } from './reset-grant.js';
import { type SignInState, safeRedirect } from './states.js';

const OWN_MESSAGES: ReadonlySet<string> = new Set(Object.values(MESSAGES));

/** The text for a failed step: the server's (or the listed one), or the page's own message it threw. */
function shownError(err: unknown, listed?: string): string {
  if (!isApiError(err) && listed === undefined && err instanceof Error && OWN_MESSAGES.has(err.message))
    return err.message;
  return errorMessage(err, listed);
}

/**
 * A send that failed on the way (the network, or a service away: 5xx) says the spec's text for that send
 * (s.8), wherever it was started; a refusal (4xx, a 429 with its wait) keeps the server's message.
 */
const sendFailed =
  (text: string) =>
  (err: unknown): never => {
    if (isApiError(err) && err.status < 500) throw err;
    throw new Error(text);
  };

export interface Flow {
  email: string;
  uid: string;
  accountantId: string;
  methods: { name: string; value: string }[];
  /** The password field shows once the lookup says password. */
  passwordStep: boolean;
  challengeToken: string;
  sentTo: string;
  /** A set-password grant from a reset link. */
  grant: string;
  /** How set-password submits: a reset link, or choosing password as the sign-in method. */
  passwordMode: 'reset' | 'method';
  /** The address set-email sent a confirmation link to. */
  pendingEmail: string;
}

const EMPTY_FLOW: Flow = {
  email: '',
  uid: '',
  accountantId: '',
  methods: [],
  passwordStep: false,
  challengeToken: '',
  sentTo: '',
  grant: '',
  passwordMode: 'reset',
  pendingEmail: '',
};

/** The service's answer for a link or grant that is spent, expired or unknown. */
export const isLinkSpent = (err: unknown) =>
  isApiError(err) && (err.status === 410 || err.status === 404 || err.status === 401);

/**
 * The 2fa step's challenge is gone (its 10 minutes are over, or it was used): every call of the step
 * fails from then on. A wrong code is a 401 too, but with the challenge still there.
 */
export const isChallengeGone = (err: unknown) =>
  isApiError(err) && err.status === 401 && err.code !== 'invalid_code';

/** Thrown instead of an answer that came for a step the user has left: the runner drops it. */
class LeftStep extends Error {}

/** The API's calls, each answering only while the attempt that made it is still the current one. */
function answeringWhileCurrent<T extends object>(api: T, attempts: { readonly current: number }): T {
  const calls: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(api)) {
    calls[name] = (...args: unknown[]) => {
      const attempt = attempts.current;
      const stillCurrent = () => {
        if (attempts.current !== attempt) throw new LeftStep();
      };
      return (call as (...a: unknown[]) => Promise<unknown>)(...args).then(
        (answer) => {
          stillCurrent();
          return answer;
        },
        (err: unknown) => {
          stillCurrent();
          throw err;
        },
      );
    };
  }
  return calls as T;
}

/**
 * The sign-in flow of spec 1 s.4.4 without its screens: the state shown, what is known so far (the
 * email, the user, where a code went), the error or notice of the last step, and the steps themselves,
 * each a call to the identity service that moves to the next state. A link from an email (#token=) and
 * an email confirmation (#email_token=) are followed once each, as the page opens or as they arrive in
 * the open page (a link differing from it only in its fragment: see `useWindowNavigation`), and leave
 * the address (in the fragment, which no server sees; links sent before carry them in the query: see the
 * kit's `takeLinkSecret`).
 */
export function useSignInFlow(initial: SignInState) {
  const api = useApi();
  /**
   * Counts the attempts (each run) and the steps the user left while one was out: an answer to an
   * earlier one is dropped, so it neither moves the page nor signs in (the first email's password
   * answer after the user changed the email, a method set after Sign out).
   */
  const attempts = useRef(0);
  const { sessions, users } = useMemo(
    () => ({
      sessions: answeringWhileCurrent(api.sessions, attempts),
      users: answeringWhileCurrent(api.users, attempts),
    }),
    [api],
  );
  const { session } = useShellRuntime();
  const { params, hash, entry, replaceAddress, navigate, signedIn } = useSignInNavigation();
  const redirect = safeRedirect(params.get('redirect'));
  /**
   * Where a step that signs in goes: `target`, with the fragment of the page a visitor without a session
   * opened when it is `?redirect=` (kept with the entry, out of the query: an emailed `#email_token=`).
   */
  const keepsHash = (target: string) =>
    Boolean(entry.redirectHash) && target === redirect && !target.includes('#');
  const landing = (target: string) => (keepsHash(target) ? `${target}${entry.redirectHash}` : target);
  /**
   * The fragment kept is an emailed email confirmation (`#email_token=`). An emailed sign-in link (or
   * two-factor link) opens in a new tab, where the fragment kept with this entry cannot go (it is not put
   * in the link's `?redirect=` either, where the servers would log it): that sign-in lands without it, and
   * the change stays pending, as the profile page shows. The sent-link step says so.
   */
  const confirmationLeftBehind =
    entry.redirectHash !== undefined &&
    takeLinkSecret('email_token', { search: '', hash: entry.redirectHash }).secret !== null;
  const [state, setState] = useState<SignInState>(initial);
  const [flow, setFlow] = useState<Flow>({ ...EMPTY_FLOW, email: (params.get('email') ?? '').trim() });
  const [error, setError] = useState<ReactNode>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The SMS failure message is shown: the button it points to ('the button below') goes with it, in every state. */
  const [smsFailed, setSmsFailed] = useState(false);
  /** Remounts the login form when its email changes from outside it. */
  const [loginKey, setLoginKey] = useState(0);
  const query = params.toString();
  const address = { search: query ? `?${query}` : '', hash };
  const takenToken = takeLinkSecret('token', address);
  const takenEmailToken = takeLinkSecret('email_token', takenToken);
  /**
   * A token kept with the entry whose grant this tab no longer keeps (set, run out, forgotten): spent, and
   * not posted again (Back to a step whose password was then set in an earlier entry, and Forward).
   */
  const spentInEntry = entry.linkToken !== undefined && keptResetGrant(entry.linkToken) === undefined;
  // After a reload of an opened reset link the token is no longer in the address, but kept with the entry
  // (only while its grant is kept: otherwise it is spent).
  const linkToken = takenToken.secret || (spentInEntry ? null : entry.linkToken) || null;
  const emailToken = takenEmailToken.secret;

  const go = (next: SignInState, patch: Partial<Flow> = {}) => {
    setError(null);
    setNotice(null);
    setSmsFailed(false);
    setFlow((f) => ({ ...f, ...patch }));
    setState(next);
  };

  /** The user leaves the step (a link, Sign out): an answer still on its way for it is dropped. */
  const abandon = () => {
    attempts.current += 1;
    setBusy(false);
  };
  const leave = (next: SignInState, patch: Partial<Flow> = {}) => {
    abandon();
    go(next, patch);
  };

  async function run(action: () => Promise<void>, listed?: (err: unknown) => string | undefined) {
    attempts.current += 1;
    const attempt = attempts.current;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (err) {
      if (err instanceof LeftStep || attempt !== attempts.current) return;
      const text = shownError(err, listed?.(err));
      setError(text);
      setSmsFailed(text === MESSAGES.smsFailed);
    } finally {
      if (attempt === attempts.current) setBusy(false);
    }
  }

  /**
   * A call of the 2fa step: once its challenge is gone, back to the login step, where the error is
   * shown (the runner sets it after this move).
   */
  async function withChallenge<T>(call: (challengeToken: string) => Promise<T>): Promise<T> {
    try {
      return await call(flow.challengeToken);
    } catch (err) {
      if (isChallengeGone(err)) go('login', { passwordStep: false, challengeToken: '' });
      throw err;
    }
  }

  /** An auth_token becomes a session; a second factor or a set-password requirement comes first. */
  async function finish(step: SignInStep | VerifiedLink, target = redirect) {
    if (step.two_factor_required) {
      go('2fa', {
        challengeToken: step.challenge_token,
        uid: step.uid || flow.uid,
        sentTo: step.two_factor_methods?.[0]?.value ?? '',
      });
      return;
    }
    if (!step.auth_token) throw new Error(MESSAGES.signInProblem);
    const tokens = await sessions.exchangeToken(step.auth_token);
    // A session this browser held is ended on the server too, not only forgotten here (a shared computer:
    // the previous user's refresh token would otherwise stay valid for its whole life).
    const replaced = session.get();
    session.set(tokens);
    if (replaced && replaced.refresh_token !== tokens.refresh_token)
      void sessions.signOut(replaced.refresh_token).catch(() => undefined);
    if (replaced && replaced.user_id !== tokens.user_id) forgetRecentEntities();
    signedIn();
    if (tokens.set_password_required)
      // The kept fragment goes on with the entry: /set-sign-in-method puts it back once a method is set.
      navigate(
        `/set-sign-in-method?redirect=${encodeURIComponent(target)}`,
        keepsHash(target) ? { redirectHash: entry.redirectHash } : undefined,
      );
    else navigate(landing(target));
  }

  /**
   * After set_sign_in_method: its grant signs in (the step that asked for a method); a user already
   * signed in who chose another method gets none and goes on where they were going.
   */
  async function methodSet(set: { auth_token: string }) {
    if (set.auth_token) return finish({ auth_token: set.auth_token } as SignInStep);
    navigate(landing(redirect));
  }

  /** The address as it is now: the secrets of a link out of it. */
  const addressNow = { search: takenEmailToken.search, hash: takenEmailToken.hash };
  /** The link token followed last (a link from an email: see below). */
  const handledToken = useRef<string | null>(null);

  // The secrets of an emailed link leave the address as the page opens, before they are used (the rest of
  // the address stays): a query left there would reach the servers' logs with a reload, or in the Referer
  // of the page's own requests to this origin. A spent token kept with the entry leaves it, quietly.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per address
  useEffect(() => {
    if (takenToken.secret === null && takenEmailToken.secret === null && !spentInEntry) return;
    const { linkToken: kept, ...rest } = entry;
    // The reset link followed already, opened again in this tab (an in-page jump: a new history entry,
    // without state): its grant goes on, and its token with this entry, so that a reload finds it.
    const reopened =
      takenToken.secret !== null &&
      takenToken.secret === handledToken.current &&
      keptResetGrant(takenToken.secret) !== undefined;
    const token = reopened ? takenToken.secret : spentInEntry ? undefined : kept;
    replaceAddress(addressNow, token ? { ...rest, linkToken: token } : rest);
  }, [params, hash]);
  /**
   * The reset link's grant is forgotten (set, run out, or the link spent): its token leaves the history
   * entry too, so that a reload or Back/Forward does not post the spent token to verify_auth_link again.
   */
  const forgetGrant = () => {
    forgetResetGrant();
    const { linkToken: _spent, ...rest } = entry;
    replaceAddress(addressNow, rest);
  };

  // A link from an email: /signin#token=... (or ?token=... in a link sent before)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per link token
  useEffect(() => {
    if (!linkToken || handledToken.current === linkToken) return;
    handledToken.current = linkToken;
    // This reset link was opened in this tab before (the page reloaded): its grant goes on.
    const kept = keptResetGrant(linkToken);
    if (kept) {
      // Kept with the entry as when it was first opened (the link opened again in this tab carries it
      // in the address, which it now leaves): a reload finds the grant again.
      replaceAddress(addressNow, { ...entry, linkToken });
      go('set-password', { grant: kept, passwordMode: 'reset' });
      return;
    }
    void run(async () => {
      try {
        const verified = await sessions.verifyAuthLink(linkToken);
        if (verified.purpose === 'set_password') {
          keepResetGrant(linkToken, verified.auth_token);
          // The spent token goes with the history entry (no longer in the address), so that a reload of
          // this step finds the kept grant again.
          replaceAddress(addressNow, { ...entry, linkToken });
          go('set-password', { grant: verified.auth_token, passwordMode: 'reset' });
          return;
        }
        await finish(verified, safeRedirect(verified.redirect || params.get('redirect')));
      } catch (err) {
        if (isLinkSpent(err)) {
          // Only a token of the address is posted (one kept with the entry goes on with its grant, or is
          // dropped unposted): nothing kept goes with it.
          go('expired-link');
          return;
        }
        throw err;
      }
    });
  }, [linkToken]);

  // The confirmation link of an email set in the set-email step: /signin#email_token=... (or
  // ?email_token=...). Once confirmed, the user signs in with a code sent to the new address.
  const handledEmailToken = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per confirmation token
  useEffect(() => {
    if (!emailToken || handledEmailToken.current === emailToken) return;
    handledEmailToken.current = emailToken;
    void run(async () => {
      const user = await users.confirmEmail(emailToken);
      go('login', { email: user.email, passwordStep: false });
      setNotice(MESSAGES.emailConfirmed);
      setLoginKey((k) => k + 1);
    });
  }, [emailToken]);

  async function sendLink(uid: string, accountantId: string) {
    if (!uid || !accountantId) throw new Error(MESSAGES.somethingWrong);
    const sent = await sessions
      .sendAuthLink({ uid, accountantId, redirect })
      .catch(sendFailed(MESSAGES.linkSendFailed));
    go('sent-link', { sentTo: sent.sent_to });
  }

  async function sendSms(uid: string) {
    if (!uid) throw new Error(MESSAGES.somethingWrong);
    try {
      const sent = await sessions.sendSmsCode(uid);
      go('sent-text', { sentTo: sent.sent_to });
    } catch (err) {
      if (isApiError(err) && err.status === 429) throw err;
      throw new Error(MESSAGES.smsFailed);
    }
  }

  async function sendEmailCode(uid: string) {
    if (!uid) throw new Error(MESSAGES.somethingWrong);
    const sent = await sessions.sendEmailCode(uid).catch(sendFailed(MESSAGES.codeSendFailed));
    go('sent-email', { sentTo: sent.sent_to });
  }

  async function lookup(email: string) {
    try {
      const found = await sessions.lookupEmail(email);
      setFlow((f) => ({
        ...f,
        email,
        uid: found.uid,
        accountantId: found.accountant_id,
        methods: found.methods ?? [],
      }));
      return found;
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw new Error(MESSAGES.noUser);
      throw err;
    }
  }

  /** The uid and accountant id of the email in hand, looked up when not known yet. */
  async function ensureUser() {
    if (flow.uid && flow.accountantId) return { uid: flow.uid, accountantId: flow.accountantId };
    if (!flow.email) throw new Error(MESSAGES.emailFirst);
    const found = await lookup(flow.email);
    return { uid: found.uid, accountantId: found.accountant_id };
  }
  const hasSms = flow.methods.some((m) => m.name === 'sms');

  /** A new attempt (any form's submit, valid or not) takes the previous attempt's error away. */
  const clearError = () => {
    setError(null);
    setSmsFailed(false);
  };

  return {
    state,
    redirect,
    flow,
    setFlow,
    error,
    notice,
    busy,
    smsFailed,
    loginKey,
    hasSms,
    clearError,
    go,
    leave,
    abandon,
    run,
    withChallenge,
    setNotice,
    sessions,
    users,
    finish,
    methodSet,
    lookup,
    ensureUser,
    sendLink,
    sendSms,
    sendEmailCode,
    forgetGrant,
    confirmationLeftBehind,
  };
}
