import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { PhoneInput } from '../inputs/PhoneInput.js';
import { formatPhone, isCompletePhone, PHONE_MASK, phoneDigits } from '../inputs/phone.js';
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

describe('phone mask', () => {
  it('keeps digits only, at most ten', () => {
    expect(phoneDigits('(415) 555-0100')).toBe('4155550100');
    expect(phoneDigits('415.555.0100 ext 9')).toBe('4155550100');
    expect(phoneDigits('+1 415 555 0100')).toBe('4155550100');
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
});
