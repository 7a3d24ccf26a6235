/** Sign-in texts of spec 1 s.2.3, s.5.2 and s.8, in one place. */
export const HEADERS = {
  login: 'Sign In',
  twoFactor: '2-Factor Auth',
  oneMoreStep: 'One more step to go…',
  resetPassword: 'Reset password',
  viaEmail: 'Sign in via email',
  setUpPassword: 'Set up password',
  viaSms: 'Sign in via SMS',
  nextTime: 'How do you want to sign in next time?',
} as const;

export const MESSAGES = {
  emailFirst: 'Please fill out email first.',
  emailMissing: 'Email is missing',
  passwordMissing: 'Password is missing',
  passwordsDiffer: 'Passwords do not match',
  noUser: "Sorry, we couldn't find a user with that email address",
  signInProblem: 'Sorry, there was a problem signing you in',
  somethingWrong: 'Something went wrong',
  smsFailed:
    'SMS code failed to send. Your phone number might be invalid. Please use the button below to reset your sign-in method.',
  smsSendFailed: 'Failed to send SMS code',
  codeSendFailed: 'Sorry, there was a problem sending your verification code. Please try again.',
  linkSendFailed: 'Sorry, there was a problem sending the sign-in link. Please try again later.',
  twoFactorLinkFailed:
    'Sorry, there was a problem sending a two-factor authentication link. Please try again later.',
  invalidCode: 'Invalid or expired verification code',
  tooManyAttempts: 'Too many incorrect attempts',
  emailConfirmed: 'Your new email address is confirmed.',
  codeResent: 'We sent you a new code.',
  /** The sent-link step of a visitor who came from an email confirmation link (see `useSignInFlow`). */
  confirmationLeftBehind:
    'Your new email address is not confirmed yet. Once you are signed in, open the confirmation link in your email again.',
} as const;

export const CODE_LENGTH = 6;
