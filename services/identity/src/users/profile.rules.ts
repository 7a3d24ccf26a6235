import { Messages } from '../messages.js';

/** {email} with a top-level domain of at least two letters (spec 1 s.5.5). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const isValidEmail = (email: string) => EMAIL_PATTERN.test(email.trim());

/** Phones are stored as digits only (spec 1 s.5.3). */
export const phoneDigits = (phone: string) => phone.replace(/\D/g, '');

export function validatePhone(phone: string): string | undefined {
  const digits = phoneDigits(phone);
  if (!digits) return Messages.phoneRequired;
  if (digits.length !== 10) return Messages.phoneDigits;
  return undefined;
}

/**
 * An optional phone: empty (or blank) removes it, otherwise ten digits. Text with no digits at all
 * ('call me') is not a removal: it was read as one and deleted the stored number.
 */
export function validateOptionalPhone(phone: string): string | undefined {
  return phone.trim() ? validatePhone(phone) : undefined;
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_SPECIALS = '#?!@$%^&*-';

/** The password rules of spec 2 s.5 (contact and sign-in setup). Returns the first broken rule. */
export function validatePassword(password: string, confirmation?: string): string | undefined {
  if (!password) return Messages.passwordMissing;
  if (password.length < PASSWORD_MIN_LENGTH) return Messages.passwordTooShort;
  if (!/[A-Z]/.test(password)) return Messages.passwordNeedsUppercase;
  if (!/[a-z]/.test(password)) return Messages.passwordNeedsLowercase;
  if (!/[0-9]/.test(password)) return Messages.passwordNeedsNumber;
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c))) return Messages.passwordNeedsSpecial;
  if (confirmation !== undefined && confirmation !== password) return Messages.passwordsDoNotMatch;
  return undefined;
}

export const DEFAULT_TIME_ZONE = 'Pacific Time (US & Canada)';

/** US time zones offered in profiles, with their IANA names for date handling. */
export const US_TIME_ZONES: Record<string, string> = {
  Hawaii: 'Pacific/Honolulu',
  Alaska: 'America/Juneau',
  'Pacific Time (US & Canada)': 'America/Los_Angeles',
  Arizona: 'America/Phoenix',
  'Mountain Time (US & Canada)': 'America/Denver',
  'Central Time (US & Canada)': 'America/Chicago',
  'Eastern Time (US & Canada)': 'America/New_York',
  'Indiana (East)': 'America/Indiana/Indianapolis',
  'Puerto Rico': 'America/Puerto_Rico',
  'American Samoa': 'Pacific/Pago_Pago',
  Guam: 'Pacific/Guam',
};

export const CONTACT_METHODS = ['email', 'sms'] as const;
export const SIGN_IN_METHODS = ['password', 'email', 'sms'] as const;
export type SignInMethodName = (typeof SIGN_IN_METHODS)[number];

/** j***@example.com */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(local.length - 1, 3))}@${domain}`;
}

/** (***) ***-1234 */
export function maskPhone(phone: string): string {
  const digits = phoneDigits(phone);
  return digits ? `(***) ***-${digits.slice(-4)}` : '';
}
