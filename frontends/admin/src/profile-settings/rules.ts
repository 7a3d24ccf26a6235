/** The rules of Advisor Profile Settings, with the messages identity answers for the same checks. */
import { PASSWORD_MESSAGES, PHONE_MESSAGES, phoneProblem } from '@portico/kit';

export const SETTINGS_MESSAGES = {
  saved: 'Profile updated successfully',
  noChanges: 'No changes to save',
  signInMethodSaved: 'Updated successfully',
  nameRequired: 'First and last name are required',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email address',
  phoneDigits: PHONE_MESSAGES.digits,
  areaCode: PHONE_MESSAGES.areaCode,
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

/** An optional phone: empty, or ten digits with a US area code (never starting with 0 or 1). */
export const validateOptionalPhone = (phone: string): string | undefined => phoneProblem(phone);

export type SignInMethod = 'password' | 'sms' | 'email';

export const SIGN_IN_METHODS: { value: SignInMethod; label: string }[] = [
  { value: 'password', label: 'Password' },
  { value: 'sms', label: 'SMS passcode' },
  { value: 'email', label: 'Email passcode' },
];
