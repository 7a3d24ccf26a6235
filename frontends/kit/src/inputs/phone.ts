export const PHONE_MASK = '(___) ___-____';

/** The digits of a phone entry, at most 10 (a leading US country code 1 is dropped from 11 digits). */
export function phoneDigits(input: string): string {
  let digits = input.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return digits.slice(0, 10);
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
