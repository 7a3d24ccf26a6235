import { Injectable } from '@nestjs/common';
import { type Actor, AppError, firmScope, isUuid } from '@portico/platform';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { CompaniesService } from '../companies/companies.service.js';
import { clientBlockedFolders } from '../companies/company.mapper.js';
import { documentPreferences } from '../firms/document-preferences.js';
import { firmTheme } from '../firms/firm-theme.js';
import { FirmsRepository } from '../firms/firms.repository.js';
import { PreferencesCache } from '../firms/preferences.cache.js';
import { Messages } from '../messages.js';
import { UsersRepository } from '../users/users.repository.js';

/**
 * What other services (documents first) need to enforce an actor's rights on a company's records,
 * without reading identity's tables: the company's flags and settings, its owners, the firm's
 * relevant preferences and the caller's current read-only flag.
 */
@Injectable()
export class AccessService {
  constructor(
    private readonly companies: CompaniesService,
    private readonly companyRows: CompaniesRepository,
    private readonly users: UsersRepository,
    private readonly firms: FirmsRepository,
    private readonly preferences: PreferencesCache,
  ) {}

  /** 404 exactly when the actor may not see the company (another firm, not an owner, inactive for a client). */
  async companyAccess(actor: Actor, companyId: string) {
    // Other services name companies by id only (the hash is for the portal's addresses).
    if (!isUuid(companyId)) throw new AppError('not_found', 'company_not_found', Messages.notFound);
    const company = await this.companies.visible(actor, companyId);
    const scope = firmScope(actor.firm_id);
    const [owners, user, prefs] = await Promise.all([
      this.companyRows.owners(scope, company.id),
      this.users.get(scope, actor.user_id),
      this.preferences.get(actor.firm_id),
    ]);
    return {
      companyId: company.id,
      firmId: company.firmId,
      name: company.name,
      hashId: company.hashId,
      inactive: company.inactive,
      readonlyAccess: company.readonlyAccess,
      ownerIds: owners.map((o) => o.id),
      foldersWhereClientActionsDisabled: clientBlockedFolders(company),
      actorReadonly: user?.readonlyAccess ?? true,
      preferences: documentPreferences(prefs),
    };
  }

  /** A firm (by id or slug) with its advisors' addresses; for service-to-service notifications only. */
  async firmContacts(request: { firmId: string; slug: string; userIds: string[] }) {
    const firm = isUuid(request.firmId)
      ? await this.firms.get(firmScope(request.firmId))
      : request.slug
        ? await this.firms.findBySlug(request.slug)
        : undefined;
    if (!firm) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
    const ids = request.userIds.filter(isUuid);
    const advisors =
      request.userIds.length && !ids.length ? [] : await this.firms.advisors(firmScope(firm.id), ids);
    const prefs = await this.preferences.get(firm.id);
    return {
      firmId: firm.id,
      name: firm.name,
      users: advisors.map((a) => ({
        id: a.id,
        email: a.email,
        fullName: `${a.fname} ${a.lname}`.trim(),
        isAdvisor: true,
        // Who may open Drop Link (partner, admin, full), and so be told of drop-offs.
        firmAccess: a.firmAccess ?? '',
      })),
      preferences: documentPreferences(prefs),
      theme: firmTheme(firm, prefs),
    };
  }
}
