import { z } from 'zod';
import { code, email, optionalText, secret, token } from '../validation/fields.js';

/** Request bodies of the sign-in routes, with the messages of spec 1 section 5.2. */
export const lookupEmailBody = z.object({ email: email() });

export const verifyPasswordBody = z.object({ email: email(), password: secret('Password is missing') });

const emailOrUid = { message: 'Email is missing', path: ['email'] };

export const sendEmailCodeBody = z
  .object({ uid: optionalText(100), email: optionalText(254) })
  .refine((body) => !!body.uid || !!body.email, emailOrUid);

export const sendSmsCodeBody = z.object({ uid: token('uid is missing') });

// Spec 1 s.5.2: verification by code without a uid is 'Something went wrong', as identity answers it.
export const verifyCodeBody = z.object({ uid: token('Something went wrong'), code: code() });

// Spec 1 s.7.5 names the firm `accountantId` in this call, where the lookup answers `accountant_id`:
// either spelling is taken.
export const sendAuthLinkBody = z
  .object({
    email: optionalText(254),
    uid: optionalText(100),
    accountant_id: optionalText(100),
    accountantId: optionalText(100),
    redirect: optionalText(2_048),
  })
  .refine((body) => !!body.uid || !!body.email, emailOrUid)
  .transform(({ accountantId, accountant_id, ...body }) => ({
    ...body,
    accountant_id: accountant_id || accountantId,
  }));

export const verifyAuthLinkBody = z.object({ token: token('Token is missing') });

export const forgotPasswordBody = z.object({ email: email() });

export const resetPasswordBody = z
  .object({
    token: token('Token is missing'),
    password: secret('Password is missing'),
    password_confirmation: secret('Password confirmation is missing'),
  })
  .refine((body) => body.password === body.password_confirmation, {
    message: 'Passwords do not match',
    path: ['password_confirmation'],
  });

export const challengeBody = z.object({ challenge_token: token('Challenge token is missing') });

/** The link opens a new tab: where the sign-in lands travels with it, as with send_auth_link. */
export const twoFactorLinkBody = challengeBody.extend({ redirect: optionalText(2_048) });

export const verifyTwoFactorBody = z.object({
  challenge_token: token('Challenge token is missing'),
  code: code(),
});

export const exchangeTokenBody = z.object({ auth_token: token('Auth token is missing') });

export const refreshBody = z.object({ refresh_token: token('Refresh token is missing') });

export const signOutBody = refreshBody;

/** The fields of a sign-in request that name an account, each limited on its own. */
export const ACCOUNT_FIELDS = ['email', 'uid', 'challenge_token'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

/**
 * The longest email in an account key. The limits remember tens of thousands of keys, taken before the
 * body is validated: no address is longer (RFC 5321), and longer junk sharing a counter is only limited
 * sooner.
 */
const EMAIL_KEY_MAX = 320;

/**
 * The key of the account a sign-in request names by `field`, for the per-account rate limit (none when
 * it names none that way). A request counts against every account it names: keyed by one field only, a
 * request could name its target by another and send a new value of the first each time to dodge it.
 */
export function accountKeyOf(body: unknown, field: AccountField): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[field];
  if (typeof value !== 'string' || !value.trim()) return undefined;
  return field === 'email'
    ? `email:${value.trim().toLowerCase().slice(0, EMAIL_KEY_MAX)}`
    : `${field}:${value.trim().slice(0, 128)}`;
}
