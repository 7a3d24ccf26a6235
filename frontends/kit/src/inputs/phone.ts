export const PHONE_MASK = '(___) ___-____';

/** The longest phone the field takes as typed: '(415) 555-0100' (spec 2 s.9). */
export const PHONE_MAX_LENGTH = 14;

/**
 * The digits of a phone entry. A leading US country code is dropped from eleven digits when the text
 * starts with it ('1 415...', '+1 (415)...'), not when it is the area code of the mask, '(1'. More digits
 * are kept, not cut to ten: a longer entry is a wrong number, not another valid one.
 */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '');
  return digits.length === 11 && /^\s*\+?1/.test(input) ? digits.slice(1) : digits;
}

/** Digits shown with the mask as far as they go: '4155' -> '(415) 5', ten digits -> '(415) 555-0100'. */
export function formatPhone(input: string): string {
  const d = phoneDigits(input);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export const isCompletePhone = (input: string) => phoneDigits(input).length === 10;

/** The caret position in a formatted phone just after its `count`-th digit (0: before the first). */
export function caretAfterDigits(formatted: string, count: number): number {
  if (count <= 0) return formatted.startsWith('(') ? 1 : 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++)
    if (/\d/.test(formatted[i] as string) && ++seen === count) return i + 1;
  return formatted.length;
}
