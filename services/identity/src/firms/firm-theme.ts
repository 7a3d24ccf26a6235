import type { FirmRow } from '../schema.js';
import { FIRM_PREFERENCE_DEFAULTS, type FirmPreferences } from './preferences.js';

/** A firm's public branding (sign-in and drop-off pages): only its name, slug, logo and colour. */
export function firmTheme(firm: FirmRow, prefs: FirmPreferences) {
  return {
    name: firm.name,
    slug: firm.slug,
    logoUrl: firm.logoUrl,
    primary: prefs.theme.primary ?? FIRM_PREFERENCE_DEFAULTS.theme.primary,
  };
}
