import { toE164 } from '../outbound.rules.js';
import { DeliveryError } from './delivery.error.js';
import type { OutgoingSms, SmsPort } from './sms.port.js';

/**
 * SMS through an HTTP provider: POST {to, text} as JSON to SMS_API_URL with the key as a bearer token
 * and the message id as Idempotency-Key. 2xx is sent; 408 and 429 are retried like 5xx and network
 * errors, and so are 401 and 403 (our key refused: an operator's fix, as a refused SMTP login, should
 * not have failed every message queued meanwhile); any other 4xx is a permanent refusal.
 */
export class HttpSmsAdapter implements SmsPort {
  readonly mode = 'deliver';

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs = 15_000,
  ) {}

  async send(sms: OutgoingSms, signal?: AbortSignal): Promise<void> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': sms.id,
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify({ to: toE164(sms.to), text: sms.text }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new DeliveryError(`SMS provider unreachable: ${(err as Error).message}`, false, { cause: err });
    }
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const detail = (await response.text().catch(() => '')).slice(0, 500);
    const retryable = response.status >= 500 || [401, 403, 408, 429].includes(response.status);
    throw new DeliveryError(
      `SMS provider answered ${response.status}${detail ? `: ${detail}` : ''}`,
      !retryable,
    );
  }

  async close(): Promise<void> {}
}
