import type { Channel } from './outbound.schema.js';

/** Pure rules of outbound messages: what a valid recipient and message are, and when to retry. */

const EMAIL =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
const KIND = /^[a-z][a-z0-9_]{0,63}$/;

export const LIMITS = {
  emailLength: 254,
  subjectLength: 998,
  bodyLength: 512 * 1024,
  smsLength: 1_600,
  idempotencyKeyLength: 200,
  senderNameLength: 200,
} as const;

/** The address to store and send to (trimmed, lower-cased), or undefined when it is not an email address. */
export function normaliseEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  if (email.length > LIMITS.emailLength || !EMAIL.test(email)) return undefined;
  return email;
}

/**
 * The 10 digits of a US phone number, or undefined. Spaces, dots, dashes, parentheses and a leading
 * +1 or 1 are allowed around them; anything else is not a phone number.
 */
export function normaliseUsPhone(raw: string): string | undefined {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  const match = /^(?:\+?1)?(\d{10})$/.exec(compact);
  return match?.[1];
}

/** E.164 form of a normalised US number, what SMS providers expect. */
export const toE164 = (digits: string) => `+1${digits}`;

export const isValidKind = (kind: string) => KIND.test(kind);

/** The longest wait between two attempts, however many have failed. */
export const MAX_RETRY_DELAY_MS = 30 * 60_000;

/**
 * Delay before the next attempt after `attempt` failed attempts (1-based): base, 5x base, 25x base...
 * up to MAX_RETRY_DELAY_MS. With the default 5 s base: 5 s, 25 s, 2 min 5 s, 10 min 25 s, then every
 * 30 minutes (uncapped, the twentieth attempt would have waited past the year 100000).
 */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 5 ** Math.max(0, attempt - 1));
}

/** What to do after a failed attempt: try again later, or give up. */
export function afterFailure(
  attempt: number,
  policy: { maxAttempts: number; baseMs: number; permanent: boolean },
): { giveUp: true } | { giveUp: false; retryInMs: number } {
  if (policy.permanent || attempt >= policy.maxAttempts) return { giveUp: true };
  return { giveUp: false, retryInMs: retryDelayMs(attempt, policy.baseMs) };
}

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

/** 0 or unset means the default; anything above the maximum is the maximum. */
export function listLimit(requested: number): number {
  if (!Number.isFinite(requested) || requested <= 0) return DEFAULT_LIST_LIMIT;
  return Math.min(Math.floor(requested), MAX_LIST_LIMIT);
}

export function parseChannel(value: string): Channel | undefined | 'invalid' {
  if (value === '') return undefined;
  return value === 'email' || value === 'sms' ? value : 'invalid';
}
