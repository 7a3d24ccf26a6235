import { Inject, Injectable } from '@nestjs/common';
import {
  acrossFirms,
  type FirmScope,
  inFirm,
  readAcrossFirms,
  readInFirm,
  recordEvent,
  scopedReader,
  type Tx,
} from '@portico/platform';
import { IdentityEvents } from '@portico/proto';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { companies, companyOwners, type IdentitySchema, type UserRow, users } from '../schema.js';
import { DB, type IdentityDb } from '../tokens.js';
import { normaliseEmail } from './profile.rules.js';

export type UserChanges = Partial<Omit<typeof users.$inferInsert, 'id' | 'firmId' | 'uid'>>;

/**
 * Locks the user's row for the rest of the transaction. Every transaction that changes more than one
 * row about a user's sign-in (the user's row, their secrets, their refresh tokens) takes this lock first,
 * so they take turns in one order and never deadlock: a refresh and a revocation, a reset and an email
 * confirmation, a grant and a password change.
 */
export const lockUser = (tx: Tx<IdentitySchema>, userId: string) =>
  tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);

@Injectable()
export class UsersRepository {
  // Every signed-in request reads its user: prepared once per connection, sent with its scope.
  private readonly liveById;

  constructor(@Inject(DB) private readonly db: IdentityDb) {
    this.liveById = scopedReader(db)
      .select()
      .from(users)
      .where(
        and(
          eq(users.firmId, sql.placeholder('firmId')),
          eq(users.id, sql.placeholder('id')),
          isNull(users.deletedAt),
        ),
      )
      .prepare('users_live_by_id');
  }

  // Sign-in starts from an email or a uid, before any firm is known: these two look across firms.
  async findLiveByEmail(email: string): Promise<UserRow | undefined> {
    // Stored lower-cased (every write normalises it), so compared as stored: users_email_live_idx is on the
    // column itself. lower(email) could use no index under row-level security (lower() is not leakproof,
    // so the planner may not evaluate it before the policy), and every sign-in read all users of all firms.
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(users)
        .where(and(eq(users.email, normaliseEmail(email)), isNull(users.deletedAt))),
    );
    return rows[0];
  }

  async findLiveByUid(uid: string): Promise<UserRow | undefined> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(users)
        .where(and(eq(users.uid, uid), isNull(users.deletedAt))),
    );
    return rows[0];
  }

  /** By id, for a grant or refresh token that already names the user. */
  async findLiveById(id: string): Promise<UserRow | undefined> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read
        .select()
        .from(users)
        .where(and(eq(users.id, id), isNull(users.deletedAt))),
    );
    return rows[0];
  }

  async emailTaken(email: string, exceptUserId?: string): Promise<boolean> {
    const found = await this.findLiveByEmail(email);
    return !!found && found.id !== exceptUserId;
  }

  async get(scope: FirmScope, id: string): Promise<UserRow | undefined> {
    const rows = await readInFirm(this.db, scope, () => this.liveById.execute({ firmId: scope.firmId, id }));
    return rows[0];
  }

  /** Changes a user; in `within`, the caller's transaction, when the change is part of the caller's. */
  async update(
    scope: FirmScope,
    id: string,
    changes: UserChanges,
    within?: Tx<IdentitySchema>,
  ): Promise<UserRow> {
    const write = (tx: Tx<IdentitySchema>) =>
      tx
        .update(users)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(users.firmId, scope.firmId), eq(users.id, id)))
        .returning();
    const rows = within ? await write(within) : await inFirm(this.db, scope, write);
    return rows[0] as UserRow;
  }

  /**
   * Changes a user in the caller's transaction and records the user_updated event with it, naming
   * `changedFields`; answers the row as it is now.
   */
  async updateAnnounced(
    tx: Tx<IdentitySchema>,
    user: { id: string; firmId: string },
    changes: UserChanges,
    changedFields: string[],
  ): Promise<UserRow> {
    const rows = await tx
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, user.id))
      .returning();
    await recordEvent(tx, IdentityEvents.userUpdated, {
      userId: user.id,
      firmId: user.firmId,
      changedFields,
      occurredAt: new Date().toISOString(),
    });
    return rows[0] as UserRow;
  }

  /**
   * Takes one of the user's password attempts before the password is compared, in one statement, so
   * attempts sent at once count each other (a count of failures written after the slow comparison let a
   * burst through, the right password included). The attempt that reaches `limit` locks the account for
   * `lockSeconds`; a right password then clears it. A lock that has run out starts the count again.
   * Answers the attempt's number and whether it locked, or the time a lock in force ends.
   */
  async takePasswordAttempt(
    userId: string,
    limit: number,
    lockSeconds: number,
  ): Promise<{ attempt: number; locked: boolean } | { lockedUntil: Date }> {
    const attempt = sql`case when ${users.lockedUntil} is null then ${users.failedPasswordAttempts} + 1 else 1 end`;
    return acrossFirms(this.db, async (tx) => {
      const [taken] = await tx
        .update(users)
        .set({
          failedPasswordAttempts: attempt,
          lockedUntil: sql`case when ${attempt} >= ${limit} then now() + make_interval(secs => ${lockSeconds}) end`,
        })
        .where(and(eq(users.id, userId), or(isNull(users.lockedUntil), lte(users.lockedUntil, sql`now()`))))
        .returning({ attempt: users.failedPasswordAttempts, lockedUntil: users.lockedUntil });
      if (taken) return { attempt: taken.attempt, locked: taken.lockedUntil !== null };
      const [row] = await tx
        .select({ lockedUntil: users.lockedUntil })
        .from(users)
        .where(eq(users.id, userId));
      return { lockedUntil: row?.lockedUntil ?? new Date() };
    });
  }

  /** Sign-in bookkeeping (failed attempts, lock) on a user found across firms. */
  async updateSignInState(
    user: UserRow,
    changes: Pick<UserChanges, 'failedPasswordAttempts' | 'lockedUntil'>,
  ) {
    await acrossFirms(this.db, (tx) => tx.update(users).set(changes).where(eq(users.id, user.id)));
  }

  /** The active companies a client owns, for the profile and the entity selector. */
  async companyIdsOf(scope: FirmScope, userId: string, includeInactive = false): Promise<string[]> {
    const rows = await readInFirm(this.db, scope, (read) =>
      read
        .select({ id: companies.id })
        .from(companyOwners)
        .innerJoin(companies, eq(companies.id, companyOwners.companyId))
        .where(
          and(
            eq(companyOwners.firmId, scope.firmId),
            eq(companyOwners.userId, userId),
            isNull(companies.deletedAt),
            includeInactive ? undefined : eq(companies.inactive, false),
          ),
        )
        .orderBy(companies.name),
    );
    return rows.map((r) => r.id);
  }
}
