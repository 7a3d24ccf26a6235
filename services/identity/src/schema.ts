import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export { outboxEvents, processedEvents } from '@portico/platform/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const firms = pgTable('firms', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Every tenant table carries firm_id; for firms it is the id itself (kept for the shared RLS policy). */
  firmId: uuid('firm_id').notNull(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  timeZone: text('time_zone').notNull().default('Pacific Time (US & Canada)'),
  logoUrl: text('logo_url').notNull().default(''),
  preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  documentTags: text('document_tags').array().notNull().default(sql`'{}'`),
  entityTags: text('entity_tags').array().notNull().default(sql`'{}'`),
  contactTags: text('contact_tags').array().notNull().default(sql`'{}'`),
  customEntityTypes: text('custom_entity_types').array().notNull().default(sql`'{}'`),
  individualAllowed: boolean('individual_allowed').notNull().default(true),
  questionnaireReminderFrequency: integer('questionnaire_reminder_frequency').notNull().default(7),
  /**
   * One more on every save of the preferences: a settings page sends the version it was loaded at, and a
   * save based on an older one is refused instead of putting a colleague's change back.
   */
  preferencesVersion: integer('preferences_version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const firmGroups = pgTable('firm_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  firmId: uuid('firm_id')
    .notNull()
    .references(() => firms.id),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public user id the sign-in screens pass around. */
    uid: text('uid').notNull().unique(),
    firmId: uuid('firm_id')
      .notNull()
      .references(() => firms.id),
    email: text('email').notNull(),
    pendingEmail: text('pending_email'),
    fname: text('fname').notNull().default(''),
    lname: text('lname').notNull().default(''),
    preferredName: text('preferred_name').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    workEmail: text('work_email').notNull().default(''),
    workPhoneNumber: text('work_phone_number').notNull().default(''),
    workPhoneExtension: text('work_phone_extension').notNull().default(''),
    timeZone: text('time_zone').notNull().default('Pacific Time (US & Canada)'),
    preferredContactMethod: text('preferred_contact_method').notNull().default('email'),
    preferredSignInMethod: text('preferred_sign_in_method').notNull().default(''),
    passwordHash: text('password_hash'),
    isAdvisor: boolean('is_advisor').notNull().default(false),
    firmAccess: text('firm_access'),
    firmGroupId: uuid('firm_group_id').references(() => firmGroups.id),
    assignedAdvisorId: uuid('assigned_advisor_id'),
    enabled2fa: boolean('enabled_2fa').notNull().default(false),
    paying: boolean('paying').notNull().default(true),
    readonlyAccess: boolean('readonly_access').notNull().default(false),
    defaultCompanyId: uuid('default_company_id'),
    setPasswordRequired: boolean('set_password_required').notNull().default(false),
    hasTempEmail: boolean('has_temp_email').notNull().default(false),
    outOfOffice: boolean('out_of_office').notNull().default(false),
    outOfOfficeMessage: text('out_of_office_message').notNull().default(''),
    failedPasswordAttempts: integer('failed_password_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // Emails are stored lower-cased (normaliseEmail; migration 0004 lower-cased older rows) and looked up
    // with a plain equality: under row-level security a lower() condition cannot use an index (lower is
    // not leakproof), so a lookup across firms read every user of every firm.
    uniqueIndex('users_email_live_idx').on(t.email).where(sql`${t.deletedAt} is null`),
    index('users_firm_idx').on(t.firmId),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hashId: text('hash_id').notNull().unique(),
    firmId: uuid('firm_id')
      .notNull()
      .references(() => firms.id),
    name: text('name').notNull(),
    entityType: text('entity_type').notNull(),
    businessEmail: text('business_email').notNull().default(''),
    otherEmail: text('other_email').notNull().default(''),
    street: text('street').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    country: text('country').notNull().default('US'),
    externalEntityId: text('external_entity_id').notNull().default(''),
    taxReturnId: text('tax_return_id').notNull().default(''),
    inactive: boolean('inactive').notNull().default(false),
    readonlyAccess: boolean('readonly_access').notNull().default(false),
    clientManagerId: uuid('client_manager_id'),
    cpaId: uuid('cpa_id'),
    /** The primary contact. */
    userId: uuid('user_id').references(() => users.id),
    entityTags: text('entity_tags').array().notNull().default(sql`'{}'`),
    /** Company settings: custom_document_export_order, folders_where_client_actions_disabled. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('companies_firm_idx').on(t.firmId),
    // The entity list's order (newest first by default), read from the top instead of sorted.
    index('companies_list_idx').on(t.firmId, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
  ],
);

/** Owners (users of a company) with their notification assignments. */
export const companyOwners = pgTable(
  'company_owners',
  {
    firmId: uuid('firm_id')
      .notNull()
      .references(() => firms.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    notificationTypeIds: integer('notification_type_ids').array().notNull().default(sql`'{}'`),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId] }),
    index('company_owners_user_idx').on(t.userId),
    // The owned entities of a firm (a group advisor's list), without reading other firms' owners.
    index('company_owners_firm_company_idx').on(t.firmId, t.companyId),
  ],
);

/**
 * Single-use secrets of the sign-in flows: six-digit codes, sign-in and reset links, auth grants and
 * two-factor challenges. Only a hash is stored.
 */
export const oneTimeSecrets = pgTable(
  'one_time_secrets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id')
      .notNull()
      .references(() => firms.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    secretHash: text('secret_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_time_secrets_hash_idx').on(t.purpose, t.secretHash),
    index('one_time_secrets_user_idx').on(t.userId, t.purpose),
    // The retention job's (sessions/retention.job.ts).
    index('one_time_secrets_expires_idx').on(t.expiresAt),
  ],
);

/** Rotating refresh tokens; a family is one sign-in. Reusing a rotated token revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firmId: uuid('firm_id')
      .notNull()
      .references(() => firms.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    // The tokens a sign-out can still end (neither rotated nor revoked): a user's history is not read.
    index('refresh_tokens_live_idx')
      .on(t.userId, t.expiresAt)
      .where(sql`${t.revokedAt} is null and ${t.rotatedAt} is null`),
    // The retention job's (sessions/retention.job.ts).
    index('refresh_tokens_expires_idx').on(t.expiresAt),
    index('refresh_tokens_revoked_idx').on(t.revokedAt).where(sql`${t.revokedAt} is not null`),
  ],
);

/** Fixed-window counters for rate limits, shared by every replica. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull().default(0),
});

export const schema = {
  firms,
  firmGroups,
  users,
  companies,
  companyOwners,
  oneTimeSecrets,
  refreshTokens,
  rateLimits,
};
export type IdentitySchema = typeof schema;
export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
export type FirmRow = typeof firms.$inferSelect;
