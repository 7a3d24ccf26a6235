import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { acrossFirms, readAcrossFirms, type Tx } from '@portico/platform';
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { hashSecret, randomCode, randomToken } from '../crypto/secrets.js';
import { type IdentitySchema, oneTimeSecrets } from '../schema.js';
import { DB, type IdentityDb } from '../tokens.js';

/** What a one-time secret is for; each has its own lifetime. */
export const SecretPurpose = {
  signInCode: 'sign_in_code',
  signInLink: 'sign_in_link',
  passwordReset: 'password_reset',
  emailConfirmation: 'email_confirmation',
  /** The grant a completed sign-in step yields: the auth_token exchanged for a session. */
  authGrant: 'auth_grant',
  /** Proof of the first factor, waiting for the second. */
  twoFactorChallenge: 'two_factor_challenge',
  twoFactorCode: 'two_factor_code',
  twoFactorLink: 'two_factor_link',
  /** Lets a user who came through a reset link or a forced set-up choose a sign-in method. */
  setSignInMethod: 'set_sign_in_method',
} as const;
export type SecretPurpose = (typeof SecretPurpose)[keyof typeof SecretPurpose];

/**
 * What a user's emailed links, codes and sign-in steps in progress are: sent to the address or phone, or
 * made with the password, the account had when they were issued. An emailed code counts as both factors,
 * as a link does, so one sent to a replaced address must stop working with the change.
 */
export const SIGN_IN_SECRETS: SecretPurpose[] = [
  SecretPurpose.signInCode,
  SecretPurpose.twoFactorCode,
  SecretPurpose.signInLink,
  SecretPurpose.passwordReset,
  SecretPurpose.twoFactorLink,
  SecretPurpose.twoFactorChallenge,
  SecretPurpose.setSignInMethod,
  SecretPurpose.authGrant,
];

export const SECRET_TTL_SECONDS: Record<SecretPurpose, number> = {
  sign_in_code: 10 * 60,
  sign_in_link: 15 * 60,
  password_reset: 60 * 60,
  email_confirmation: 24 * 3600,
  auth_grant: 2 * 60,
  two_factor_challenge: 10 * 60,
  two_factor_code: 10 * 60,
  two_factor_link: 15 * 60,
  set_sign_in_method: 30 * 60,
};

export type SecretRow = typeof oneTimeSecrets.$inferSelect;

/** The user's secrets of a purpose that still work: not used, not expired. */
const liveOf = (userId: string, purpose: SecretPurpose) =>
  and(
    eq(oneTimeSecrets.userId, userId),
    eq(oneTimeSecrets.purpose, purpose),
    isNull(oneTimeSecrets.consumedAt),
    gt(oneTimeSecrets.expiresAt, sql`now()`),
  );

export interface PreparedSecret {
  id: string;
  secret: string;
  preparedAt: Date;
}

// Sign-in secrets are looked up by their hash before the firm is known, so these queries run across
// firms; the hash itself is the capability.
@Injectable()
export class SecretsRepository {
  constructor(@Inject(DB) private readonly db: IdentityDb) {}

  /**
   * A secret and the id its row will have, made before it is stored (to be sent first); stored, its row
   * is dated from this moment, so secrets sent at once compare in the order they were made.
   */
  prepare(purpose: SecretPurpose): PreparedSecret {
    return {
      id: randomUUID(),
      secret: purpose.endsWith('_code') ? randomCode() : randomToken(),
      preparedAt: new Date(),
    };
  }

