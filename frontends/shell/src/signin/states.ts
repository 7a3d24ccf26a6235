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

/**
 * A redirect target after sign-in: only paths of this site, as the URL parser reads them (browsers take
 * '/\\evil.test' for '//evil.test'), and never the sign-in page itself.
 */
export function safeRedirect(value: string | null | undefined, origin = window.location.origin): string {
  if (!value?.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin || url.pathname.startsWith('/signin')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
