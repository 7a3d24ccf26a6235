import { Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  badRequest,
  firmScope,
  forbidden,
  isUuid,
  recordEvent,
} from '@portico/platform';
import { IdentityEvents, type ListCompaniesRequest, type UpdateCompanyRequest } from '@portico/proto';
import { canSeeUser } from '../access/visibility.js';
import { FirmsRepository } from '../firms/firms.repository.js';
import { PreferencesCache } from '../firms/preferences.cache.js';
import { Messages } from '../messages.js';
import type { CompanyRow, FirmRow } from '../schema.js';
import { isValidEmail } from '../users/profile.rules.js';
import { UsersRepository } from '../users/users.repository.js';
import { CompaniesRepository, type CompanyChanges } from './companies.repository.js';
import { toClientCompanyMessage, toCompanyMessage } from './company.mapper.js';
import { isKnownCountry, validateEntityName, validateEntityType } from './company.rules.js';

const notFound = () => new AppError('not_found', 'company_not_found', Messages.notFound);

/** The fields of the client's entity profile editor (spec 1 s.2.8); everything else is the firm's. */
const CLIENT_PROFILE_FIELDS = [
  'businessEmail',
  'otherEmail',
  'street',
  'city',
  'state',
  'zip',
  'country',
] as const;
const ADVISOR_ONLY_FIELDS = [
  'name',
  'entityType',
  'externalEntityId',
  'taxReturnId',
  'inactive',
  'readonlyAccess',
] as const;
export const PAGE_SIZES = [10, 20, 50];

