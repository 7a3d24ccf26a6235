import { z } from 'zod';
import { requiredText } from '../validation/fields.js';
import { nestsAtMost } from '../validation/validation.rules.js';

/** Custom elements are the deepest preference (an object of objects); no firm needs more than this. */
const MAX_PREFERENCE_DEPTH = 8;

export const themeBySlugQuery = z.object({ slug: requiredText('Slug is missing', 200) });

/** The whole merged preferences object, as the settings screen holds it. */
export const updatePreferencesBody = z.object({
  preferences: z
    .record(z.string(), z.unknown(), { error: 'Preferences are missing' })
    .refine((value) => nestsAtMost(value, MAX_PREFERENCE_DEPTH), 'Preferences are nested too deeply'),
});
