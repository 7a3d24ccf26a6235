import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  acrossFirms,
  type FirmAccess,
  readAcrossFirms,
  recordEvent,
  type Tx,
} from '@portico/platform';
import { IdentityEvents } from '@portico/proto';
import { and, eq, gt, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { IdentityConfig } from '../config.js';
import { hashSecret, randomToken } from '../crypto/secrets.js';
import type { KeyRing } from '../keys/signing-keys.js';
import { Messages } from '../messages.js';
import { type IdentitySchema, refreshTokens, type UserRow, users } from '../schema.js';
import { CONFIG, DB, type IdentityDb, KEYS } from '../tokens.js';
import { lockUser, UsersRepository } from '../users/users.repository.js';
import { SecretPurpose, SecretsRepository } from './secrets.repository.js';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  userId: string;
  isAdvisor: boolean;
  setPasswordRequired: boolean;
}

export function actorOf(user: UserRow, sessionId?: string): Actor {
  return {
    user_id: user.id,
    firm_id: user.firmId,
    role: user.isAdvisor ? 'advisor' : 'client',
    ...(user.isAdvisor && user.firmAccess ? { firm_access: user.firmAccess as FirmAccess } : {}),
    ...(user.firmGroupId ? { firm_group_id: user.firmGroupId } : {}),
    readonly_access: user.readonlyAccess,
    ...(sessionId ? { session_id: sessionId } : {}),
  };
}

/**
 * The refresh tokens that still renew a session: not revoked, not rotated (a rotated one renews nothing:
 * just rotated it answers 409, later its reuse ends the session), not expired. One per live session, found
 * through refresh_tokens_live_idx; a user's rotated and expired history (thousands of rows a year) is
 * neither read nor written when sessions end.
 */
const usable = () =>
  and(
    isNull(refreshTokens.revokedAt),
    isNull(refreshTokens.rotatedAt),
    gt(refreshTokens.expiresAt, sql`now()`),
  );

/**
 * Revokes the usable refresh tokens `which` selects; answers whose they were and their sessions, so only
 * sessions that were live are announced as ended.
 */
const revokeLive = (tx: Tx<IdentitySchema>, which: SQL | undefined) =>
  tx.update(refreshTokens).set({ revokedAt: sql`now()` }).where(and(which, usable())).returning({
    familyId: refreshTokens.familyId,
    userId: refreshTokens.userId,
    firmId: refreshTokens.firmId,
  });

/** Announces one ended session (its id is the access tokens' `sid`) for the gateway and the browsers. */
const announceSessionEnded = (
  tx: Tx<IdentitySchema>,
  user: { id: string; firmId: string },
  sessionId: string,
  reason: string,
) =>
  recordEvent(tx, IdentityEvents.sessionsRevoked, {
    userId: user.id,
    firmId: user.firmId,
    reason,
    sessionId,
    occurredAt: new Date().toISOString(),
  });

const sessionExpired = () => new AppError('unauthorized', 'session_expired', Messages.sessionExpired);

/**
 * How long after its rotation a refresh token's reuse is taken for two tabs of one browser renewing the
 * same session a moment apart, not a leak: tabs take turns (Web Locks), but the second can read the
 * storage they share before the first's new tokens show in it, and present the token just rotated.
 * Ending the sign-in then signed the user out of every tab. Within this window the reuse is refused
 * (409) without ending anything, and the tab takes the tokens the other wrote; a reuse after it still
 * ends the sign-in. A thief who races the owner within it gets no tokens either way.
 */
export const ROTATION_GRACE_MS = 10_000;

const justRotated = (rotatedAt: Date) => Date.now() - rotatedAt.getTime() < ROTATION_GRACE_MS;

const refreshSuperseded = () => new AppError('conflict', 'refresh_superseded', Messages.sessionJustRenewed);

/** Grants (auth_token), access tokens and rotating refresh tokens. */
@Injectable()
export class SessionTokensService {
  constructor(
    @Inject(DB) private readonly db: IdentityDb,
    @Inject(KEYS) private readonly keys: KeyRing,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    private readonly secrets: SecretsRepository,
    private readonly users: UsersRepository,
  ) {}

