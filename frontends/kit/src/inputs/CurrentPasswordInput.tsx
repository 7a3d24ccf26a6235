import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';
import type { CurrentUser } from '../api/users.js';
import { phoneDigits } from './phone.js';

export const CURRENT_PASSWORD_MESSAGES = {
  missing: 'Current password is missing',
  wrong: 'Current password is incorrect',
} as const;

/** Whether identity asks this user for their password to confirm a change of how they sign in. */
export const confirmsWithPassword = (user: CurrentUser) =>
  user.preferred_sign_in_method === 'password' && !user.set_password_required;

/**
 * Whether a profile save reaches the account elsewhere, as identity judges it: a new email or phone of
 * the user's own, or two-factor turned off. A user who signs in with a password confirms those with it.
 */
export function changesHowAccountIsReached(
  user: CurrentUser,
  change: { email?: string; phone_number?: string; enabled_2fa?: boolean },
): boolean {
  const email = change.email?.trim().toLowerCase();
  const phone = phoneDigits(change.phone_number ?? '');
  return (
    (!!email && email !== user.email.toLowerCase()) ||
    (!!phone && phone !== phoneDigits(user.phone_number)) ||
    (change.enabled_2fa === false && user.enabled_2fa)
  );
}

/** The password the user signs in with now, asked to confirm a change. */
export function CurrentPasswordInput(
  props: Omit<PasswordInputProps, 'label' | 'autoComplete'> & { ref?: Ref<HTMLInputElement> },
) {
  return (
    <PasswordInput
      label="Current password"
      description="Confirm the change with the password you sign in with now."
      autoComplete="current-password"
      maw={360}
      {...props}
    />
  );
}
