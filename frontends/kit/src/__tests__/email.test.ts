import { describe, expect, it } from '@jest/globals';
import { EMAIL_MESSAGES, emailProblem, isValidEmail } from '../inputs/email.js';
import { PHONE_MESSAGES, requiredPhoneProblem } from '../inputs/phone.js';

describe('email and phone rules', () => {
  it('asks for an email, then for an address with a top-level domain of two letters or more', () => {
    expect(emailProblem('  ')).toBe(EMAIL_MESSAGES.required);
    expect(emailProblem('cleo@real')).toBe(EMAIL_MESSAGES.invalid);
    expect(emailProblem('cleo@real.c')).toBe(EMAIL_MESSAGES.invalid);
    expect(emailProblem(' cleo@real.test ')).toBeUndefined();
    expect(isValidEmail('a b@real.test')).toBe(false);
  });

  it('asks for a phone, then for ten digits with a US area code', () => {
    expect(requiredPhoneProblem('')).toBe(PHONE_MESSAGES.required);
    expect(requiredPhoneProblem('(415) 55')).toBe(PHONE_MESSAGES.digits);
    expect(requiredPhoneProblem('(115) 555-0100')).toBe(PHONE_MESSAGES.areaCode);
    expect(requiredPhoneProblem('(415) 555-0100')).toBeUndefined();
  });
});
