import type { MailPort } from './mail.port.js';
import type { SmsPort } from './sms.port.js';

/** The local default: nothing leaves the machine, messages stay readable in the outbox table. */
export class OutboxMailAdapter implements MailPort {
  readonly mode = 'keep';
  async send(): Promise<void> {}
  async close(): Promise<void> {}
}

export class OutboxSmsAdapter implements SmsPort {
  readonly mode = 'keep';
  async send(): Promise<void> {}
  async close(): Promise<void> {}
}
