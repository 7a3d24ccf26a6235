import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  badRequest,
  type FirmScope,
  firmScope,
  isUuid,
  recordEvent,
  type Tx,
} from '@portico/platform';
import { IdentityEvents } from '@portico/proto';
import { entityTypeOptions } from '../companies/company.rules.js';
import { Messages } from '../messages.js';
import type { FirmRow, IdentitySchema } from '../schema.js';
import { documentPreferences } from './document-preferences.js';
import { firmTheme } from './firm-theme.js';
import { FirmsRepository } from './firms.repository.js';
import { PreferencesCache } from './preferences.cache.js';
import {
  changedPreferenceKeys,
  type FirmPreferences,
  mergePreferences,
  type PreferenceKey,
  storedPreferences,
  validatePreferences,
} from './preferences.js';

const DROP_LINK_RECIPIENTS = 'firm_user_ids_to_receive_drop_link_notification';
/**
 * The preferences a client's screens read: the theme and banner, the navigation items they hide
 * (Inbox, Documents), the file manager's client actions and forced two-factor. The rest (the drop link's
 * recipients, custom elements, the advisors' feature flags) is the firm's own business.
 */
const CLIENT_PREFERENCE_KEYS = [
  'theme',
  'in_app_banner_enabled',
  'in_app_banner_text',
  'communication_disabled',
  'hide_documents_view_from_clients',
  'disable_folder_action',
  'disable_file_edit_action',
  'force_2fa_on_users',
] as const satisfies readonly PreferenceKey[];
/** Drop Link is for partners, admins and full users (spec 1 s.6). */
const DROP_LINK_MANAGERS = ['partner', 'admin', 'full'];
// The stored list has no repeats: ['a', 'a'] is not ['a', 'b'].
const sameIds = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id));

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
    return actor.role === 'advisor' ? this.present(firm, groups) : this.presentToClient(firm);
  }

  /** The sign-in screen's branding; public, so only name, logo and colour. */
  async themeBySlug(slug: string) {
    const firm = slug ? await this.firms.findBySlug(slug.trim().toLowerCase()) : undefined;
    if (!firm) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
    return firmTheme(firm, mergePreferences(firm.preferences));
  }

  /**
   * Saves the whole merged preferences object (spec 1 s.7.5); partners only. `basedOnVersion`: the
   * preferences version the settings page was loaded at; a save based on another is refused (409), since
   * laying its whole object over the row would put back what a colleague changed meanwhile (the drop
   * link's recipients, forced two-factor). Without it the save is applied as before.
   */
  async updatePreferences(actor: Actor, input: Record<string, unknown>, basedOnVersion?: number) {
    if (actor.role !== 'advisor' || actor.firm_access !== 'partner') {
      throw new AppError('forbidden', 'partner_only', Messages.partnerOnly);
    }
    const fields = validatePreferences(input);
    const problems = Object.entries(fields);
    if (problems.length) throw badRequest(`${problems[0]?.[0]}: ${problems[0]?.[1]}`, fields);
    const scope = firmScope(actor.firm_id);
    const firm = await this.savePreferences(scope, basedOnVersion, async (current, tx) => {
      const recipients = input[DROP_LINK_RECIPIENTS];
      // A settings page saves the whole object: the drop link's rule applies when the list changes.
      if (Array.isArray(recipients) && !sameIds(recipients, current[DROP_LINK_RECIPIENTS]))
        return { ...input, [DROP_LINK_RECIPIENTS]: await this.dropLinkRecipients(scope, recipients, tx) };
      return input;
    });
    return this.present(firm, await this.firms.groups(scope));
  }

  /**
   * Who is emailed of drop-offs (spec 1 s.5.4): partners, admins and full users choose; at least one,
   * and only the firm's own partners, admins and full users, who can open Drop Link to download what
   * was dropped off (spec 1 s.2.2). The document preferences as they are after the change.
   */
  async setDropLinkRecipients(actor: Actor, userIds: string[]) {
    if (actor.role !== 'advisor' || !DROP_LINK_MANAGERS.includes(actor.firm_access ?? '')) {
      throw new AppError('forbidden', 'drop_link_forbidden', Messages.dropLinkManagersOnly);
    }
    const scope = firmScope(actor.firm_id);
    const ids = await this.dropLinkRecipients(scope, userIds);
    const firm = await this.savePreferences(scope, undefined, async () => ({ [DROP_LINK_RECIPIENTS]: ids }));
    return documentPreferences(mergePreferences(firm.preferences));
  }

  /**
   * The list as saved (trimmed, without repeats), or a 400; a settings save may send any JSON values.
   * Only users who may open Drop Link (DROP_LINK_MANAGERS): a group user, told of files they cannot
   * open, is refused as any other user not on the list is.
   */
  private async dropLinkRecipients(scope: FirmScope, userIds: readonly unknown[], tx?: Tx<IdentitySchema>) {
    if (!userIds.every((id): id is string => typeof id === 'string'))
      throw badRequest(Messages.chooseFirmUsers, { [DROP_LINK_RECIPIENTS]: Messages.chooseFirmUsers });
    const ids = [...new Set(userIds.map((id) => id.trim()).filter(Boolean))];
    if (!ids.length)
      throw badRequest(Messages.selectDropLinkUser, { [DROP_LINK_RECIPIENTS]: Messages.selectDropLinkUser });
    const advisors = ids.every(isUuid) ? await this.firms.advisors(scope, ids, tx) : [];
    const managers = advisors.filter((a) => DROP_LINK_MANAGERS.includes(a.firmAccess ?? ''));
    if (managers.length !== ids.length)
      throw badRequest(Messages.chooseFirmUsers, { [DROP_LINK_RECIPIENTS]: Messages.chooseFirmUsers });
    return ids;
  }

  /**
   * Merges `change(current preferences)` into the firm's preferences, with the event, in one transaction
   * that holds the firm's row: two saves at once (a partner's preferences, an admin's drop link
   * recipients) each merge into what the other wrote, instead of the later one writing back the
   * preferences as they were before the earlier. A save `basedOnVersion` is checked against the version
   * of the row it holds, so a save that went first cannot slip in between the check and the write.
   */
  private async savePreferences(
    scope: FirmScope,
    basedOnVersion: number | undefined,
    change: (current: FirmPreferences, tx: Tx<IdentitySchema>) => Promise<Record<string, unknown>>,
  ) {
    const firm = await this.firms.transaction(scope, async (tx) => {
      const current = await this.firms.lockedInTransaction(tx, scope);
      if (!current) throw new AppError('not_found', 'firm_not_found', Messages.firmNotFound);
      if (basedOnVersion !== undefined && basedOnVersion !== current.preferencesVersion)
        throw new AppError('conflict', 'preferences_changed', Messages.preferencesChangedElsewhere);
      const before = mergePreferences(current.preferences);
      const after = mergePreferences({ ...current.preferences, ...(await change(before, tx)) });
      const saved = await this.firms.savePreferences(tx, current.id, storedPreferences(after));
      await recordEvent(tx, IdentityEvents.preferencesUpdated, {
        firmId: current.id,
        changedKeys: changedPreferenceKeys(before, after),
        occurredAt: new Date().toISOString(),
      });
      return saved;
    });
    this.cache.invalidate(scope.firmId);
    return firm;
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
      preferencesVersion: firm.preferencesVersion,
    };
  }

  /**
   * The firm as its clients' portal shows it: name, branding, time zone and the preferences their
   * screens read. Tags, groups, entity types and the other preferences are the firm's own records.
   */
  private presentToClient(firm: FirmRow) {
    const prefs = mergePreferences(firm.preferences);
    return {
      id: firm.id,
      name: firm.name,
      slug: firm.slug,
      timeZone: firm.timeZone,
      logoUrl: firm.logoUrl,
      preferences: Object.fromEntries(
        CLIENT_PREFERENCE_KEYS.map((key) => [key, prefs[key]]),
      ) as unknown as Record<string, never>,
    };
  }
}
