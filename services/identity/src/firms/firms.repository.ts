import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, readAcrossFirms, readInFirm, type Tx } from '@portico/platform';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type FirmRow, firmGroups, firms, type IdentitySchema, users } from '../schema.js';
import { DB, type IdentityDb } from '../tokens.js';

@Injectable()
export class FirmsRepository {
  constructor(@Inject(DB) private readonly db: IdentityDb) {}

  async get(scope: FirmScope): Promise<FirmRow | undefined> {
    const rows = await readInFirm(this.db, scope, (read) =>
      read.select().from(firms).where(eq(firms.id, scope.firmId)),
    );
    return rows[0];
  }

  /** The firm's row, locked until the caller's transaction ends: for a read-modify-write of it. */
  async lockedInTransaction(tx: Tx<IdentitySchema>, scope: FirmScope): Promise<FirmRow | undefined> {
    const rows = await tx.select().from(firms).where(eq(firms.id, scope.firmId)).for('update');
    return rows[0];
  }

  /**
   * The firm as the emails and texts sent on its behalf name and link it: its name (clients know their
   * firm, not the product behind its portal) and the slug its sign-in links carry for its branding.
   */
  async forMessages(scope: FirmScope): Promise<{ name: string; slug: string }> {
    const firm = await this.get(scope);
    return { name: firm?.name.replace(/\s+/g, ' ').trim() || 'your firm', slug: firm?.slug ?? '' };
  }

  /**
   * Live advisors of the firm, all or only the given ids, with their firm access. Within `tx` when one
   * is given: a transaction holding a row must not wait for a second connection from the pool (a few
   * such saves at once would hold every connection and wait for one of them).
   */
  async advisors(scope: FirmScope, ids: string[], tx?: Tx<IdentitySchema>) {
    const query = (read: Pick<Tx<IdentitySchema>, 'select'>) =>
      read
        .select({
          id: users.id,
          email: users.email,
          fname: users.fname,
          lname: users.lname,
          firmAccess: users.firmAccess,
        })
        .from(users)
        .where(
          and(
            eq(users.firmId, scope.firmId),
            eq(users.isAdvisor, true),
            isNull(users.deletedAt),
            ids.length ? inArray(users.id, ids) : undefined,
          ),
        )
        .orderBy(users.lname, users.fname);
    return tx ? query(tx) : readInFirm(this.db, scope, query);
  }

  async groups(scope: FirmScope) {
    return readInFirm(this.db, scope, (read) =>
      read
        .select({ id: firmGroups.id, name: firmGroups.name })
        .from(firmGroups)
        .where(eq(firmGroups.firmId, scope.firmId))
        .orderBy(firmGroups.name),
    );
  }

  // The sign-in screen brands itself before anyone is signed in: the slug is public.
  async findBySlug(slug: string): Promise<FirmRow | undefined> {
    const rows = await readAcrossFirms(this.db, (read) =>
      read.select().from(firms).where(eq(firms.slug, slug)),
    );
    return rows[0];
  }

  async savePreferences(tx: Tx<IdentitySchema>, firmId: string, preferences: Record<string, unknown>) {
    const rows = await tx
      .update(firms)
      .set({
        preferences,
        preferencesVersion: sql`${firms.preferencesVersion} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(firms.id, firmId))
      .returning();
    return rows[0] as FirmRow;
  }

  transaction<T>(scope: FirmScope, work: (tx: Tx<IdentitySchema>) => Promise<T>) {
    return inFirm(this.db, scope, work);
  }
}
