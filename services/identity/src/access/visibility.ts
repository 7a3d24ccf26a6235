import type { Actor } from '@portico/platform';
import type { FirmPreferences } from '../firms/preferences.js';
import type { UserRow } from '../schema.js';

/**
 * Who may see a user record (spec 1 s.6, spec 3 s.6): a client only themselves; an advisor anyone in
 * the firm, except that with firm groups on, a group-access advisor sees only users of their own group
 * or of no group, and with no group of their own sees none but themselves.
 */
export function canSeeUser(
  actor: Actor,
  target: Pick<UserRow, 'id' | 'firmId' | 'firmGroupId'>,
  prefs: Pick<FirmPreferences, 'has_firm_groups'>,
): boolean {
  if (target.firmId !== actor.firm_id) return false;
  if (target.id === actor.user_id) return true;
  if (actor.role === 'client') return false;
  if (actor.firm_access !== 'group' || !prefs.has_firm_groups) return true;
  if (!actor.firm_group_id) return false;
  return !target.firmGroupId || target.firmGroupId === actor.firm_group_id;
}

/**
 * Who may change a user's profile: the user themselves, or an advisor who can see a client; another
 * advisor's profile only by a partner or an admin.
 */
export function canEditUser(
  actor: Actor,
  target: UserRow,
  prefs: Pick<FirmPreferences, 'has_firm_groups'>,
): boolean {
  if (!canSeeUser(actor, target, prefs)) return false;
  if (target.id === actor.user_id) return true;
  if (actor.role !== 'advisor') return false;
  if (target.isAdvisor) return actor.firm_access === 'partner' || actor.firm_access === 'admin';
  return true;
}
