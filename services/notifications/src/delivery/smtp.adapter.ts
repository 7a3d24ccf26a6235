import { createTransport } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { DeliveryError } from './delivery.error.js';
import type { MailPort, OutgoingEmail } from './mail.port.js';

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  /** Set by nodemailer for every 5xx reply other than 503, at whatever step of the session. */
  permanent?: boolean;
}

/**
 * Email through any SMTP server, configured by one URL: smtp://user:pass@host:587 or smtps://host:465.
 * An smtp:// connection must upgrade with STARTTLS before the login and the message are sent: by default
 * nodemailer upgrades only when the server offers it, and an attacker on the path can remove the offer.
 * `allowPlaintext` (SMTP_ALLOW_PLAINTEXT) lifts that for a local mail catcher.
 */
export class SmtpMailAdapter implements MailPort {
  readonly mode = 'deliver';
  private readonly transport;
  /** MAIL_FROM's address, sent with a message's own display name (the firm's). */
  private readonly fromAddress: string;
  /** The right side of every Message-ID: MAIL_FROM's domain. */
  private readonly messageIdDomain: string;

  constructor(url: string, from: string, options: { allowPlaintext?: boolean } = {}) {
    this.transport = createTransport(
      {
        url,
        requireTLS: !options.allowPlaintext,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
      },
      { from },
    );
    this.fromAddress = addressOf(from);
    this.messageIdDomain = this.fromAddress.includes('@')
      ? this.fromAddress.slice(this.fromAddress.lastIndexOf('@') + 1)
      : 'localhost';
  }

  /** `signal` aborts the attempt and closes its connection (the worker's limit on an attempt). */
  async send(mail: OutgoingEmail, signal?: AbortSignal): Promise<void> {
    // The firm's name with the deployment's address: the domain the mail server may send for stays
    // the one configured (SPF, DKIM), the name is the one the recipient knows.
    const from: Mail.Address | undefined = mail.senderName
      ? { name: mail.senderName, address: this.fromAddress }
      : undefined;
    try {
      await this.transport.sendMail({
        ...(from ? { from } : {}),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        // The same at every attempt: when one whose message the server took is still counted failed (its
        // reply lost, its time up), the copy a retry sends is recognisable as the same email, not a new one.
        messageId: `<${mail.id}@${this.messageIdDomain}>`,
        headers: { 'X-Portico-Message-Id': mail.id },
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      throw smtpFailure(err as SmtpFailure);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** The address of a From value: 'Portico <no-reply@portico.example>' -> 'no-reply@portico.example'. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** nodemailer's codes for a reply to the envelope (MAIL FROM, RCPT TO, DATA) or to the message itself. */
const ABOUT_THE_MESSAGE = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * A 5xx reply refusing the sender, recipient or message is final. Anything else is retried: a 4xx reply,
 * and a 5xx one that refuses the session rather than this message (a 554 greeting, an EHLO refused, a
 * refused login or STARTTLS: the server's state, our configuration or the network's, fixed by an
 * operator), which nodemailer marks permanent too.
 */
export function smtpFailure(err: SmtpFailure): DeliveryError {
  const permanent = err.permanent === true && ABOUT_THE_MESSAGE.has(err.code ?? '');
  const reply = err.responseCode ? ` (SMTP ${err.responseCode})` : '';
  return new DeliveryError(`${err.message}${reply}`.slice(0, 1_000), permanent, { cause: err });
}
