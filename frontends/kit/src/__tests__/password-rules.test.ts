import { describe, expect, it } from '@jest/globals';
import { passwordProblem } from '../inputs/password-rules.js';

describe("password rules (the identity service's)", () => {
  it('reports the first broken rule, then the confirmation', () => {
    expect(passwordProblem('', '')).toBe('Password is missing');
    expect(passwordProblem('Short1!', 'Short1!')).toBe('Password must be greater than 10 characters');
    expect(passwordProblem('lowercase-only1', '')).toBe(
      'Password must contain at least one uppercase letter',
    );
    expect(passwordProblem('UPPERCASE-ONLY1', '')).toBe(
      'Password must contain at least one lowercase letter',
    );
    expect(passwordProblem('NoNumbers-here', '')).toBe('Password must contain at least one number');
    expect(passwordProblem('NoSpecials123', '')).toBe(
      'Password must contain at least one special character (#?!@$%^&*-)',
    );
    expect(passwordProblem('Good-Password-1', 'other')).toBe('Passwords do not match');
    expect(passwordProblem('Good-Password-1', 'Good-Password-1')).toBeUndefined();
    // Without a confirmation, the password alone.
    expect(passwordProblem('Good-Password-1')).toBeUndefined();
  });
});
