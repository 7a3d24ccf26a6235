// The password rules of the identity service (spec 2 s.5: contact and sign-in setup), with its texts,
// for the forms that set a password: checked before the call, so a refusal is not the first news of them.

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_SPECIALS = '#?!@$%^&*-';

export const PASSWORD_MESSAGES = {
  passwordMissing: 'Password is missing',
  passwordTooShort: 'Password must be greater than 10 characters',
  passwordNeedsUppercase: 'Password must contain at least one uppercase letter',
  passwordNeedsLowercase: 'Password must contain at least one lowercase letter',
  passwordNeedsNumber: 'Password must contain at least one number',
  passwordNeedsSpecial: 'Password must contain at least one special character (#?!@$%^&*-)',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

/** The rules in one line, for under a new-password field. */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters with upper and lower case letters, a number and one of ${PASSWORD_SPECIALS}`;

/** The first rule a new password breaks, then (when given) whether its confirmation matches. */
export function passwordProblem(password: string, confirmation?: string): string | undefined {
  if (!password) return PASSWORD_MESSAGES.passwordMissing;
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.passwordTooShort;
  if (!/[A-Z]/.test(password)) return PASSWORD_MESSAGES.passwordNeedsUppercase;
  if (!/[a-z]/.test(password)) return PASSWORD_MESSAGES.passwordNeedsLowercase;
  if (!/[0-9]/.test(password)) return PASSWORD_MESSAGES.passwordNeedsNumber;
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c)))
    return PASSWORD_MESSAGES.passwordNeedsSpecial;
  if (confirmation !== undefined && confirmation !== password) return PASSWORD_MESSAGES.passwordsDoNotMatch;
  return undefined;
}
