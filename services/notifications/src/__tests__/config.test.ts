import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@portico/platform';
import { loadNotificationsConfig } from '../config.js';
import { insecureSettings, undeliveredChannels } from '../delivery/providers.js';

const base = { DATABASE_URL: 'postgres://n:p@127.0.0.1:5432/notifications' };

describe('notifications configuration', () => {
  it('defaults to the local outbox for email and SMS, the dev outbox on, health on 3106', () => {
    const config = loadNotificationsConfig(base);
    expect(config).toMatchObject({
      HEALTH_PORT: 3106,
      MAIL_FROM: 'Portico <no-reply@portico.local>',
      SMS_PROVIDER: 'outbox',
      DEV_OUTBOX_ENABLED: true,
      DELIVERY_MAX_ATTEMPTS: 5,
      DELIVERY_RETRY_BASE_MS: 5_000,
    });
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('turns the dev outbox off in production unless asked for', () => {
    expect(loadNotificationsConfig({ ...base, NODE_ENV: 'production' }).DEV_OUTBOX_ENABLED).toBe(false);
    expect(
      loadNotificationsConfig({ ...base, NODE_ENV: 'production', DEV_OUTBOX_ENABLED: 'true' })
        .DEV_OUTBOX_ENABLED,
    ).toBe(true);
    expect(loadNotificationsConfig({ ...base, DEV_OUTBOX_ENABLED: 'false' }).DEV_OUTBOX_ENABLED).toBe(false);
  });

  it('names, in production only, the channels whose messages would be kept and not sent', () => {
    expect(undeliveredChannels(loadNotificationsConfig(base))).toEqual([]);
    const production = { ...base, NODE_ENV: 'production' };
    expect(undeliveredChannels(loadNotificationsConfig(production))).toEqual([
      'Email is refused, not sent: set SMTP_URL',
      'Text messages are refused, not sent: set SMS_PROVIDER=http and SMS_API_URL',
    ]);
    const delivering = {
      ...production,
      SMTP_URL: 'smtp://mail.example.com:587',
      SMS_PROVIDER: 'http',
      SMS_API_URL: 'https://sms.example.com/send',
    };
    expect(undeliveredChannels(loadNotificationsConfig(delivering))).toEqual([]);
  });

  it('requires TLS for SMTP unless SMTP_ALLOW_PLAINTEXT says otherwise, which the URL cannot override', () => {
    const smtp = { ...base, SMTP_URL: 'smtp://mail.example.com:587' };
    expect(loadNotificationsConfig(smtp).SMTP_ALLOW_PLAINTEXT).toBe(false);
    expect(loadNotificationsConfig({ ...smtp, SMTP_ALLOW_PLAINTEXT: '' }).SMTP_ALLOW_PLAINTEXT).toBe(false);
    expect(insecureSettings(loadNotificationsConfig(smtp))).toEqual([]);
    const catcher = loadNotificationsConfig({ ...smtp, SMTP_ALLOW_PLAINTEXT: 'true' });
    expect(catcher.SMTP_ALLOW_PLAINTEXT).toBe(true);
    expect(insecureSettings(catcher)).toEqual([
      'Email may be sent unencrypted (SMTP_ALLOW_PLAINTEXT=true): for a local mail catcher only',
    ]);
    for (const query of ['requireTLS=false', 'ignoreTLS=true', 'secure=false', 'opportunisticTLS=true']) {
      expect(() =>
        loadNotificationsConfig({ ...base, SMTP_URL: `smtp://mail.example.com:587?${query}` }),
      ).toThrow(/SMTP_URL/);
    }
    expect(() => loadNotificationsConfig({ ...smtp, SMTP_ALLOW_PLAINTEXT: 'yes' })).toThrow(
      /SMTP_ALLOW_PLAINTEXT/,
    );
  });

  it('refuses an SMTP URL whose query would turn TLS off however it is spelled, as nodemailer decodes it', () => {
    const refused = [
      // No value: nodemailer reads 0, and requireTLS is off.
      'requireTLS',
      'requireTLS&tls.servername=mail.example.com',
      'requireTLS=0',
      'RequireTLS=false',
      // Percent-encoded names and values are decoded before nodemailer reads them.
      '%69gnoreTLS=true',
      'ignore%54LS=1',
      'opportunisticTLS',
      'secure=false',
      'secure',
      // A certificate not checked protects no better than no TLS against an attacker on the path.
      'tls.rejectUnauthorized=false',
      'tls.rejectUnauthorized=0',
      'tls.rejectUnauthorized',
      'tls.%72ejectUnauthorized=false',
      // The mail library would log each message, sign-in codes and reset links included.
      'debug=true',
      'logger',
      '%6Cogger=true',
      'transactionLog=true',
    ];
    const smtpUrlRefused = (url: string, env: Record<string, string> = {}) => {
      try {
        loadNotificationsConfig({ ...base, ...env, SMTP_URL: url });
        return false;
      } catch (err) {
        return err instanceof ConfigError && /SMTP_URL/.test(err.message);
      }
    };
    expect(refused.filter((query) => !smtpUrlRefused(`smtp://mail.example.com:587?${query}`))).toEqual([]);
    expect(smtpUrlRefused('smtps://mail.example.com?secure=false')).toBe(true);
    // Nor does SMTP_ALLOW_PLAINTEXT let the URL decide: the flag alone does.
    expect(smtpUrlRefused('smtp://127.0.0.1:1025?ignoreTLS=true', { SMTP_ALLOW_PLAINTEXT: 'true' })).toBe(
      true,
    );
    // Other TLS options are the operator's, and so is an unchecked certificate with SMTP_ALLOW_PLAINTEXT.
    for (const query of [
      'tls.servername=mail.example.com',
      'tls.rejectUnauthorized=true',
      'name=portico.example',
    ])
      expect([query, smtpUrlRefused(`smtp://mail.example.com:587?${query}`)]).toEqual([query, false]);
    const catcher = loadNotificationsConfig({
      ...base,
      SMTP_URL: 'smtp://127.0.0.1:1025?tls.rejectUnauthorized=false',
      SMTP_ALLOW_PLAINTEXT: 'true',
    });
    expect(insecureSettings(catcher)).toContain(
      "Email may be sent to a server whose certificate is not checked (SMTP_URL's tls.rejectUnauthorized): for a local mail catcher only",
    );
  });

  it('reads empty variables as unset, as compose and Kubernetes pass them', () => {
    const config = loadNotificationsConfig({ ...base, SMTP_URL: '', SMS_API_URL: '', SMS_API_KEY: '' });
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.SMS_API_URL).toBeUndefined();
  });

  it('fails fast on a bad SMTP URL or an HTTP SMS provider without its URL', () => {
    expect(() => loadNotificationsConfig({ ...base, SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadNotificationsConfig({ ...base, SMS_PROVIDER: 'http' })).toThrow(ConfigError);
    expect(() => loadNotificationsConfig({ ...base, SMS_PROVIDER: 'carrier-pigeon' })).toThrow(
      /SMS_PROVIDER/,
    );
    expect(() => loadNotificationsConfig({ ...base, DEV_OUTBOX_ENABLED: 'yes' })).toThrow(
      /DEV_OUTBOX_ENABLED/,
    );
  });
});
