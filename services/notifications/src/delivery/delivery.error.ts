/**
 * A failed delivery attempt. `permanent` means trying again cannot help (the provider refused the
 * recipient or the message); anything else is retried with backoff.
 *
 * Its message goes to the logs and to the message's last_error, so it is stripped of personal data
 * first: providers echo the recipient ('<jane@example.com>: Recipient address rejected', 'The To
 * number +15550100400 is not valid') and sometimes the text itself, a sign-in code. The provider's
 * own error is not kept as the cause for the same reason; its name and code are.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  readonly providerError?: { name: string; code?: string };
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(withoutPersonalData(message));
    const cause = options?.cause as { name?: unknown; code?: unknown } | undefined;
    if (cause && typeof cause === 'object')
      this.providerError = {
        name: String(cause.name ?? 'Error'),
        ...(cause.code !== undefined ? { code: String(cause.code) } : {}),
      };
  }
}

const EMAIL_ADDRESS = /[^\s<>()[\]{}"',;:]+@[^\s<>()[\]{}"',;:]+/g;
// A phone number as written in North America or in E.164, or any run of seven digits or more.
const PHONE_NUMBER = /(?:\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b|\+?\d{7,}/g;
// The six digits of a sign-in or verification code.
const CODE = /\b\d{6}\b/g;

/**
 * `text` with email addresses, phone numbers and codes replaced. Status codes ('550 5.1.1'), host
 * addresses and ports stay: they say what went wrong.
 */
// Control characters other than tab and line breaks: PostgreSQL refuses a NUL in text, and a provider's
// error holding one left its message unrecordable, claimed and sent again at each lease's end.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function withoutPersonalData(text: string): string {
  return text
    .replace(CONTROL, '')
    .replace(EMAIL_ADDRESS, '[address]')
    .replace(PHONE_NUMBER, '[number]')
    .replace(CODE, '[number]');
}
