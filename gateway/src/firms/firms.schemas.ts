import { z } from 'zod';
import { requiredText } from '../validation/fields.js';
import { type JsonFault, jsonFault } from '../validation/validation.rules.js';

/** Custom elements are the deepest preference (an object of objects); no firm needs more than this. */
const MAX_PREFERENCE_DEPTH = 8;
const PREFERENCE_FAULTS: Record<JsonFault, string> = {
  too_deep: 'Preferences are nested too deeply',
  // 1e400 parses as Infinity, which the preferences cannot hold (no JSON writes it).
  not_finite: 'Preferences hold a number that is out of range',
};

export const themeBySlugQuery = z.object({ slug: requiredText('Slug is missing', 200) });

/**
 * The whole merged preferences object, as the settings screen holds it, and the preferences_version of
 * GET /firms/current_user_firm it was loaded at (optional): identity refuses a save based on an older version
 * with 409, so a colleague's change made meanwhile is not put back.
 */
export const updatePreferencesBody = z.object({
  preferences: z
    .record(z.string(), z.unknown(), { error: 'Preferences are missing' })
    .superRefine((value, ctx) => {
      const fault = jsonFault(value, MAX_PREFERENCE_DEPTH);
      if (fault) ctx.addIssue({ code: 'custom', message: PREFERENCE_FAULTS[fault] });
    }),
  preferences_version: z
    .number({ error: 'Preferences version must be a number' })
    .int('Preferences version must be a whole number')
    .min(0, 'Preferences version must be a whole number')
    .max(2_147_483_647, 'Preferences version must be a whole number')
    .optional(),
});
