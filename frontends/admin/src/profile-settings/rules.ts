/** The rules of Advisor Profile Settings, with the messages identity answers for the same checks. */
import { PASSWORD_MESSAGES, phoneDigits } from '@portico/kit';

export const SETTINGS_MESSAGES = {
  saved: 'Profile updated successfully',
  signInMethodSaved: 'Updated successfully',
  nameRequired: 'First and last name are required',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email address',
  phoneDigits: 'Phone number must be 10 digits',
  phoneRequired: 'Phone is required',
  outOfOfficeMessageRequired: 'Please enter the message clients see while you are out of office',
  twoFactorForced: 'Your firm requires two-factor authentication.',
  ...PASSWORD_MESSAGES,
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export function validateEmail(email: string): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return SETTINGS_MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(trimmed)) return SETTINGS_MESSAGES.invalidEmail;
  return undefined;
}

/** An optional phone: empty, or ten digits. */
export function validateOptionalPhone(phone: string): string | undefined {
  const digits = phoneDigits(phone);
  return digits && digits.length !== 10 ? SETTINGS_MESSAGES.phoneDigits : undefined;
}

export type SignInMethod = 'password' | 'sms' | 'email';

export const SIGN_IN_METHODS: { value: SignInMethod; label: string }[] = [
  { value: 'password', label: 'Password' },
  { value: 'sms', label: 'SMS passcode' },
  { value: 'email', label: 'Email passcode' },
];
