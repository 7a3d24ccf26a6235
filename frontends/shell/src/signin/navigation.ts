import { takeLinkSecret } from '@portico/kit/signin';
import { createContext, useContext, useEffect, useMemo, useState } from 'react';

/**
 * What the sign-in page keeps in its history entry, as the router keeps an entry's state (`location.state`).
 * It survives a reload of the page and goes to no server.
 */
export interface SignInEntryState {
  /**
   * An opened reset link's token (spent), once out of the address: a reload of the set-password step
   * finds the grant kept for it (`reset-grant.ts`), as it did while the token stayed in the address.
   */
  linkToken?: string;
  /**
   * The fragment of the page a visitor without a session opened (an emailed `#email_token=`), put back on
   * `?redirect=` once they are signed in: in `?redirect=` itself the servers would log it. It goes on with
   * the entry to /set-sign-in-method when sign-in asks for a method first.
   */
  redirectHash?: string;
}

/** The sign-in fields of a history entry's state (anything another page may have left there). */
export function signInEntry(state: unknown): SignInEntryState {
  const { linkToken, redirectHash } = (state ?? {}) as Record<string, unknown>;
  return {
    ...(typeof linkToken === 'string' && linkToken ? { linkToken } : {}),
    ...(typeof redirectHash === 'string' && redirectHash.startsWith('#') ? { redirectHash } : {}),
  };
}

/**
 * How the sign-in page leaves itself. On a first load of /signin it runs without the router (which
 * loads after sign-in); inside the signed-in shell the router provides it (`RoutedSignInPage`).
 */
export interface SignInNavigation {
  /** The page's query: ?email=, ?redirect=, ?firm= (and ?token=, ?email_token= of links sent before #). */
  params: URLSearchParams;
  /** The page's fragment: an emailed link's #token= or #email_token= (the kit's `takeLinkSecret`). */
  hash: string;
  /** The state of the page's history entry. */
  entry: SignInEntryState;
  /** Replaces the page's address and its entry's state, in the same history entry (no new one). */
  replaceAddress: (address: { search: string; hash: string }, entry: SignInEntryState) => void;
  /** Goes to a path of the portal, replacing the sign-in entry in the history (with `entry` as its state). */
  navigate: (to: string, entry?: SignInEntryState) => void;
  /** A session has just started: drops data cached for an earlier one. */
  signedIn: () => void;
}

export const SignInNavigationContext = createContext<SignInNavigation | null>(null);

export function useSignInNavigation(): SignInNavigation {
  const ctx = useContext(SignInNavigationContext);
  if (!ctx) throw new Error('SignInNavigationContext missing');
  return ctx;
}

/**
 * The sign-in page's navigation on a first load of /signin, without the router: the window's address and
 * history. `leave` runs once the address is the landing path.
 */
export function windowNavigation(leave: () => void): SignInNavigation {
  return {
    params: new URLSearchParams(window.location.search),
    hash: window.location.hash,
    // The entry's state where the signed-in shell's router keeps it (`usr`, its location.state): the
    // same for both, whichever wrote it (the router's redirect of a visitor without a session, or this).
    entry: signInEntry(window.history.state?.usr),
    replaceAddress: ({ search, hash }, entry) =>
      window.history.replaceState(
        { ...window.history.state, usr: entry },
        '',
        `${window.location.pathname}${search}${hash}`,
      ),
    navigate: (to, entry) => {
      // Where the router reads an entry's state (`usr`) once the signed-in shell takes over.
      window.history.replaceState(entry ? { usr: entry } : null, '', to);
      leave();
    },
    signedIn: () => {},
  };
}

/** The address carries an emailed link's secret (`token`, `email_token`), in its fragment or query. */
export function carriesLinkSecret(address: { search: string; hash: string }): boolean {
  return (
    takeLinkSecret('token', address).secret !== null || takeLinkSecret('email_token', address).secret !== null
  );
}

/**
 * `windowNavigation`, read again when an emailed link arrives in the page later: a link that differs from
 * the open /signin only in its fragment (`#token=`, `#email_token=`) is an in-page jump, not a load
 * (`hashchange`, `popstate`), and is followed as on a fresh load. Other moves of the fragment are not.
 */
export function useWindowNavigation(leave: () => void): SignInNavigation {
  const [arrivals, setArrivals] = useState(0);
  useEffect(() => {
    const follow = () => {
      if (carriesLinkSecret(window.location)) setArrivals((n) => n + 1);
    };
    window.addEventListener('hashchange', follow);
    window.addEventListener('popstate', follow);
    return () => {
      window.removeEventListener('hashchange', follow);
      window.removeEventListener('popstate', follow);
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on each arrival
  return useMemo(() => windowNavigation(leave), [leave, arrivals]);
}