  /** Whether the user has a live secret of the purpose made after `since` (in the caller's transaction). */
  async liveMadeAfter(tx: Tx<IdentitySchema>, userId: string, purpose: SecretPurpose, since: Date) {
    const rows = await tx
      .select({ id: oneTimeSecrets.id })
      .from(oneTimeSecrets)
      .where(and(liveOf(userId, purpose), gt(oneTimeSecrets.createdAt, since)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Issues a secret (a six-digit code for *_code purposes, else a random token) and returns it in clear
   * once. In `within`, the caller's transaction, when the secret stands or falls with the caller's change.
   * `prepared`: the secret and row id made by `prepare`, already sent.
   */
  async issue(
    user: { id: string; firmId: string },
    purpose: SecretPurpose,
    data: Record<string, string> = {},
    within?: Tx<IdentitySchema>,
    prepared?: PreparedSecret,
  ): Promise<{ secret: string; row: SecretRow }> {
    const { id, secret, preparedAt } = prepared ?? this.prepare(purpose);
    const ttl = SECRET_TTL_SECONDS[purpose];
    const write = async (tx: Tx<IdentitySchema>) => {
      if (purpose.endsWith('_code')) {
        // A new code replaces the previous one: only the latest code works.
        await tx
          .update(oneTimeSecrets)
          .set({ consumedAt: sql`now()` })
          .where(
            and(
              eq(oneTimeSecrets.userId, user.id),
              eq(oneTimeSecrets.purpose, purpose),
              isNull(oneTimeSecrets.consumedAt),
            ),
          );
      }
      return tx
        .insert(oneTimeSecrets)
        .values({
          id,
          createdAt: preparedAt,
          firmId: user.firmId,
          userId: user.id,
          purpose,
          // Codes are short, so their hash includes the row's user to avoid collisions across users.
          secretHash: purpose.endsWith('_code')
            ? hashSecret(`${user.id}:${secret}:${randomToken()}`)
            : hashSecret(secret),
          data: purpose.endsWith('_code') ? { ...data, code_hash: hashSecret(`${user.id}:${secret}`) } : data,
          expiresAt: sql`now() + make_interval(secs => ${ttl})`,
        })
        .returning();
    };
    const [row] = within ? await write(within) : await acrossFirms(this.db, write);
    return { secret, row: row as SecretRow };
  }

  /**
   * Uses up every live secret of the user for these purposes (links sent before a password change); in
   * `within`, the caller's transaction, when it is part of the caller's change.
   */
  async retire(userId: string, purposes: SecretPurpose[], within?: Tx<IdentitySchema>): Promise<void> {
    const write = (tx: Tx<IdentitySchema>) =>
      tx
        .update(oneTimeSecrets)
        .set({ consumedAt: sql`now()` })
        .where(
          and(
            eq(oneTimeSecrets.userId, userId),
            inArray(oneTimeSecrets.purpose, purposes),
            isNull(oneTimeSecrets.consumedAt),
          ),
        );
    await (within ? write(within) : acrossFirms(this.db, write));
  }

  /** Finds a live token secret; `expired` tells an expired or used link from an unknown one. */
  async findToken(token: string, purposes: SecretPurpose[]): Promise<{ row?: SecretRow; expired: boolean }> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(oneTimeSecrets)
        .where(eq(oneTimeSecrets.secretHash, hashSecret(token))),
    );
    const row = rows.find((r) => purposes.includes(r.purpose as SecretPurpose));
    if (!row) return { expired: false };
    const expired = !!row.consumedAt || row.expiresAt.getTime() <= Date.now();
    return { row: expired ? undefined : row, expired };
  }

  /** The user's newest live secret of a purpose (the code that works, the confirmation link waiting). */
  async latestLive(userId: string, purpose: SecretPurpose): Promise<SecretRow | undefined> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(oneTimeSecrets)
        .where(liveOf(userId, purpose))
        .orderBy(desc(oneTimeSecrets.createdAt))
        .limit(1),
    );
    return rows[0];
  }

  codeMatches(row: SecretRow, userId: string, code: string): boolean {
    return row.data.code_hash === hashSecret(`${userId}:${code}`);
  }

  /**
   * Takes one of a live code's `limit` attempts, in one statement: the attempt's number, 'exhausted' when
   * none is left, 'spent' when the code was used or ran out meanwhile. Counted before the guess is
   * compared, so guesses sent at once get no more attempts between them than guesses sent one by one.
   */
  async takeAttempt(id: string, limit: number): Promise<number | 'exhausted' | 'spent'> {
    return acrossFirms(this.db, async (tx) => {
      const [taken] = await tx
        .update(oneTimeSecrets)
        .set({ attempts: sql`${oneTimeSecrets.attempts} + 1` })
        .where(
          and(
            eq(oneTimeSecrets.id, id),
            lt(oneTimeSecrets.attempts, limit),
            isNull(oneTimeSecrets.consumedAt),
            gt(oneTimeSecrets.expiresAt, sql`now()`),
          ),
        )
        .returning({ attempts: oneTimeSecrets.attempts });
      if (taken) return taken.attempts;
      const [now] = await tx
        .select({ attempts: oneTimeSecrets.attempts })
        .from(oneTimeSecrets)
        .where(eq(oneTimeSecrets.id, id));
      return (now?.attempts ?? 0) >= limit ? 'exhausted' : 'spent';
    });
  }

  /**
   * Marks a secret used; false when another request used it first (single use under concurrency). In
   * `within`, the caller's transaction, when the secret is used up only if the caller's change stands.
   */
  async consume(id: string, within?: Tx<IdentitySchema>): Promise<boolean> {
    const write = (tx: Tx<IdentitySchema>) =>
      tx
        .update(oneTimeSecrets)
        .set({ consumedAt: sql`now()` })
        .where(
          and(
            eq(oneTimeSecrets.id, id),
            isNull(oneTimeSecrets.consumedAt),
            gt(oneTimeSecrets.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: oneTimeSecrets.id });
    const rows = within ? await write(within) : await acrossFirms(this.db, write);
    return rows.length === 1;
  }
}
