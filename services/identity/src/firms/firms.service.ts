import { Inject, Injectable } from '@nestjs/common';
import { type Actor, AppError, badRequest, firmScope, recordEvent } from '@portico/platform';
import { IdentityEvents } from '@portico/proto';
import { entityTypeOptions } from '../companies/company.rules.js';
import { Messages } from '../messages.js';
import type { FirmRow } from '../schema.js';
import { firmTheme } from './firm-theme.js';
import { FirmsRepository } from './firms.repository.js';
import { PreferencesCache } from './preferences.cache.js';
import { changedPreferenceKeys, mergePreferences, validatePreferences } from './preferences.js';

@Injectable()
export class FirmsService {
  constructor(
    @Inject(FirmsRepository) private readonly firms: FirmsRepository,
    private readonly cache: PreferencesCache,
  ) {}

  async current(actor: Actor) {
    const scope = firmScope(actor.firm_id);
    const [firm, groups] = await Promise.all([this.firms.get(scope), this.firms.groups(scope)]);
    if (!firm) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
    return this.present(firm, groups);
  }

  /** The sign-in screen's branding; public, so only name, logo and colour. */
  async themeBySlug(slug: string) {
    const firm = slug ? await this.firms.findBySlug(slug.trim().toLowerCase()) : undefined;
    if (!firm) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
    return firmTheme(firm, mergePreferences(firm.preferences));
  }

  /** Saves the whole merged preferences object (spec 1 s.7.5); partners only. */
  async updatePreferences(actor: Actor, input: Record<string, unknown>) {
    if (actor.role !== 'advisor' || actor.firm_access !== 'partner') {
      throw new AppError('forbidden', 'partner_only', Messages.partnerOnly);
    }
    const fields = validatePreferences(input);
    const problems = Object.entries(fields);
    if (problems.length) throw badRequest(`${problems[0]?.[0]}: ${problems[0]?.[1]}`, fields);
    const scope = firmScope(actor.firm_id);
    const firm = await this.firms.transaction(scope, async (tx) => {
      const current = await this.firms.get(scope);
      if (!current) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
      const before = mergePreferences(current.preferences);
      const after = mergePreferences({ ...current.preferences, ...input });
      const saved = await this.firms.savePreferences(tx, current.id, after);
      await recordEvent(tx, IdentityEvents.preferencesUpdated, {
        firmId: current.id,
        changedKeys: changedPreferenceKeys(before, after),
        occurredAt: new Date().toISOString(),
      });
      return saved;
    });
    this.cache.invalidate(actor.firm_id);
    return this.present(firm, await this.firms.groups(scope));
  }

  private present(firm: FirmRow, groups: { id: string; name: string }[]) {
    return {
      id: firm.id,
      name: firm.name,
      slug: firm.slug,
      timeZone: firm.timeZone,
      documentTags: firm.documentTags,
      entityTypes: entityTypeOptions(firm).map((o) => o.label),
      entityTags: firm.entityTags,
      contactTags: firm.contactTags,
      firmGroups: groups,
      questionnaireReminderFrequency: firm.questionnaireReminderFrequency,
      preferences: mergePreferences(firm.preferences) as unknown as Record<string, never>,
      individualAllowed: firm.individualAllowed,
      logoUrl: firm.logoUrl,
    };
  }
}
