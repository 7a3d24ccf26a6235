export const PHONE_MASK = '(___) ___-____';

/** The longest phone the field takes as typed: '(415) 555-0100' (spec 2 s.9). */
export const PHONE_MAX_LENGTH = 14;

export const PHONE_MESSAGES = {
  required: 'Phone is required',
  digits: 'Phone number must be 10 digits',
  areaCode: 'Area code cannot start with 0 or 1',
} as const;

/**
 * The digits of a phone entry. No US area code starts with 0 or 1, so eleven digits starting with 1 are
 * a country code and a number: the 1 is dropped whatever precedes it ('1 415...', '+1 (415)...'). More
 * digits are kept, not cut to ten: a longer entry is a wrong number, not another valid one.
 */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** Digits shown with the mask as far as they go: '4155' -> '(415) 5', ten digits -> '(415) 555-0100'. */
export function formatPhone(input: string): string {
  const d = phoneDigits(input);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** What is wrong with an optional phone: nothing when it is empty or ten digits with a US area code. */
export function phoneProblem(input: string): string | undefined {
  const digits = phoneDigits(input);
  if (!digits) return undefined;
  if (digits.length !== 10) return PHONE_MESSAGES.digits;
  return /^[01]/.test(digits) ? PHONE_MESSAGES.areaCode : undefined;
}

export const isCompletePhone = (input: string) => !!phoneDigits(input) && !phoneProblem(input);

/** What is wrong with a required phone (spec 2 s.5): missing, or as `phoneProblem` says. */
export const requiredPhoneProblem = (input: string) =>
  phoneDigits(input) ? phoneProblem(input) : PHONE_MESSAGES.required;

/** The caret position in a formatted phone just after its `count`-th digit (0: before the first). */
export function caretAfterDigits(formatted: string, count: number): number {
  if (count <= 0) return formatted.startsWith('(') ? 1 : 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++)
    if (/\d/.test(formatted[i] as string) && ++seen === count) return i + 1;
  return formatted.length;
}
