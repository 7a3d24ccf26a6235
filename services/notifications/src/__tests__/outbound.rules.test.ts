import { describe, expect, it } from '@jest/globals';
import {
  afterFailure,
  DEFAULT_LIST_LIMIT,
  isValidKind,
  listLimit,
  MAX_LIST_LIMIT,
  MAX_RETRY_DELAY_MS,
  normaliseEmail,
  normaliseUsPhone,
  parseChannel,
  retryDelayMs,
  toE164,
} from '../outbound.rules.js';

describe('email addresses', () => {
  it.each([
    ['jane@example.com', 'jane@example.com'],
    ['  Jane.Doe+tax@Sub.Example.CO ', 'jane.doe+tax@sub.example.co'],
    ["o'brien@firm-cpa.accountants", "o'brien@firm-cpa.accountants"],
  ])('accepts %p as %p', (raw, expected) => {
    expect(normaliseEmail(raw)).toBe(expected);
  });

  it.each([
    'jane@example.c',
    'jane@example',
    'jane@example.123',
    'jane.example.com',
    '@example.com',
    'jane@@example.com',
    'ja ne@example.com',
    'jane@-example.com',
    'jane@example..com',
    'Jane <jane@example.com>',
    '',
    `${'a'.repeat(250)}@example.com`,
  ])('refuses %p', (raw) => {
    expect(normaliseEmail(raw)).toBeUndefined();
  });
});

describe('US phone numbers', () => {
  it.each([
    ['5551234567', '5551234567'],
    ['(555) 123-4567', '5551234567'],
    ['555.123.4567', '5551234567'],
    ['+1 555 123 4567', '5551234567'],
    ['15551234567', '5551234567'],
  ])('accepts %p as %p', (raw, expected) => {
    expect(normaliseUsPhone(raw)).toBe(expected);
  });

  it.each(['555123456', '555123456789', '+44 20 7946 0958', '25551234567', '555-CALL-NOW', '', '+1'])(
    'refuses %p',
    (raw) => {
      expect(normaliseUsPhone(raw)).toBeUndefined();
    },
  );

  it('formats a stored number for providers in E.164', () => {
    expect(toE164('5551234567')).toBe('+15551234567');
  });
});

describe('retry schedule', () => {
  it('waits 5 s, 25 s, 2 min 5 s, then 10 min 25 s with the default base', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 5_000))).toEqual([
      5_000, 25_000, 125_000, 625_000,
    ]);
  });

  it('never waits more than 30 minutes between attempts, up to the most attempts allowed', () => {
    expect(retryDelayMs(5, 5_000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(19, 5_000)).toBe(30 * 60_000);
  });

  it('retries a temporary failure until the last attempt, then gives up', () => {
    const policy = { maxAttempts: 5, baseMs: 5_000, permanent: false };
    expect(afterFailure(1, policy)).toEqual({ giveUp: false, retryInMs: 5_000 });
    expect(afterFailure(4, policy)).toEqual({ giveUp: false, retryInMs: 625_000 });
    expect(afterFailure(5, policy)).toEqual({ giveUp: true });
  });

  it('gives up at once on a permanent failure', () => {
    expect(afterFailure(1, { maxAttempts: 5, baseMs: 5_000, permanent: true })).toEqual({ giveUp: true });
  });
});

describe('outbox listing', () => {
  it('defaults the limit to 20 and caps it at 100', () => {
    expect(listLimit(0)).toBe(DEFAULT_LIST_LIMIT);
    expect(listLimit(-3)).toBe(DEFAULT_LIST_LIMIT);
    expect(listLimit(7)).toBe(7);
    expect(listLimit(500)).toBe(MAX_LIST_LIMIT);
  });

  it('knows the two channels', () => {
    expect(parseChannel('')).toBeUndefined();
    expect(parseChannel('sms')).toBe('sms');
    expect(parseChannel('fax')).toBe('invalid');
  });
});

describe('message kinds', () => {
  it('are snake_case names', () => {
    expect(isValidKind('sign_in_code')).toBe(true);
    expect(isValidKind('Sign In')).toBe(false);
    expect(isValidKind('')).toBe(false);
  });
});
