import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { PhoneInput } from '../inputs/PhoneInput.js';
import {
  caretAfterDigits,
  formatPhone,
  isCompletePhone,
  PHONE_MASK,
  PHONE_MAX_LENGTH,
  PHONE_MESSAGES,
  phoneDigits,
  phoneProblem,
} from '../inputs/phone.js';
import { renderWithKit } from './render.js';

function PhoneHarness({ seen }: { seen: string[] }) {
  const [value, setValue] = useState('');
  return (
    <PhoneInput
      label="Phone Number"
      value={value}
      onChange={(d) => {
        seen.push(d);
        setValue(d);
      }}
    />
  );
}

/**
 * Types `keys` one by one at the end of the field, as a browser hands them to the component: a key is
 * refused once the field holds its maxLength (which fireEvent.change alone would not enforce). Answers
 * the text the field shows after each key.
 */
function typeKeys(input: HTMLInputElement, keys: string): string[] {
  const shown: string[] = [];
  for (const key of keys) {
    if (input.value.length < input.maxLength) {
      const next = input.value + key;
      fireEvent.change(input, {
        target: { value: next, selectionStart: next.length, selectionEnd: next.length },
      });
    }
    shown.push(input.value);
  }
  return shown;
}

describe('phone mask', () => {
  it('keeps digits only, dropping a leading country code but never cutting to ten', () => {
    expect(phoneDigits('(415) 555-0100')).toBe('4155550100');
    expect(phoneDigits('+1 415 555 0100')).toBe('4155550100');
    expect(phoneDigits('1-415-555-0100')).toBe('4155550100');
    // Too many digits stay too many, so the ten-digit rule refuses them.
    expect(phoneDigits('415.555.0100 ext 9')).toBe('41555501009');
    // No area code starts with 1: eleven digits starting with 1 are a country code and a number,
    // whatever precedes the 1.
    expect(phoneDigits('(141) 555-50100')).toBe('4155550100');
    expect(phoneDigits('(123) 456-78909')).toBe('2345678909');
    expect(isCompletePhone('(415) 555-0100 22')).toBe(false);
    expect(phoneDigits('abc')).toBe('');
  });

  it('formats progressively as (XXX) XXX-XXXX', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('4')).toBe('(4');
    expect(formatPhone('4155')).toBe('(415) 5');
    expect(formatPhone('4155550')).toBe('(415) 555-0');
    expect(formatPhone('4155550100')).toBe('(415) 555-0100');
    expect(isCompletePhone('(415) 555-010')).toBe(false);
    expect(isCompletePhone('(415) 555-0100')).toBe(true);
    expect(caretAfterDigits('(415) 555-0100', 0)).toBe(1);
    expect(caretAfterDigits('(415) 555-0100', 3)).toBe(4);
    expect(caretAfterDigits('(415) 555-0100', 4)).toBe(7);
    expect(caretAfterDigits('(415) 5', 9)).toBe(7);
  });

  it('shows the mask and hands back digits', () => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    expect(input.placeholder).toBe(PHONE_MASK);
    fireEvent.change(input, { target: { value: '415-555-0100' } });
    expect(input.value).toBe('(415) 555-0100');
    expect(seen.at(-1)).toBe('4155550100');
    // Deleting the ')' of '(415) ' removes the 5 before it.
    fireEvent.change(input, { target: { value: '(415' } });
    expect(seen.at(-1)).toBe('415');
    fireEvent.change(input, { target: { value: '(415) 5' } });
    fireEvent.change(input, { target: { value: '(415) ' } });
    expect(seen.at(-1)).toBe('415');
  });

  it('keeps the caret after the digit it was after, so a digit typed in the middle lands there', () => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '4155550100' } });
    input.focus();
    // Backspace after the 5 of 415, then 6: (416) 555-0100, not (415) 550-1006.
    fireEvent.change(input, { target: { value: '(41) 555-0100', selectionStart: 3, selectionEnd: 3 } });
    expect(input.value).toBe('(415) 550-100');
    expect(input.selectionStart).toBe(3);
    fireEvent.change(input, { target: { value: '(4165) 550-100', selectionStart: 4, selectionEnd: 4 } });
    expect(seen.at(-1)).toBe('4165550100');
    expect(input.value).toBe('(416) 555-0100');
    expect(input.selectionStart).toBe(4);
    // Backspace just after the '-' removes the digit before it, not the last one.
    fireEvent.change(input, { target: { value: '(416) 5550100', selectionStart: 9, selectionEnd: 9 } });
    expect(seen.at(-1)).toBe('416550100');
    expect(input.value).toBe('(416) 550-100');
    expect(input.selectionStart).toBe(8);
  });

  it('takes at most 14 characters and refuses a digit past ten instead of dropping the last one', () => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    expect(input.maxLength).toBe(PHONE_MAX_LENGTH);
    expect(PHONE_MAX_LENGTH).toBe(14);
    fireEvent.change(input, { target: { value: '(415) 555-0100' } });
    input.focus();
    const before = seen.length;
    // A 9 typed after '(415) 5': the number stays, not '(415) 595-5010'.
    fireEvent.change(input, { target: { value: '(415) 5955-0100', selectionStart: 8, selectionEnd: 8 } });
    expect(input.value).toBe('(415) 555-0100');
    expect(input.selectionStart).toBe(7);
    expect(seen).toHaveLength(before);
    // Deleting still works.
    fireEvent.change(input, { target: { value: '(415) 555-010', selectionStart: 13, selectionEnd: 13 } });
    expect(seen.at(-1)).toBe('415555010');
  });

  it('takes a pasted number with its country code, and refuses a paste of too many digits', () => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    input.focus();
    fireEvent.paste(input, { clipboardData: { getData: () => '+1 (415) 555-0100' } });
    expect(input.value).toBe('(415) 555-0100');
    expect(seen.at(-1)).toBe('4155550100');
    input.setSelectionRange(0, input.value.length);
    fireEvent.paste(input, { clipboardData: { getData: () => '415 555 0100 22' } });
    expect(input.value).toBe('(415) 555-0100');
    expect(seen).toEqual(['4155550100']);
  });

  it('takes a 1 typed first as the country code, so the whole number fits and (1 never shows', () => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    input.focus();
    const shown = typeKeys(input, '14155550100');
    expect(shown.filter((text) => text.startsWith('(1'))).toEqual([]);
    expect(input.value).toBe('(415) 555-0100');
    expect(seen.at(-1)).toBe('4155550100');
    // A 1 typed before a number begun without one is its country code too.
    fireEvent.change(input, { target: { value: '', selectionStart: 0, selectionEnd: 0 } });
    typeKeys(input, '415');
    fireEvent.change(input, { target: { value: '1(415', selectionStart: 1, selectionEnd: 1 } });
    expect(input.value).toBe('(415');
    expect(seen.at(-1)).toBe('415');
  });

  it.each(['1 (415) 555-0100', '+1 415 555 0100', '415.555.0100'])('takes %s pasted', (pasted) => {
    const seen: string[] = [];
    renderWithKit(<PhoneHarness seen={seen} />);
    const input = screen.getByLabelText('Phone Number') as HTMLInputElement;
    input.focus();
    fireEvent.paste(input, { clipboardData: { getData: () => pasted } });
    expect(input.value).toBe('(415) 555-0100');
    expect(seen).toEqual(['4155550100']);
  });

  it('refuses an area code starting with 0 or 1', () => {
    expect(phoneProblem('')).toBeUndefined();
    expect(phoneProblem('(415) 555-0100')).toBeUndefined();
    expect(phoneProblem('(415) 555-010')).toBe(PHONE_MESSAGES.digits);
    expect(phoneProblem('0415550100')).toBe(PHONE_MESSAGES.areaCode);
    expect(phoneProblem('1415550100')).toBe(PHONE_MESSAGES.areaCode);
    expect(isCompletePhone('(015) 555-0100')).toBe(false);
    expect(isCompletePhone('')).toBe(false);
  });
});
