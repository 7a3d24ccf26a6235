/**
 * A failed delivery attempt. `permanent` means trying again cannot help (the provider refused the
 * recipient or the message); anything else is retried with backoff.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
