import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type SignInNavigation, SignInNavigationContext, signInEntry } from './navigation.js';
import { SignInPage, type SignInPageProps } from './SignInPage.js';

/** The sign-in page inside the signed-in shell: the router navigates, the query cache is dropped. */
export function RoutedSignInPage(props: SignInPageProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const navigation = useMemo<SignInNavigation>(
    () => ({
      params,
      hash: location.hash,
      entry: signInEntry(location.state),
      replaceAddress: ({ search, hash }, entry) =>
        navigate({ pathname: location.pathname, search, hash }, { replace: true, state: entry }),
      navigate: (to, entry) => navigate(to, { replace: true, state: entry }),
      signedIn: () => queryClient.clear(),
    }),
    [params, location, navigate, queryClient],
  );
  return (
    <SignInNavigationContext.Provider value={navigation}>
      <SignInPage {...props} />
    </SignInNavigationContext.Provider>
  );
}
