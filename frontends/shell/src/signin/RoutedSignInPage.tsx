import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { type SignInNavigation, SignInNavigationContext } from './navigation.js';
import { SignInPage, type SignInPageProps } from './SignInPage.js';

/** The sign-in page inside the signed-in shell: the router navigates, the query cache is dropped. */
export function RoutedSignInPage(props: SignInPageProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const navigation = useMemo<SignInNavigation>(
    () => ({
      params,
      navigate: (to) => navigate(to, { replace: true }),
      signedIn: () => queryClient.clear(),
    }),
    [params, navigate, queryClient],
  );
  return (
    <SignInNavigationContext.Provider value={navigation}>
      <SignInPage {...props} />
    </SignInNavigationContext.Provider>
  );
}
