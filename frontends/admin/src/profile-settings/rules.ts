/** The rules of Advisor Profile Settings, with the messages identity answers for the same checks. */
import { EMAIL_MESSAGES, emailProblem, PASSWORD_MESSAGES, PHONE_MESSAGES, phoneProblem } from '@portico/kit';

export const SETTINGS_MESSAGES = {
  saved: 'Profile updated successfully',
  noChanges: 'No changes to save',
  signInMethodSaved: 'Updated successfully',
  nameRequired: 'First and last name are required',
  emailRequired: EMAIL_MESSAGES.required,
  invalidEmail: EMAIL_MESSAGES.invalid,
  phoneDigits: PHONE_MESSAGES.digits,
  areaCode: PHONE_MESSAGES.areaCode,
  phoneRequired: PHONE_MESSAGES.required,
  outOfOfficeMessageRequired: 'Please enter the message clients see while you are out of office',
  twoFactorForced: 'Your firm requires two-factor authentication.',
  ...PASSWORD_MESSAGES,
} as const;

export const validateEmail = emailProblem;

/** An optional phone: empty, or ten digits with a US area code (never starting with 0 or 1). */
export const validateOptionalPhone = (phone: string): string | undefined => phoneProblem(phone);

export type SignInMethod = 'password' | 'sms' | 'email';

export const SIGN_IN_METHODS: { value: SignInMethod; label: string }[] = [
  { value: 'password', label: 'Password' },
  { value: 'sms', label: 'SMS passcode' },
  { value: 'email', label: 'Email passcode' },
];
