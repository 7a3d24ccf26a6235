import { Inject, Injectable } from '@nestjs/common';
import { type FirmScope, inFirm, readInFirm, type Tx } from '@portico/platform';
import { and, count, desc, eq, ilike, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { type CompanyRow, companies, companyOwners, type IdentitySchema, users } from '../schema.js';
import { DB, type IdentityDb } from '../tokens.js';

export type CompanyChanges = Partial<Omit<typeof companies.$inferInsert, 'id' | 'firmId' | 'hashId'>>;

@Injectable()
export class CompaniesRepository {
  constructor(@Inject(DB) private readonly db: IdentityDb) {}

  async get(scope: FirmScope, id: string): Promise<CompanyRow | undefined> {
    const rows = await readInFirm(this.db, scope, (read) =>
      read
        .select()
        .from(companies)
        .where(and(eq(companies.firmId, scope.firmId), eq(companies.id, id), isNull(companies.deletedAt))),
    );
    return rows[0];
  }

  /** By the public hash in the portal's addresses (/admin/{companyHash}/documents). */
  async getByHash(scope: FirmScope, hashId: string): Promise<CompanyRow | undefined> {
    const rows = await readInFirm(this.db, scope, (read) =>
      read
        .select()
        .from(companies)
        .where(
          and(eq(companies.firmId, scope.firmId), eq(companies.hashId, hashId), isNull(companies.deletedAt)),
        ),
    );
    return rows[0];
  }

  /**
   * The rule of CompaniesService.visible for group advisors, as a condition on the list. Only a live owner
   * opens an entity to a group: a deleted one of no group would open it to every group.
   */
  private inFirmGroup(tx: Tx<IdentitySchema>, scope: FirmScope, groupId: string | null) {
    if (!groupId) return sql`false`;
    const owned = tx
      .select({ id: companyOwners.companyId })
      .from(companyOwners)
      .where(eq(companyOwners.firmId, scope.firmId));
    const ownedInGroup = tx
      .select({ id: companyOwners.companyId })
      .from(companyOwners)
      .innerJoin(users, eq(users.id, companyOwners.userId))
      .where(
        and(
          eq(companyOwners.firmId, scope.firmId),
          isNull(users.deletedAt),
          or(isNull(users.firmGroupId), eq(users.firmGroupId, groupId)),
        ),
      );
    return or(notInArray(companies.id, owned), inArray(companies.id, ownedInGroup));
  }

  /** Every owner of the entity, deleted users among them (`deletedAt`): whether it has owners at all counts. */
  async owners(scope: FirmScope, companyId: string) {
    return readInFirm(this.db, scope, (read) =>
      read
        .select({
          id: users.id,
          uid: users.uid,
          firmId: users.firmId,
          fname: users.fname,
          lname: users.lname,
          firmGroupId: users.firmGroupId,
          deletedAt: users.deletedAt,
        })
        .from(companyOwners)
        .innerJoin(users, eq(users.id, companyOwners.userId))
        .where(and(eq(companyOwners.firmId, scope.firmId), eq(companyOwners.companyId, companyId))),
    );
  }

  async isOwner(scope: FirmScope, companyId: string, userId: string): Promise<boolean> {
    const rows = await readInFirm(this.db, scope, (read) =>
      read
        .select({ userId: companyOwners.userId })
        .from(companyOwners)
        .where(
          and(
            eq(companyOwners.firmId, scope.firmId),
            eq(companyOwners.companyId, companyId),
            eq(companyOwners.userId, userId),
          ),
        ),
    );
    return rows.length > 0;
  }

  /**
   * Another live entity of the same owners with this name (case-insensitive): 'Entity Name already exists.'
   * In `within`, the caller's transaction, to check again once the name is held (lockName).
   */
  async relatedNameTaken(
    scope: FirmScope,
    company: CompanyRow,
    name: string,
    within?: Tx<IdentitySchema>,
  ): Promise<boolean> {
    const query = (read: Pick<Tx<IdentitySchema>, 'select'>) =>
      read
        .select({ id: companies.id })
        .from(companies)
        .innerJoin(companyOwners, eq(companyOwners.companyId, companies.id))
        .where(
          and(
            eq(companies.firmId, scope.firmId),
            ne(companies.id, company.id),
            isNull(companies.deletedAt),
            // Folded by PostgreSQL on both sides, as lockName keys the name: JavaScript's toLowerCase
            // differs from lower() on some letters ('İ', a word-final 'Σ').
            sql`lower(${companies.name}) = lower(${name.trim()})`,
            inArray(
              companyOwners.userId,
              read
                .select({ userId: companyOwners.userId })
                .from(companyOwners)
                .where(eq(companyOwners.companyId, company.id)),
            ),
          ),
        )
        .limit(1);
    const rows = within ? await query(within) : await readInFirm(this.db, scope, query);
    return rows.length > 0;
  }

  /**
   * Holds a name for the firm's entities until the transaction ends: two saves giving entities of one
   * owner the same name at once each passed the check before the other wrote. The second now waits here
   * and checks again against what the first left. Keyed by the lower-cased name, as the check compares.
   */
  async lockName(tx: Tx<IdentitySchema>, scope: FirmScope, name: string): Promise<void> {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`entity_name:${scope.firmId}:`} || lower(${name.trim()}), 0))`,
    );
  }

  /** The live entity, held until the transaction ends: a save checks its rules against it. */
  async lockedInTransaction(
    tx: Tx<IdentitySchema>,
    scope: FirmScope,
    id: string,
  ): Promise<CompanyRow | undefined> {
    const rows = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.firmId, scope.firmId), eq(companies.id, id), isNull(companies.deletedAt)))
      .for('update');
    return rows[0];
  }

  async update(
    tx: Tx<IdentitySchema>,
    scope: FirmScope,
    id: string,
    changes: CompanyChanges,
  ): Promise<CompanyRow> {
    const rows = await tx
      .update(companies)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(companies.firmId, scope.firmId), eq(companies.id, id)))
      .returning();
    return rows[0] as CompanyRow;
  }

  async list(
    scope: FirmScope,
    options: {
      search: string;
      page: number;
      perPage: number;
      ownerId?: string;
      includeInactive: boolean;
      descending: boolean;
      entityType?: string;
      /**
       * A group advisor's view when firm groups are on: entities with no owner, or an owner in this group
       * or in none. Null: a group advisor without a group, who sees none.
       */
      firmGroup?: { id: string | null };
    },
  ) {
    return inFirm(this.db, scope, async (tx) => {
      const where = and(
        options.firmGroup ? this.inFirmGroup(tx, scope, options.firmGroup.id) : undefined,
        eq(companies.firmId, scope.firmId),
        isNull(companies.deletedAt),
        options.includeInactive ? undefined : eq(companies.inactive, false),
        options.entityType ? eq(companies.entityType, options.entityType) : undefined,
        options.search
          ? or(
              ilike(companies.name, `%${escapeLike(options.search)}%`),
              ilike(companies.businessEmail, `%${escapeLike(options.search)}%`),
            )
          : undefined,
        options.ownerId
          ? inArray(
              companies.id,
              tx
                .select({ id: companyOwners.companyId })
                .from(companyOwners)
                .where(eq(companyOwners.userId, options.ownerId)),
            )
          : undefined,
      );
      const [rows, total] = await Promise.all([
        tx
          .select()
          .from(companies)
          .where(where)
          // The id breaks ties (entities created together) the same way in both directions.
          .orderBy(
            ...(options.descending
              ? [desc(companies.createdAt), desc(companies.id)]
              : [companies.createdAt, companies.id]),
          )
          .limit(options.perPage)
          .offset((options.page - 1) * options.perPage),
        tx.select({ n: count() }).from(companies).where(where),
      ]);
      return { rows, total: total[0]?.n ?? 0 };
    });
  }

  transaction<T>(scope: FirmScope, work: (tx: Tx<IdentitySchema>) => Promise<T>) {
    return inFirm(this.db, scope, work);
  }
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
