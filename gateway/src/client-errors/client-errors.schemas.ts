import { CONTROL_CHARACTERS_MESSAGE } from '@portico/platform';
import { z } from 'zod';
import { noControl, optionalText, requiredText } from '../validation/fields.js';

/**
 * Where the browser caught it: a screen that crashed and showed the error fallback (`render`), an area
 * whose code did not load (`remote`), or an error no screen caught (`script`, `promise`).
 */
export const CLIENT_ERROR_KINDS = ['render', 'remote', 'script', 'promise'] as const;

/** Stacks of a minified bundle are long lines; past this they say nothing more. */
const STACK_MAX = 8_000;

/**
 * A query or fragment with a value (`?token=...`, `#email_token=...`) cut from a text: a message or
 * stack may quote the address of the page or of a request, and sign-in links carry tokens there.
 * A bare `#418` (React's error numbers) stays.
 */
const QUERY_WITH_VALUE = /[?#][^\s'"<>()]*=[^\s'"<>()]*/g;
export const withoutQueries = (text: string) => text.replace(QUERY_WITH_VALUE, '');

export const clientErrorBody = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS, { error: `Kind must be one of ${CLIENT_ERROR_KINDS.join(', ')}` }),
  // An error's message may run over several lines ('Loading chunk 100 failed.\n(error: ...)').
  message: z
    .string({ error: 'Message is missing' })
    .trim()
    .min(1, 'Message is missing')
    .max(1_000, 'Must be at most 1000 characters')
    .refine(noControl(true), CONTROL_CHARACTERS_MESSAGE)
    .transform(withoutQueries),
  stack: optionalText(STACK_MAX, { typed: true }).transform((t) => t && withoutQueries(t)),
  component_stack: optionalText(STACK_MAX, { typed: true }).transform((t) => t && withoutQueries(t)),
  /** The page's path. A query or fragment is dropped here too: sign-in links carry tokens in theirs. */
  page: requiredText('Page is missing', 1_000).transform((page) => page.replace(/[?#].*$/s, '')),
  area: z
    .string({ error: 'Area must be text' })
    .regex(/^[a-z][a-z0-9-]{0,63}$/, 'Area must be a remote name')
    .optional(),
});

export type ClientErrorBody = z.output<typeof clientErrorBody>;
