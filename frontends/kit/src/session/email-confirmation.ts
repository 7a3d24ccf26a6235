import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useApi } from '../api/ApiProvider.js';
import { errorMessage } from '../api/errors.js';
import { toast } from '../toast/toast.js';
import { CURRENT_USER_KEY } from './hooks.js';
import { takeLinkSecret } from './link-secret.js';

export const EMAIL_CONFIRMED = 'Your new email address is confirmed.';

/**
 * Opens the emailed confirmation link of a changed email (the profile page of the user's role with
 * #email_token=..., or ?email_token=... in a link sent before the fragment: see `takeLinkSecret`):
 * POST /users/confirm_email once, its toast, the confirmed user in the shared cache, then the token
 * leaves the address bar.
 */
export function useEmailConfirmationLink() {
  const api = useApi();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const token = takeLinkSecret('email_token', location).secret;
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    // Out of the address before the call, not after its answer: a user who has moved on to another
    // page by then would be taken back to this one. The same history entry, the rest of the address kept.
    const { search, hash } = takeLinkSecret('email_token', location);
    navigate({ pathname: location.pathname, search, hash }, { replace: true, state: location.state });
    api.users
      .confirmEmail(token)
      .then((user) => {
        toast.success(EMAIL_CONFIRMED);
        queryClient.setQueryData(CURRENT_USER_KEY, user);
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      })
      .catch((err) => toast.error(errorMessage(err)));
  }, [token, location, api, queryClient, navigate]);
}
