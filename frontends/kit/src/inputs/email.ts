/** Spec 1 s.5.5: an address with a top-level domain of at least two letters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export const isValidEmail = (email: string) => EMAIL_PATTERN.test(email.trim());

/** Spec 2 s.5 (contact and sign-in setup), and the profile editors of spec 1 s.5.3. */
export const EMAIL_MESSAGES = {
  required: 'Email is required',
  invalid: 'Invalid email address',
} as const;

/** What is wrong with a required email: missing, or not an address. */
export function emailProblem(email: string): string | undefined {
  if (!email.trim()) return EMAIL_MESSAGES.required;
  return isValidEmail(email) ? undefined : EMAIL_MESSAGES.invalid;
}
