import { describe, expect, it } from '@jest/globals';
import { ConfigError, commonEnv, loadConfig, serviceEnv } from '../config/env.js';

describe('MIGRATE_ON_START', () => {
  const migrateOnStart = (value?: string) =>
    loadConfig(
      { MIGRATE_ON_START: serviceEnv.MIGRATE_ON_START },
      value === undefined ? {} : { MIGRATE_ON_START: value },
    ).MIGRATE_ON_START;

  it('applies migrations at start unless told not to: unset or empty is true', () => {
    expect(migrateOnStart()).toBe(true);
    expect(migrateOnStart('')).toBe(true);
    expect(migrateOnStart('true')).toBe(true);
    expect(migrateOnStart('false')).toBe(false);
  });

  it('refuses anything but true or false, naming the variable', () => {
    expect(() => migrateOnStart('no')).toThrow(ConfigError);
    expect(() => migrateOnStart('0')).toThrow(/MIGRATE_ON_START/);
  });
});

describe('NATS_URL', () => {
  const natsUrl = (value?: string) =>
    loadConfig({ NATS_URL: commonEnv.NATS_URL }, value === undefined ? {} : { NATS_URL: value }).NATS_URL;

  it('takes a nats:// or tls:// URL, a password percent-encoded', () => {
    expect(natsUrl()).toBe('nats://127.0.0.1:4222');
    expect(natsUrl('nats://nats:4222')).toBe('nats://nats:4222');
    expect(natsUrl('tls://portico:s3cr%23et@nats.internal:4222')).toBe(
      'tls://portico:s3cr%23et@nats.internal:4222',
    );
  });

  it('refuses one the NATS client would fail on or misread, without quoting it', () => {
    for (const value of [
      'nats://user:s3cr#et@host',
      'nats://user:1234#et@host',
      'nats://user:s3cr?et@host',
      'nats://user:s3cr/et@host',
      'nats://',
      '127.0.0.1:4222',
      '',
    ]) {
      let refusal: unknown;
      try {
        natsUrl(value);
      } catch (err) {
        refusal = err;
      }
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as Error).message).toMatch(/NATS_URL: must be a nats:\/\/ or tls:\/\/ URL/);
      expect((refusal as Error).message).not.toMatch(/s3cr|1234|127\.0\.0\.1/);
    }
  });
});
