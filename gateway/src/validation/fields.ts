import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from '@portico/platform';
import { z } from 'zod';

/**
 * Free of control characters (PostgreSQL refuses NUL in text, and no name, id or slug holds one); `typed`
 * text (a message, a description) may keep tabs and line breaks.
 */
export const noControl =
  (typed = false) =>
  (value: string) =>
    !hasControlCharacters(value, { typed });

/**
 * Field builders with the spec's messages. `missing` is the message for an absent or blank value;
 * a value of the wrong type gets the same message, since the browser only ever sends text.
 */
export const requiredText = (missing: string, max = 1_000) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(max, `Must be at most ${max} characters`)
    .refine(noControl(), CONTROL_CHARACTERS_MESSAGE);

/**
 * The spec's email rule: {email} with a top-level domain of at least two letters (spec 1 s.5.5). It must
 * agree with identity's EMAIL_PATTERN (services/identity/src/users/profile.rules.ts), which decides, and
 * with the portal's forms: 'jane&john@example.com' and 'josé@example.fr' are addresses there, and were
 * refused here by a stricter check.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
export const INVALID_EMAIL = 'Invalid email address';

/** An email as typed: trimmed. Its format is left to identity (some clients sign in with a username). */
export const email = (missing = 'Email is missing') => requiredText(missing, 254);

/** `typed` text (an out-of-office message) may hold tabs and line breaks. */
export const optionalText = (max = 1_000, { typed = false } = {}) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(noControl(typed), CONTROL_CHARACTERS_MESSAGE)
    .optional();

/** A secret is never trimmed: spaces are part of it. */
export const secret = (missing: string, max = 1_024) =>
  z.string({ error: missing }).min(1, missing).max(max, `Must be at most ${max} characters`);

export const token = (missing: string) => requiredText(missing, 4_096);

export const code = () =>
  z
    .string({ error: 'Code is missing' })
    .trim()
    .min(1, 'Code is missing')
    .regex(/^\d{6}$/, 'The verification code must be 6 digits');

/** Phone numbers travel as digits only; the mask (___) ___-____ is the screen's. */
export const phoneDigits = () =>
  z
    .string({ error: 'Phone is required' })
    .transform((value) => value.replace(/\D/g, ''))
    .pipe(z.string().min(1, 'Phone is required').length(10, 'Phone number must be 10 digits'));

export const optionalBool = () => z.boolean({ error: 'Must be true or false' }).optional();

/** A path id: opaque to the gateway, identity answers 404 for anything it does not own. */
export const pathId = () =>
  z
    .string()
    .trim()
    .min(1, 'Id is missing')
    .max(100, 'Id is too long')
    .refine(noControl(), CONTROL_CHARACTERS_MESSAGE);

/** A query value left empty ('?page=') is one not given: coerced, '' was 0 and refused. */
const blankAsAbsent = (value: unknown) => (typeof value === 'string' && !value.trim() ? undefined : value);

/**
 * A number of the query string: `number` is its coerced schema, with its messages and default, which an
 * empty value takes as an absent one does.
 */
export const queryNumber = <T extends z.ZodType>(number: T) => z.preprocess(blankAsAbsent, number);
