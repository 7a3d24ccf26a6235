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

export const verifyCodeBody = z.object({ uid: token('uid is missing'), code: code() });

export const sendAuthLinkBody = z
  .object({
    email: optionalText(254),
    uid: optionalText(100),
    accountant_id: optionalText(100),
    redirect: optionalText(2_048),
  })
  .refine((body) => !!body.uid || !!body.email, emailOrUid);

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

export const verifyTwoFactorBody = z.object({
  challenge_token: token('Challenge token is missing'),
  code: code(),
});

export const exchangeTokenBody = z.object({ auth_token: token('Auth token is missing') });

export const refreshBody = z.object({ refresh_token: token('Refresh token is missing') });

export const signOutBody = refreshBody;

/** The account a sign-in request is about, for the per-account rate limit. */
export function accountKeyOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { email: address, uid } = body as { email?: unknown; uid?: unknown };
  if (typeof address === 'string' && address.trim()) return `email:${address.trim().toLowerCase()}`;
  if (typeof uid === 'string' && uid.trim()) return `uid:${uid.trim()}`;
  return undefined;
}
