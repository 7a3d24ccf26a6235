import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';
import { formatPhone, PHONE_MASK, phoneDigits } from './phone.js';

export interface PhoneInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** Digits only, as stored. */
  value: string;
  onChange: (digits: string) => void;
}

/** A phone field shown with the mask (___) ___-____ that hands back digits only (spec 1 s.5.3). */
export const PhoneInput = forwardRef<HTMLInputElement, PhoneInputProps>(function PhoneInput(
  { value, onChange, placeholder = PHONE_MASK, ...rest },
  ref,
) {
  return (
    <TextInput
      ref={ref}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder={placeholder}
      value={formatPhone(value)}
      onChange={(e) => {
        const next = e.currentTarget.value;
        let digits = phoneDigits(next);
        // Deleting a mask character removes the digit before it.
        if (next.length < formatPhone(value).length && digits === phoneDigits(value))
          digits = digits.slice(0, -1);
        onChange(digits);
      }}
      {...rest}
    />
  );
});
