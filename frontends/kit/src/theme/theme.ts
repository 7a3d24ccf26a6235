import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';

export const DEFAULT_PRIMARY = '#1f5fa8';

function parseHex(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return null;
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
const mix = (a: number[], b: number[], t: number) => a.map((c, i) => c + ((b[i] ?? 0) - c) * t);

/** Ten shades around the firm's colour, which sits at index 6 (Mantine's primary shade). */
export function shadesOf(primary: string): MantineColorsTuple {
  const base = parseHex(primary) ?? (parseHex(DEFAULT_PRIMARY) as [number, number, number]);
  const white = [255, 255, 255];
  const black = [0, 0, 0];
  const shades = [0.92, 0.8, 0.64, 0.46, 0.28, 0.12].map((t) => toHex(mix(base, white, t)));
  shades.push(toHex(base));
  for (const t of [0.15, 0.3, 0.45]) shades.push(toHex(mix(base, black, t)));
  return shades as unknown as MantineColorsTuple;
}

/** The Mantine theme for a firm: its `preferences.theme.primary` as the primary colour. */
export function createPorticoTheme(primary: string | undefined): MantineThemeOverride {
  return createTheme({
    colors: { firm: shadesOf(primary ?? DEFAULT_PRIMARY) },
    primaryColor: 'firm',
    primaryShade: 6,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    defaultRadius: 'md',
    components: {
      // A spinner is named ('Loading ...') where it stands for content; a name needs a role, and
      // status is the one that announces it.
      Loader: { defaultProps: { role: 'status' } },
      // Without the placeholder an open menu focuses its first item (the ARIA menu pattern), and holds
      // nothing but items (the placeholder is a focusable element that ARIA does not allow in a menu).
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    },
  });
}

/**
 * Portico's CSS variables on top of Mantine's. Mantine's dimmed text (descriptions, hints, counts) is
 * gray 6, 3.3:1 on white: under WCAG AA's 4.5:1 for text of that size. Gray 7 is 8:1.
 */
export const porticoCssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