@Injectable()
export class CompaniesService {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly firms: FirmsRepository,
    private readonly preferences: PreferencesCache,
    private readonly users: UsersRepository,
  ) {}

  async get(actor: Actor, id: string) {
    const company = await this.visible(actor, id);
    return this.present(actor, company);
  }

  /** The firm's entity edit (PATCH /companies/{id}): advisors only. */
  async update(actor: Actor, request: UpdateCompanyRequest) {
    if (actor.role !== 'advisor') throw forbidden();
    const company = await this.visible(actor, request.id);
    const firm = await this.firmOf(actor);
    const fields: Record<string, string> = {};
    const changes: CompanyChanges = {};
    if (request.name !== undefined) {
      // One Unicode form for the check and the write: a name typed with a combining accent is the same name.
      const name = request.name.trim().normalize('NFC');
      const problem = validateEntityName(name);
      if (problem) fields.name = problem;
      // The form sends the name with every save: only a new one is checked against the owners' other
      // entities, or an entity already sharing a name could never be saved again.
      else if (name !== company.name) {
        if (await this.companies.relatedNameTaken(firmScope(actor.firm_id), company, name))
          fields.name = Messages.entityNameExists;
        else changes.name = name;
      }
    }
    if (request.entityType !== undefined && request.entityType !== company.entityType) {
      const problem = validateEntityType(request.entityType, firm);
      if (problem) fields.entity_type = problem;
      else changes.entityType = request.entityType;
    }
    if (request.externalEntityId !== undefined) changes.externalEntityId = request.externalEntityId.trim();
    if (request.taxReturnId !== undefined) changes.taxReturnId = request.taxReturnId.trim();
    if (request.inactive !== undefined) changes.inactive = request.inactive;
    if (request.readonlyAccess !== undefined && request.readonlyAccess !== company.readonlyAccess) {
      const inactive = changes.inactive ?? company.inactive;
      if (inactive) fields.readonly_access = Messages.readOnlyWhileInactive;
      else changes.readonlyAccess = request.readonlyAccess;
    }
    this.addressChanges(request, changes, fields);
    return this.save(actor, company, changes, fields);
  }

  /** The client's entity profile save (PUT /companies/{id}). */
  async updateProfile(actor: Actor, request: UpdateCompanyRequest) {
    if (actor.role === 'advisor')
      throw new AppError('forbidden', 'advisor_entity_profile', Messages.advisorCannotEditEntityProfile);
    const company = await this.visible(actor, request.id);
    // As stored now, not as the access token said when it was issued (up to its lifetime ago).
    const me = await this.users.get(firmScope(actor.firm_id), actor.user_id);
    if (actor.readonly_access || !me || me.readonlyAccess)
      throw new AppError('forbidden', 'account_read_only', Messages.accountReadOnly);
    if (company.readonlyAccess) throw new AppError('forbidden', 'entity_read_only', Messages.entityReadOnly);
    if (ADVISOR_ONLY_FIELDS.some((key) => request[key] !== undefined))
      throw forbidden(Messages.firmOnlyEntityFields);
    const fields: Record<string, string> = {};
    const changes: CompanyChanges = {};
    this.addressChanges(request, changes, fields);
    return this.save(actor, company, changes, fields);
  }

  async list(actor: Actor, request: ListCompaniesRequest) {
    const perPage = PAGE_SIZES.includes(request.rowsPerPage) ? request.rowsPerPage : 10;
    const page = Math.max(1, request.page || 1);
    const isClient = actor.role === 'client';
    // A group advisor lists what they may open (see visible).
    const groupsOn =
      actor.firm_access === 'group' && (await this.preferences.get(actor.firm_id)).has_firm_groups;
    const { rows, total } = await this.companies.list(firmScope(actor.firm_id), {
      search: request.searchTerm.trim(),
      page,
      perPage,
      ownerId: isClient ? actor.user_id : undefined,
      // Clients see only active entities; advisors see all (spec 1 s.4.2).
      includeInactive: !isClient && request.includeInactive,
      descending: request.descending ?? true,
      entityType: request.entityType.trim(),
      firmGroup: groupsOn ? { id: actor.firm_group_id || null } : undefined,
    });
    return {
      companies: rows.map((c) => (isClient ? toClientCompanyMessage(c) : toCompanyMessage(c))),
      currentPage: page,
      totalCount: total,
      totalPages: Math.ceil(total / perPage),
    };
  }

  private addressChanges(
    request: UpdateCompanyRequest,
    changes: CompanyChanges,
    fields: Record<string, string>,
  ) {
    for (const key of CLIENT_PROFILE_FIELDS) {
      const value = request[key];
      if (value === undefined) continue;
      const trimmed = value.trim();
      if ((key === 'businessEmail' || key === 'otherEmail') && trimmed && !isValidEmail(trimmed)) {
        fields[key === 'businessEmail' ? 'business_email' : 'other_email'] = Messages.invalidEmail;
      } else if (key === 'country' && !isKnownCountry(trimmed)) {
        fields.country = Messages.invalidCountry;
      } else {
        changes[key] = key === 'businessEmail' || key === 'otherEmail' ? trimmed.toLowerCase() : trimmed;
      }
    }
  }

  private async save(
    actor: Actor,
    company: CompanyRow,
    changes: CompanyChanges,
    fields: Record<string, string>,
  ) {
    const problems = Object.values(fields);
    if (problems.length) throw badRequest(problems[0] as string, fields);
    if (!Object.keys(changes).length) return this.present(actor, company);
    const scope = firmScope(actor.firm_id);
    const updated = await this.companies.transaction(scope, async (tx) => {
      // The rules were checked against the entity as read before; two saves at once (one making it
      // inactive, one toggling read-only) would each pass against the old row. The second waits here
      // and is checked again against what the first left.
      const current = await this.companies.lockedInTransaction(tx, scope, company.id);
      if (!current) throw notFound();
      if (changes.readonlyAccess !== undefined && (changes.inactive ?? current.inactive))
        throw badRequest(Messages.readOnlyWhileInactive, { readonly_access: Messages.readOnlyWhileInactive });
      // A client's save: the entity as a partner's save may have left it. Made inactive, it is answered as
      // an inactive entity is before the lock (visible); made read-only, as a read-only one.
      if (actor.role === 'client' && current.inactive) throw notFound();
      if (actor.role === 'client' && current.readonlyAccess)
        throw new AppError('forbidden', 'entity_read_only', Messages.entityReadOnly);
      // The name was checked before this transaction; another save may have given it to another entity
      // of the same owners since. Held until commit, then checked again.
      if (changes.name !== undefined) {
        await this.companies.lockName(tx, scope, changes.name);
        if (await this.companies.relatedNameTaken(scope, current, changes.name, tx))
          throw badRequest(Messages.entityNameExists, { name: Messages.entityNameExists });
      }
      const row = await this.companies.update(tx, scope, company.id, changes);
      await recordEvent(tx, IdentityEvents.companyUpdated, {
        companyId: company.id,
        firmId: company.firmId,
        changedFields: Object.keys(changes),
        occurredAt: new Date().toISOString(),
      });
      return row;
    });
    return this.present(actor, updated);
  }

  /**
   * The company by id or by the hash in the portal's addresses. Another firm's entity, a deleted one, or
   * for a client one they do not own or that is inactive: 404.
   */
  async visible(actor: Actor, id: string): Promise<CompanyRow> {
    const scope = firmScope(actor.firm_id);
    const company = isUuid(id)
      ? await this.companies.get(scope, id)
      : await this.companies.getByHash(scope, id);
    if (!company) throw notFound();
    if (actor.role === 'client') {
      if (company.inactive || !(await this.companies.isOwner(scope, company.id, actor.user_id)))
        throw notFound();
      return company;
    }
    if (actor.firm_access === 'group') {
      const prefs = await this.preferences.get(actor.firm_id);
      if (prefs.has_firm_groups) {
        const owners = await this.companies.owners(scope, company.id);
        // Only a live owner opens it: a deleted one of no group would open it to every group.
        const inGroup = owners.some(
          (o) =>
            !o.deletedAt &&
            (!o.firmGroupId || (actor.firm_group_id && o.firmGroupId === actor.firm_group_id)),
        );
        if (!actor.firm_group_id || (owners.length > 0 && !inGroup)) throw notFound();
      }
    }
    return company;
  }

  private async firmOf(actor: Actor): Promise<FirmRow> {
    const firm = await this.firms.get(firmScope(actor.firm_id));
    if (!firm) throw notFound();
    return firm;
  }

  /**
   * The entity as the actor may see it. An advisor is shown the owners identity.user.get.v1 would answer
   * them (a group advisor: their group's and those of no group); a client, their co-owners, whom they share
   * the entity with, and none of the firm's own fields (toClientCompanyMessage). Deleted owners, whom no
   * one can open, are left out.
   */
  private async present(actor: Actor, company: CompanyRow) {
    const [owners, prefs] = await Promise.all([
      this.companies.owners(firmScope(actor.firm_id), company.id),
      this.preferences.get(actor.firm_id),
    ]);
    const live = owners.filter((o) => !o.deletedAt);
    if (actor.role === 'client') return toClientCompanyMessage(company, live);
    return toCompanyMessage(
      company,
      live.filter((o) => canSeeUser(actor, o, prefs)),
    );
  }
}
