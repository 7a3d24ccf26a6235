import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A URL-safe random token with 256 bits of entropy. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Only hashes of tokens and codes are stored. SHA-256 suffices: the inputs are random, not chosen by people. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const ONE_TIME_CODE_LENGTH = 6;

/** A six-digit code, uniformly random, leading zeros kept. */
export const randomCode = () =>
  String(randomInt(0, 10 ** ONE_TIME_CODE_LENGTH)).padStart(ONE_TIME_CODE_LENGTH, '0');

/** Short public ids (uid, company hash id). */
export const publicId = (bytes = 9) => randomBytes(bytes).toString('base64url');
