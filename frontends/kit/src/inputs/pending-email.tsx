import { Anchor, Box, type TextInputProps } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/ApiProvider.js';
import { errorMessage } from '../api/errors.js';
import type { CurrentUser } from '../api/users.js';
import { CURRENT_USER_KEY } from '../session/hooks.js';
import { toast } from '../toast/toast.js';

const pendingEmailText = (pending: string) => `Waiting for confirmation of ${pending}`;
export const EMAIL_CHANGE_CANCELLED = 'Email change cancelled';

/**
 * The address of `user` waiting for confirmation, as a form shows it: as the form's last save or
 * withdrawal answered it while `user` is the one it answered about, else as `user` says (a newer read of
 * the account says it from then on). `answer` takes the user a save or withdrawal answered.
 */
export function usePendingEmail(user: CurrentUser) {
  const [answered, setAnswered] = useState<{ about: CurrentUser; pending: string } | null>(null);
  const pending = answered?.about === user ? answered.pending : user.pending_email;
  const answer = (answer: CurrentUser | undefined) =>
    setAnswered({ about: user, pending: answer?.pending_email ?? '' });
  return { pending, answer };
}

/**
 * Withdraws the user's own email change waiting for confirmation (PATCH /users/{id}
 * `{cancel_email_change: true}`; identity clears it and retires its link). A call of its own, not the
 * form's save: the form's other fields stay as the user left them, saved or not. On success the
 * current-user cache takes the answer and `onCancelled` gets the user as identity answered it.
 */
export function useCancelEmailChange(userId: string, onCancelled: (user: CurrentUser | undefined) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.users.updateUser(userId, { cancel_email_change: true }),
    onSuccess: (result) => {
      if (result.user) queryClient.setQueryData(CURRENT_USER_KEY, result.user);
      toast.success(EMAIL_CHANGE_CANCELLED);
      onCancelled(result.user);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
}

/**
 * The props of an email field while a change waits for confirmation: the address waiting as its
 * description, and just below the input a way to withdraw it (a mistyped address, say). The link stays
 * out of the description, which is the field's aria-describedby: a screen reader would read it out as
 * part of the field.
 */
export function pendingEmailProps({
  pending,
  onWithdraw,
  withdrawing = false,
}: {
  /** The address waiting; none: the field shows nothing of it. */
  pending: string | undefined;
  /** Omitted where the viewer may not change the email (a preview, a read-only account). */
  onWithdraw?: () => void;
  withdrawing?: boolean;
}): Pick<TextInputProps, 'description' | 'inputContainer'> {
  if (!pending) return {};
  return {
    description: pendingEmailText(pending),
    inputContainer: onWithdraw
      ? (input) => (
          <>
            {input}
            <Box mt={4}>
              <Anchor component="button" type="button" size="xs" disabled={withdrawing} onClick={onWithdraw}>
                Cancel email change
              </Anchor>
            </Box>
          </>
        )
      : undefined,
  };
}
