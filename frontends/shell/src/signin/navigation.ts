import { createContext, useContext } from 'react';

/**
 * How the sign-in page leaves itself. On a first load of /signin it runs without the router (which
 * loads after sign-in); inside the signed-in shell the router provides it (`RoutedSignInPage`).
 */
export interface SignInNavigation {
  /** The page's query: ?email=, ?redirect=, ?token=, ?firm=. */
  params: URLSearchParams;
  /** Goes to a path of the portal, replacing the sign-in entry in the history. */
  navigate: (to: string) => void;
  /** A session has just started: drops data cached for an earlier one. */
  signedIn: () => void;
}

export const SignInNavigationContext = createContext<SignInNavigation | null>(null);

export function useSignInNavigation(): SignInNavigation {
  const ctx = useContext(SignInNavigationContext);
  if (!ctx) throw new Error('SignInNavigationContext missing');
  return ctx;
}