  /**
   * The auth_token a completed sign-in step returns: single use, two minutes. `provenWith`: the password
   * hash the step compared; the grant is issued, holding the user's row, only while it is still the
   * account's (a password change or reset holds the row too, and retires the grants issued before it).
   */
  /** With `within`, in the caller's transaction (a link or code used up with it); else on its own. */
  async grant(
    user: UserRow,
    provenWith?: { passwordHash: string },
    within?: Tx<IdentitySchema>,
  ): Promise<string> {
    if (within && !provenWith)
      return (await this.secrets.issue(user, SecretPurpose.authGrant, {}, within)).secret;
    return this.issueProven(user, SecretPurpose.authGrant, provenWith);
  }

  /**
   * Issues a secret a sign-in step yields (a grant, a two-factor challenge); with `provenWith`, only
   * while the password the step compared is still the account's, holding the user's row as a reset does.
   */
  async issueProven(
    user: UserRow,
    purpose: SecretPurpose,
    provenWith?: { passwordHash: string },
  ): Promise<string> {
    if (!provenWith) return (await this.secrets.issue(user, purpose)).secret;
    const { secret } = await acrossFirms(this.db, async (tx) => {
      const [current] = await tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id))
        .for('update');
      if (current?.passwordHash !== provenWith.passwordHash)
        throw new AppError('unauthorized', 'invalid_password', Messages.invalidPassword);
      return this.secrets.issue(user, purpose, {}, tx);
    });
    return secret;
  }

  async exchange(authToken: string, client: { userAgent: string; ip: string }): Promise<SessionTokens> {
    const { row } = await this.secrets.findToken(authToken, [SecretPurpose.authGrant]);
    if (!row) throw sessionExpired();
    const user = await this.activeUser(row.userId);
    const familyId = randomUUID();
    // The grant used up and the session written in one transaction holding the user's row, in turn with
    // a password reset (which retires grants and ends sessions holding it): no session is written after
    // the reset from a grant issued before it.
    const refreshToken = await acrossFirms(this.db, async (tx) => {
      await lockUser(tx, user.id);
      if (!(await this.secrets.consume(row.id, tx))) throw sessionExpired();
      return this.insertRefreshToken(tx, user, familyId, client);
    });
    return this.tokensFor(user, familyId, refreshToken);
  }

  async refresh(refreshToken: string): Promise<SessionTokens> {
    // A refresh token names its own user and firm; it is looked up across firms by its hash.
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashSecret(refreshToken))),
    );
    const token = rows[0];
    if (!token) throw sessionExpired();
    // Renewed by another tab a moment ago, while the session goes on. Ending a session revokes only its
    // usable token, not the one just rotated: a session ended meanwhile answers as a reuse, as it did when
    // every token of it was revoked.
    if (
      token.rotatedAt &&
      !token.revokedAt &&
      justRotated(token.rotatedAt) &&
      (await this.sessionLive(token.userId, token.familyId))
    )
      throw refreshSuperseded();
    if (token.revokedAt || token.rotatedAt) {
      // Reuse of a rotated token means it leaked: end the whole sign-in.
      await this.revokeFamily(token.familyId, 'refresh_reused');
      throw new AppError('unauthorized', 'refresh_reused', Messages.sessionExpired);
    }
    if (token.expiresAt.getTime() <= Date.now()) throw sessionExpired();
    const user = await this.activeUser(token.userId);
    const client = { userAgent: token.userAgent, ip: token.ip };
    // The old token claimed and the new one written in one transaction, in turn with sign-out-everywhere
    // (both lock the user's row): one written between them was missed by the revocation.
    const rotated = await acrossFirms(this.db, async (tx) => {
      await lockUser(tx, token.userId);
      const claimed = await tx
        .update(refreshTokens)
        .set({ rotatedAt: sql`now()` })
        .where(
          and(
            eq(refreshTokens.id, token.id),
            isNull(refreshTokens.rotatedAt),
            isNull(refreshTokens.revokedAt),
          ),
        )
        .returning({ id: refreshTokens.id });
      return claimed.length ? this.insertRefreshToken(tx, user, token.familyId, client) : undefined;
    });
    // Claimed by another request a moment ago (two tabs at once): the same as a token just rotated.
    if (!rotated) throw refreshSuperseded();
    return this.tokensFor(user, token.familyId, rotated);
  }

  async signOut(refreshToken: string): Promise<number> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashSecret(refreshToken))),
    );
    return rows[0] ? this.revokeFamily(rows[0].familyId, 'sign_out') : 0;
  }

  /** Ends every session of the user and announces it, so open browsers and sockets sign out too. */
  async signOutEverywhere(actor: Actor, reason = 'sign_out_everywhere'): Promise<number> {
    return acrossFirms(this.db, async (tx) => {
      await lockUser(tx, actor.user_id);
      const revoked = await revokeLive(tx, eq(refreshTokens.userId, actor.user_id));
      await recordEvent(tx, IdentityEvents.sessionsRevoked, {
        userId: actor.user_id,
        firmId: actor.firm_id,
        reason,
        occurredAt: new Date().toISOString(),
      });
      return new Set(revoked.map((r) => r.familyId)).size;
    });
  }

  /**
   * Ends every session of the user but `keep` (the one making the change, if any), each announced with its
   * id as a sign-out is: after a password change or reset, a session opened with the old password (or a
   * stolen refresh token, renewed for a month at each refresh) must not go on.
   */
  async endOtherSessions(
    user: { id: string; firmId: string },
    keep: string | undefined,
    reason: string,
    within?: Tx<IdentitySchema>,
  ) {
    const work = async (tx: Tx<IdentitySchema>) => {
      await lockUser(tx, user.id);
      const revoked = await revokeLive(
        tx,
        and(eq(refreshTokens.userId, user.id), keep ? ne(refreshTokens.familyId, keep) : undefined),
      );
      const families = [...new Set(revoked.map((r) => r.familyId))];
      for (const familyId of families) await announceSessionEnded(tx, user, familyId, reason);
      return families.length;
    };
    return within ? work(within) : acrossFirms(this.db, work);
  }

  /**
   * Ends one session (a refresh-token family) and announces it with its id, the access tokens' `sid`:
   * the gateway refuses them from then on instead of until they expire (up to 15 minutes later).
   */
  private async revokeFamily(familyId: string, reason: 'sign_out' | 'refresh_reused'): Promise<number> {
    return acrossFirms(this.db, async (tx) => {
      const [member] = await tx
        .select({ userId: refreshTokens.userId })
        .from(refreshTokens)
        .where(eq(refreshTokens.familyId, familyId))
        .limit(1);
      if (!member) return 0;
      // In turn with a refresh of the same session (both hold the user's row): a token the refresh was
      // writing is committed before the revocation reads, instead of escaping it for a month.
      await lockUser(tx, member.userId);
      const [revoked] = await revokeLive(
        tx,
        and(eq(refreshTokens.userId, member.userId), eq(refreshTokens.familyId, familyId)),
      );
      if (!revoked) return 0;
      await announceSessionEnded(tx, { id: revoked.userId, firmId: revoked.firmId }, familyId, reason);
      return 1;
    });
  }

  /**
   * Whether the session (a refresh-token family) still has a usable token; across firms, as the refresh
   * that asks, whose token names its user and session but no firm scope yet.
   */
  private async sessionLive(userId: string, familyId: string): Promise<boolean> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), usable()))
        .limit(1),
    );
    return rows.length > 0;
  }

  private async activeUser(userId: string): Promise<UserRow> {
    const user = await this.users.findLiveById(userId);
    if (!user?.paying) throw sessionExpired();
    return user;
  }

  /** A new refresh token of the session, stored by its hash; the token itself is answered once. */
  private async insertRefreshToken(
    tx: Tx<IdentitySchema>,
    user: UserRow,
    familyId: string,
    client: { userAgent: string; ip: string },
  ): Promise<string> {
    const refreshToken = randomToken();
    await tx.insert(refreshTokens).values({
      firmId: user.firmId,
      userId: user.id,
      familyId,
      tokenHash: hashSecret(refreshToken),
      expiresAt: sql`now() + make_interval(secs => ${this.config.REFRESH_TOKEN_TTL_SECONDS})`,
      userAgent: client.userAgent.slice(0, 300),
      ip: client.ip.slice(0, 64),
    });
    return refreshToken;
  }

  private async tokensFor(user: UserRow, familyId: string, refreshToken: string): Promise<SessionTokens> {
    const accessToken = await this.keys.signAccessToken(
      actorOf(user, familyId),
      this.config.ACCESS_TOKEN_TTL_SECONDS,
    );
    return {
      accessToken,
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      userId: user.id,
      isAdvisor: user.isAdvisor,
      setPasswordRequired: user.setPasswordRequired,
    };
  }
}
