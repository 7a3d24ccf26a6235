import { AppError } from '@portico/platform';

/** The error codes of this service, each with its user-facing message, mapped once. */
export const OutboundErrors = {
  invalidPhone: () =>
    new AppError(
      'bad_request',
      'invalid_phone',
      'SMS code failed to send. Your phone number might be invalid. Please use the button below to reset your sign-in method.',
      { fields: { to: 'Enter a 10-digit US phone number' } },
    ),
  invalidEmail: () =>
    new AppError('bad_request', 'invalid_email', 'Please enter a valid email address', {
      fields: { to: 'Please enter a valid email address' },
    }),
  invalidMessage: (field: string, message: string) =>
    new AppError('bad_request', 'invalid_message', message, { fields: { [field]: message } }),
  noProvider: (channel: 'email' | 'sms') =>
    new AppError(
      'unavailable',
      'no_provider',
      channel === 'sms'
        ? 'Text messages cannot be sent: no SMS provider is configured.'
        : 'Email cannot be sent: no mail server is configured.',
    ),
  outboxDisabled: () =>
    new AppError('forbidden', 'outbox_disabled', 'The development outbox is not enabled on this server'),
} as const;
