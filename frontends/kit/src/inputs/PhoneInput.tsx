import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef, useCallback, useLayoutEffect, useRef } from 'react';
import { caretAfterDigits, formatPhone, PHONE_MASK, PHONE_MAX_LENGTH, phoneDigits } from './phone.js';

export interface PhoneInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** Digits only, as stored. */
  value: string;
  onChange: (digits: string) => void;
}

const digitsIn = (text: string) => text.replace(/\D/g, '').length;
const MAX_DIGITS = 10;

/**
 * A phone field shown with the mask (___) ___-____ that hands back digits only (spec 1 s.5.3). The caret
 * stays after the digit it was after: reformatting moves it to the end, and a digit typed in the middle
 * would otherwise land last, making another ten-digit number that passes every check.
 */
export const PhoneInput = forwardRef<HTMLInputElement, PhoneInputProps>(function PhoneInput(
  { value, onChange, onPaste, placeholder = PHONE_MASK, ...rest },
  ref,
) {
  const input = useRef<HTMLInputElement | null>(null);
  const caretDigits = useRef<number | null>(null);
  const setRefs = useCallback(
    (el: HTMLInputElement | null) => {
      input.current = el;
      if (typeof ref === 'function') ref(el);
      else if (ref) ref.current = el;
    },
    [ref],
  );
  useLayoutEffect(() => {
    const el = input.current;
    const count = caretDigits.current;
    caretDigits.current = null;
    if (!el || count === null || el.ownerDocument.activeElement !== el) return;
    const at = caretAfterDigits(el.value, count);
    el.setSelectionRange(at, at);
  });
  const formatted = formatPhone(value);
  /**
   * Takes the field's text after an edit, `caret` in it. An edit that would add digits past ten is
   * refused: the field keeps its number and the caret where it was, rather than dropping a digit and
   * showing another number that passes every check.
   */
  const enter = (el: HTMLInputElement, next: string, caret: number) => {
    const previous = phoneDigits(value);
    let digits = phoneDigits(next);
    // No US area code starts with 1: a 1 entered as the first digit is the country code, dropped rather
    // than shown as '(1' (which pushed the number's last digit past the field's 14 characters).
    if (digits.startsWith('1') && !previous.startsWith('1') && digits.length > previous.length)
      digits = digits.slice(1);
    if (digits.length > MAX_DIGITS && digits.length > previous.length) {
      if (el.value !== formatted) {
        const at = Math.max(0, Math.min(caret - (next.length - formatted.length), formatted.length));
        el.value = formatted;
        el.setSelectionRange(at, at);
      }
      return;
    }
    // Digits dropped as a country code were at the start, before the caret.
    const dropped = digitsIn(next) - digits.length;
    let before = Math.min(Math.max(0, digitsIn(next.slice(0, caret)) - dropped), digits.length);
    // Deleting a mask character ('-', ')' or a space) removes the digit before it.
    if (next.length < formatted.length && digits === previous && before > 0) {
      digits = digits.slice(0, before - 1) + digits.slice(before);
      before -= 1;
    }
    caretDigits.current = before;
    onChange(digits);
  };
  return (
    <TextInput
      ref={setRefs}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder={placeholder}
      maxLength={PHONE_MAX_LENGTH}
      value={formatted}
      onChange={(e) => {
        const el = e.currentTarget;
        enter(el, el.value, el.selectionStart ?? el.value.length);
      }}
      onPaste={(e) => {
        onPaste?.(e);
        if (e.defaultPrevented) return;
        // Taken here, not left to the browser: the field's maxLength would cut a pasted '+1 (415) 555-0100'.
        e.preventDefault();
        const el = e.currentTarget;
        const pasted = e.clipboardData.getData('text');
        const start = el.selectionStart ?? el.value.length;
        const end = el.selectionEnd ?? start;
        enter(el, el.value.slice(0, start) + pasted + el.value.slice(end), start + pasted.length);
      }}
      {...rest}
    />
  );
});
