import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useApi } from '../api/ApiProvider.js';
import { errorMessage } from '../api/errors.js';
import { toast } from '../toast/toast.js';
import { CURRENT_USER_KEY } from './hooks.js';

export const EMAIL_CONFIRMED = 'Your new email address is confirmed.';

/**
 * Opens the emailed confirmation link of a changed email (the profile page of the user's role with
 * ?email_token=...): POST /users/confirm_email once, its toast, the confirmed user in the shared cache,
 * then the token leaves the address bar.
 */
export function useEmailConfirmationLink() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const token = params.get('email_token');
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    // Out of the address before the call, not after its answer: a user who has moved on to another
    // page by then would be taken back to this one.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('email_token');
        return next;
      },
      { replace: true },
    );
    api.users
      .confirmEmail(token)
      .then((user) => {
        toast.success(EMAIL_CONFIRMED);
        queryClient.setQueryData(CURRENT_USER_KEY, user);
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      })
      .catch((err) => toast.error(errorMessage(err)));
  }, [token, api, queryClient, setParams]);
}
