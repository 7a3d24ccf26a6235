import { z } from 'zod';
import { requiredText } from '../validation/fields.js';

export const themeBySlugQuery = z.object({ slug: requiredText('Slug is missing', 200) });

/** The whole merged preferences object, as the settings screen holds it. */
export const updatePreferencesBody = z.object({
  preferences: z.record(z.string(), z.json(), { error: 'Preferences are missing' }),
});
