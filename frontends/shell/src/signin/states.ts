export type SignInState =
  | 'login'
  | 'sent-link'
  | 'sent-email'
  | 'sent-text'
  | 'alternate-sign-in'
  | 'forgot-password'
  | 'expired-link'
  | '2fa'
  | 'set-email'
  | 'set-password'
  | 'set-phone-number'
  | 'set-sign-in-method';

import { HEADERS } from './messages.js';

/** The header of each state (spec 1 s.2.3). */
export const HEADER_OF: Record<SignInState, string> = {
  login: HEADERS.login,
  'alternate-sign-in': HEADERS.login,
  'expired-link': HEADERS.login,
  'sent-link': HEADERS.viaEmail,
  'sent-email': HEADERS.viaEmail,
  'sent-text': HEADERS.viaSms,
  'forgot-password': HEADERS.resetPassword,
  '2fa': HEADERS.twoFactor,
  'set-email': HEADERS.oneMoreStep,
  'set-password': HEADERS.setUpPassword,
  'set-phone-number': HEADERS.viaSms,
  'set-sign-in-method': HEADERS.nextTime,
};

/** A redirect target after sign-in: only paths of this site. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/signin')) return '/';
  return value;
}
