import { z } from 'zod';
import {
  EMAIL_PATTERN,
  INVALID_EMAIL,
  optionalBool,
  optionalText,
  phoneDigits,
  secret,
  token,
} from '../validation/fields.js';

const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .regex(EMAIL_PATTERN, INVALID_EMAIL);

const optionalPhone = z
  .string({ error: 'Phone number must be 10 digits' })
  // Blank removes the phone; text without digits ('call me') is a bad phone, not a removal.
  .refine((value) => !value.trim() || /\d/.test(value), 'Phone number must be 10 digits')
  .transform((value) => value.replace(/\D/g, ''))
  .pipe(z.union([z.literal(''), z.string().length(10, 'Phone number must be 10 digits')]))
  .optional();

/** PATCH /users/:id: the client profile of spec 1 sections 2.8, 5.3 and 7.4 (unknown keys are dropped). */
export const updateProfileBody = z.object({
  enabled_2fa: optionalBool(),
  preferred_contact_method: z
    .enum(['email', 'sms'], { error: 'Preferred contact method must be email or sms' })
    .optional(),
  email: emailField.optional(),
  phone_number: optionalPhone,
  time_zone: optionalText(100),
  // As the phone: ten digits or blank (identity's rule too); text without digits is not a removal.
  work_phone_number: optionalPhone,
  work_phone_extension: optionalText(10),
  fname: optionalText(100),
  lname: optionalText(100),
  preferred_name: optionalText(100),
  out_of_office: optionalBool(),
  out_of_office_message: optionalText(2_000, { typed: true }),
  // Checked by identity when a user who signs in with a password changes their own email or phone, or
  // turns two-factor off.
  current_password: z
    .string({ error: 'Must be text' })
    .max(1_024, 'Must be at most 1024 characters')
    .optional(),
  // The user's own email change waiting for confirmation is withdrawn (identity retires its link).
  cancel_email_change: optionalBool(),
});

/** PATCH /out_of_office/:userId (spec 1 section 7.2): an advisor's out of office and the message clients see. */
export const outOfOfficeBody = updateProfileBody
  .pick({ out_of_office: true, out_of_office_message: true })
  .extend({ out_of_office: z.boolean({ error: 'Must be true or false' }) });

const signInMethod = z.enum(['password', 'sms', 'email'], { error: 'Please choose a sign-in method' });
const longText = z.string({ error: 'Must be text' }).max(1_024, 'Must be at most 1024 characters');
const olderKey = (schema: z.ZodType, key: string) =>
  schema.optional().meta({ deprecated: true, description: `The older name of ${key}` });
/** The spec's keys and the older ones they replace. */
const KEY_PAIRS = [
  ['signInMethod', 'method'],
  ['newPassword', 'password'],
  ['phoneNumber', 'phone_number'],
] as const;

/**
 * POST /users/set_sign_in_method (spec 1 section 4.4 step 8; spec 2 section 7's keys: signInMethod with
 * newPassword or phoneNumber; password rules of spec 2 section 5 in identity). `password_confirmation`,
 * `grant_token` and `current_password` are Portico's own. Shells built before the spec's keys sent
 * `method`, `password` and `phone_number`: read the same way, for as long as they may still be open; one
 * body holds one name of each, and a refusal names the key the caller sent. Identity is given its own
 * contract's keys.
 */
export const setSignInMethodBody = z
  .object({
    signInMethod: signInMethod.optional(),
    newPassword: secret('Password is missing').optional(),
    password_confirmation: longText.optional(),
    phoneNumber: phoneDigits().optional(),
    grant_token: token('Token is missing').optional(),
    // Checked by identity for a signed-in user who signs in with a password.
    current_password: longText.optional(),
    method: olderKey(signInMethod, 'signInMethod'),
    password: olderKey(secret('Password is missing'), 'newPassword'),
    phone_number: olderKey(phoneDigits(), 'phoneNumber'),
  })
  .superRefine((body, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    for (const [key, older] of KEY_PAIRS)
      if (body[key] !== undefined && body[older] !== undefined)
        refuse(key, `Send ${key} or ${older}, not both`);
    // The key the caller sent; of one it did not send, the name its method's key has (older or the spec's).
    const olderCaller = body.signInMethod === undefined && body.method !== undefined;
    const named = ([key, older]: (typeof KEY_PAIRS)[number]): string =>
      body[key] !== undefined ? key : body[older] !== undefined || olderCaller ? older : key;
    const [methodKey, passwordKey, phoneKey] = KEY_PAIRS.map(named) as [string, string, string];
    const method = body.signInMethod ?? body.method;
    if (!method) refuse(methodKey, 'Please choose a sign-in method');
    if (method === 'password') {
      const password = body.newPassword ?? body.password;
      if (!password) refuse(passwordKey, 'Password is missing');
      else if (password !== body.password_confirmation)
        refuse('password_confirmation', 'Passwords do not match');
    }
    if (method === 'sms' && !(body.phoneNumber ?? body.phone_number)) refuse(phoneKey, 'Phone is required');
  })
  .transform(({ signInMethod, method, newPassword, password, phoneNumber, phone_number, ...rest }) => ({
    ...rest,
    method: signInMethod ?? method,
    password: newPassword ?? password,
    phone_number: phoneNumber ?? phone_number,
  }));

export const confirmEmailBody = z.object({ token: token('Token is missing') });
