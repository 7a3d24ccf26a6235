import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef, useCallback, useLayoutEffect, useRef } from 'react';
import { caretAfterDigits, formatPhone, PHONE_MASK, phoneDigits } from './phone.js';

export interface PhoneInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** Digits only, as stored. */
  value: string;
  onChange: (digits: string) => void;
}

const digitsIn = (text: string) => text.replace(/\D/g, '').length;

/**
 * A phone field shown with the mask (___) ___-____ that hands back digits only (spec 1 s.5.3). The caret
 * stays after the digit it was after: reformatting moves it to the end, and a digit typed in the middle
 * would otherwise land last, making another ten-digit number that passes every check.
 */
export const PhoneInput = forwardRef<HTMLInputElement, PhoneInputProps>(function PhoneInput(
  { value, onChange, placeholder = PHONE_MASK, ...rest },
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
  return (
    <TextInput
      ref={setRefs}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder={placeholder}
      value={formatted}
      onChange={(e) => {
        const next = e.currentTarget.value;
        const caret = e.currentTarget.selectionStart ?? next.length;
        let digits = phoneDigits(next);
        let before = Math.min(digitsIn(next.slice(0, caret)), digits.length);
        // Deleting a mask character ('-', ')' or a space) removes the digit before it.
        if (next.length < formatted.length && digits === phoneDigits(value) && before > 0) {
          digits = digits.slice(0, before - 1) + digits.slice(before);
          before -= 1;
        }
        caretDigits.current = before;
        onChange(digits);
      }}
      {...rest}
    />
  );
});
