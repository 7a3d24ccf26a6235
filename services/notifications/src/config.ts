import { ConfigError, loadConfig, serviceEnv } from '@portico/platform';
import { z } from 'zod';
import { isUrl, loggingSwitches, skipsCertificateCheck, tlsSwitches } from './delivery/smtp-url.rules.js';

/** An unset variable and an empty one mean the same (compose and Kubernetes pass empty strings). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Every variable the service reads. */
export const notificationsEnv = {
  ...serviceEnv,
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3106),
  MAIL_FROM: z.string().min(3).default('Portico <no-reply@portico.local>'),
  /** smtp://user:pass@host:port or smtps://...; without it, email stays in the local outbox. */
  SMTP_URL: optional(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .refine(isUrl, 'must be a valid URL (percent-encode special characters of the user and password)')
      // Whether TLS is required is SMTP_ALLOW_PLAINTEXT's alone: nodemailer would let the URL override it.
      .refine(
        (url) => tlsSwitches(url).length === 0,
        'must not set requireTLS, ignoreTLS, opportunisticTLS or secure (see SMTP_ALLOW_PLAINTEXT)',
      )
      .refine(
        (url) => loggingSwitches(url).length === 0,
        'must not set debug, logger or transactionLog (the mail library would log the messages, sign-in codes included)',
      ),
  ),
  /**
   * An smtp:// URL must upgrade to TLS (STARTTLS) or the message is not sent: otherwise a network
   * attacker who strips the server's STARTTLS offer reads the login, the codes and the reset links.
   * `true` lets it go unencrypted, or to a server whose certificate is not checked, for a local mail
   * catcher only.
   */
  SMTP_ALLOW_PLAINTEXT: z.preprocess((value) => (value === '' ? undefined : value), flag.default(false)),
  SMS_PROVIDER: z.enum(['outbox', 'http']).default('outbox'),
  SMS_API_URL: optional(z.string().url()),
  SMS_API_KEY: optional(z.string()),
  /** Whether notifications.outbox.list.v1 answers; off by default in production. */
  DEV_OUTBOX_ENABLED: optional(flag),
  /** How often the delivery worker looks for due messages, in milliseconds. */
  DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** First retry delay; each later one is five times the previous (5 s, 25 s, 2 min, 10 min). */
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5_000),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
};

export type NotificationsConfig = Omit<
  z.infer<z.ZodObject<typeof notificationsEnv>>,
  'DEV_OUTBOX_ENABLED'
> & {
  DEV_OUTBOX_ENABLED: boolean;
};

export function loadNotificationsConfig(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const config = loadConfig(notificationsEnv, env);
  if (config.SMS_PROVIDER === 'http' && !config.SMS_API_URL) {
    throw new ConfigError('Invalid configuration:\n  SMS_API_URL: required when SMS_PROVIDER=http');
  }
  if (config.SMTP_URL && skipsCertificateCheck(config.SMTP_URL) && !config.SMTP_ALLOW_PLAINTEXT) {
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL: tls.rejectUnauthorized may be off only with SMTP_ALLOW_PLAINTEXT=true',
    );
  }
  return {
    ...config,
    DEV_OUTBOX_ENABLED: config.DEV_OUTBOX_ENABLED ?? config.NODE_ENV !== 'production',
  };
}

/** Nest injection token of the loaded configuration. */
export const CONFIG = Symbol('NotificationsConfig');
