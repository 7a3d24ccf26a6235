/** The rules of Advisor Profile Settings, with the messages identity answers for the same checks. */
import { phoneDigits } from '@portico/kit';

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
  passwordMissing: 'Password is missing',
  passwordTooShort: 'Password must be greater than 10 characters',
  passwordNeedsUppercase: 'Password must contain at least one uppercase letter',
  passwordNeedsLowercase: 'Password must contain at least one lowercase letter',
  passwordNeedsNumber: 'Password must contain at least one number',
  passwordNeedsSpecial: 'Password must contain at least one special character (#?!@$%^&*-)',
  passwordsDoNotMatch: 'Passwords do not match',
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

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_SPECIALS = '#?!@$%^&*-';

/** The sign-in password rules (the first broken one), then the confirmation. */
export function validatePassword(password: string, confirmation: string): string | undefined {
  if (!password) return SETTINGS_MESSAGES.passwordMissing;
  if (password.length < PASSWORD_MIN_LENGTH) return SETTINGS_MESSAGES.passwordTooShort;
  if (!/[A-Z]/.test(password)) return SETTINGS_MESSAGES.passwordNeedsUppercase;
  if (!/[a-z]/.test(password)) return SETTINGS_MESSAGES.passwordNeedsLowercase;
  if (!/[0-9]/.test(password)) return SETTINGS_MESSAGES.passwordNeedsNumber;
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c)))
    return SETTINGS_MESSAGES.passwordNeedsSpecial;
  if (confirmation !== password) return SETTINGS_MESSAGES.passwordsDoNotMatch;
  return undefined;
}

export type SignInMethod = 'password' | 'sms' | 'email';

export const SIGN_IN_METHODS: { value: SignInMethod; label: string }[] = [
  { value: 'password', label: 'Password' },
  { value: 'sms', label: 'SMS passcode' },
  { value: 'email', label: 'Email passcode' },
];
