import {
  convertCssVariables,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from '@mantine/core';
import { createPorticoTheme, porticoCssVariables } from './theme.js';

/**
 * The stylesheet of CSS variables Mantine's provider renders for the portal's theme in a firm's colour:
 * the theme's variables, Portico's on top, minus those equal to Mantine's defaults (which its own
 * stylesheet declares), as its MantineCssVariables component makes it. The sign-in page renders it
 * without the provider; build/default-theme-css.mjs writes it down for the default colour.
 */
export function themeCss(primary: string | undefined): string {
  const theme = mergeMantineTheme(DEFAULT_THEME, createPorticoTheme(primary));
  const base = defaultCssVariablesResolver(theme);
  const extra = porticoCssVariables(theme);
  const mantine = defaultCssVariablesResolver(DEFAULT_THEME);
  const parts = ['variables', 'light', 'dark'] as const;
  const changed = Object.fromEntries(
    parts.map((part) => {
      const own: Record<string, string> = { ...base[part], ...extra[part] };
      const defaults: Record<string, string> = mantine[part];
      return [
        part,
        Object.fromEntries(Object.entries(own).filter(([key, value]) => defaults[key] !== value)),
      ];
    }),
  ) as Record<(typeof parts)[number], Record<string, string>>;
  return convertCssVariables(changed);
}
