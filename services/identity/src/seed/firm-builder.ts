import { randomUUID } from 'node:crypto';
import { acrossFirms } from '@portico/platform';
import { eq } from 'drizzle-orm';
import { hashPassword } from '../crypto/passwords.js';
import { publicId } from '../crypto/secrets.js';
import { companies, companyOwners, firmGroups, firms, users } from '../schema.js';
import type { IdentityDb } from '../tokens.js';

export interface AdvisorSpec {
  key: string;
  fname: string;
  lname: string;
  email: string;
  firmAccess: 'partner' | 'admin' | 'full' | 'group';
  group?: string;
  password?: string;
  enabled2fa?: boolean;
  phoneNumber?: string;
}

export interface CompanySpec {
  key: string;
  name: string;
  entityType: string;
  inactive?: boolean;
  readonlyAccess?: boolean;
  businessEmail?: string;
  city?: string;
  state?: string;
  /** The company setting folders_where_client_actions_disabled. */
  clientBlockedFolders?: string[];
}

export interface ClientSpec {
  key: string;
  fname: string;
  lname: string;
  email: string;
  phoneNumber?: string;
  password?: string;
  preferredSignInMethod?: 'password' | 'email' | 'sms' | '';
  readonlyAccess?: boolean;
  paying?: boolean;
  enabled2fa?: boolean;
  setPasswordRequired?: boolean;
  group?: string;
  assignedAdvisor?: string;
  companies: CompanySpec[];
}

export interface FirmSpec {
  name: string;
  slug: string;
  preferences?: Record<string, unknown>;
  groups?: string[];
  customEntityTypes?: string[];
  advisors: AdvisorSpec[];
  clients: ClientSpec[];
}

export interface BuiltFirm {
  firmId: string;
  groups: Record<string, string>;
  users: Record<string, { id: string; uid: string; email: string }>;
  companies: Record<string, { id: string; hashId: string }>;
}

/** Creates a whole firm (groups, advisors, clients, their entities) in one transaction. */
export async function buildFirm(db: IdentityDb, spec: FirmSpec): Promise<BuiltFirm> {
  const hashes = new Map<string, string>();
  const hashOf = async (password?: string) => {
    if (!password) return null;
    if (!hashes.has(password)) hashes.set(password, await hashPassword(password));
    return hashes.get(password) as string;
  };
  const passwordHashes = new Map<string, string | null>();
  for (const person of [...spec.advisors, ...spec.clients])
    passwordHashes.set(person.key, await hashOf(person.password));

  // Creating a firm happens before any firm scope exists.
  return acrossFirms(db, async (tx) => {
    const firmId = randomUUID();
    await tx.insert(firms).values({
      id: firmId,
      firmId,
      name: spec.name,
      slug: spec.slug,
      preferences: spec.preferences ?? {},
      customEntityTypes: spec.customEntityTypes ?? [],
    });
    const built: BuiltFirm = { firmId, groups: {}, users: {}, companies: {} };
    for (const name of spec.groups ?? []) {
      const [group] = await tx.insert(firmGroups).values({ firmId, name }).returning();
      built.groups[name] = (group as { id: string }).id;
    }
    for (const a of spec.advisors) {
      const [row] = await tx
        .insert(users)
        .values({
          uid: publicId(),
          firmId,
          email: a.email.toLowerCase(),
          fname: a.fname,
          lname: a.lname,
          isAdvisor: true,
          firmAccess: a.firmAccess,
          firmGroupId: a.group ? built.groups[a.group] : null,
          passwordHash: passwordHashes.get(a.key) ?? null,
          preferredSignInMethod: a.password ? 'password' : '',
          enabled2fa: !!a.enabled2fa,
          phoneNumber: a.phoneNumber ?? '',
        })
        .returning();
      const r = row as { id: string; uid: string; email: string };
      built.users[a.key] = { id: r.id, uid: r.uid, email: r.email };
    }
    for (const c of spec.clients) {
      const [row] = await tx
        .insert(users)
        .values({
          uid: publicId(),
          firmId,
          email: c.email.toLowerCase(),
          fname: c.fname,
          lname: c.lname,
          phoneNumber: c.phoneNumber ?? '',
          passwordHash: passwordHashes.get(c.key) ?? null,
          preferredSignInMethod: c.preferredSignInMethod ?? (c.password ? 'password' : ''),
          readonlyAccess: !!c.readonlyAccess,
          paying: c.paying ?? true,
          enabled2fa: !!c.enabled2fa,
          setPasswordRequired: !!c.setPasswordRequired,
          firmGroupId: c.group ? built.groups[c.group] : null,
          assignedAdvisorId: c.assignedAdvisor ? built.users[c.assignedAdvisor]?.id : null,
        })
        .returning();
      const user = row as { id: string; uid: string; email: string };
      built.users[c.key] = { id: user.id, uid: user.uid, email: user.email };
      for (const company of c.companies) {
        const [created] = await tx
          .insert(companies)
          .values({
            hashId: publicId(6),
            firmId,
            name: company.name,
            entityType: company.entityType,
            inactive: !!company.inactive,
            readonlyAccess: !!company.readonlyAccess,
            businessEmail: company.businessEmail ?? '',
            city: company.city ?? '',
            state: company.state ?? '',
            userId: user.id,
            settings: company.clientBlockedFolders
              ? { folders_where_client_actions_disabled: company.clientBlockedFolders }
              : {},
          })
          .returning();
        const co = created as { id: string; hashId: string };
        built.companies[company.key] = { id: co.id, hashId: co.hashId };
        await tx
          .insert(companyOwners)
          .values({ firmId, companyId: co.id, userId: user.id, notificationTypeIds: [1, 2, 3, 4, 5, 7] });
      }
      const first = c.companies.find((co) => !co.inactive);
      if (first)
        await tx
          .update(users)
          .set({ defaultCompanyId: built.companies[first.key]?.id })
          .where(eq(users.id, user.id));
    }
    return built;
  });
}
