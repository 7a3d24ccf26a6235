import type { NotificationsConfig } from '../config.js';
import { HttpSmsAdapter } from './http-sms.adapter.js';
import type { MailPort } from './mail.port.js';
import { OutboxMailAdapter, OutboxSmsAdapter } from './outbox.adapter.js';
import type { SmsPort } from './sms.port.js';
import { SmtpMailAdapter } from './smtp.adapter.js';
import { skipsCertificateCheck } from './smtp-url.rules.js';

/** Email goes through SMTP when SMTP_URL is set, else it stays in the local outbox. */
export function createMailPort(config: NotificationsConfig): MailPort {
  return config.SMTP_URL
    ? new SmtpMailAdapter(config.SMTP_URL, config.MAIL_FROM, { allowPlaintext: config.SMTP_ALLOW_PLAINTEXT })
    : new OutboxMailAdapter();
}

/** SMS goes through the HTTP provider when SMS_PROVIDER=http, else it stays in the local outbox. */
export function createSmsPort(config: NotificationsConfig): SmsPort {
  if (config.SMS_PROVIDER === 'http' && config.SMS_API_URL) {
    return new HttpSmsAdapter(config.SMS_API_URL, config.SMS_API_KEY);
  }
  return new OutboxSmsAdapter();
}

/** Settings an operator must not leave on by mistake, warned about at start. */
export function insecureSettings(config: NotificationsConfig): string[] {
  const warnings: string[] = [];
  if (config.SMTP_URL?.startsWith('smtp://') && config.SMTP_ALLOW_PLAINTEXT)
    warnings.push('Email may be sent unencrypted (SMTP_ALLOW_PLAINTEXT=true): for a local mail catcher only');
  if (config.SMTP_URL && skipsCertificateCheck(config.SMTP_URL))
    warnings.push(
      "Email may be sent to a server whose certificate is not checked (SMTP_URL's tls.rejectUnauthorized): for a local mail catcher only",
    );
  return warnings;
}

/**
 * What an operator must hear at start: in production, a channel without a provider sends nothing, and
 * its requests are refused (503) so that callers tell their users the message was not sent.
 */
export function undeliveredChannels(config: NotificationsConfig): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const warnings: string[] = [];
  if (!config.SMTP_URL) warnings.push('Email is refused, not sent: set SMTP_URL');
  if (config.SMS_PROVIDER !== 'http')
    warnings.push('Text messages are refused, not sent: set SMS_PROVIDER=http and SMS_API_URL');
  return warnings;
}
