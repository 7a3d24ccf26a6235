import { type MantineColorSchemeManager, MantineProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { DialogStackProvider } from '../dialog/DialogStack.js';
import { DEFAULT_THEME_CSS } from './default-theme-css.js';
import { createPorticoTheme, DEFAULT_PRIMARY, porticoCssVariables } from './theme.js';

export interface KitThemeProviderProps {
  /** The firm's preferences.theme.primary. */
  primary?: string;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

/**
 * The firm's theme and the dialog stack, without the toasts: what the sign-in page needs. The shell
 * renders it once and adds `KitNotifications` with the signed-in parts; `KitProvider` is both.
 *
 * Mantine's provider computes the theme's CSS variables on every render. For the default theme (no firm
 * colour yet, as on the sign-in page's first render) they are known in advance (`DEFAULT_THEME_CSS`,
 * made by build/default-theme-css.mjs) and rendered as they are, in the same place.
 */
/**
 * Portico has one colour scheme. Mantine's default manager reads it from localStorage on the first
 * render and listens for `storage` events and the system's dark-mode query; the first `storage`
 * listener alone cost 2 to 7 ms of the sign-in page's first frame in chromium traces.
 */
const LIGHT_ONLY: MantineColorSchemeManager = {
  get: () => 'light',
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};

export function KitThemeProvider({ primary, children, env = 'default' }: KitThemeProviderProps) {
  const theme = useMemo(() => createPorticoTheme(primary), [primary]);
  const isDefault = !primary || primary.toLowerCase() === DEFAULT_PRIMARY;
  return (
    <MantineProvider
      theme={theme}
      env={env}
      colorSchemeManager={LIGHT_ONLY}
      forceColorScheme="light"
      withCssVariables={!isDefault}
      cssVariablesResolver={porticoCssVariables}
    >
      {isDefault && <style data-mantine-styles="">{DEFAULT_THEME_CSS}</style>}
      <DialogStackProvider>{children}</DialogStackProvider>
    </MantineProvider>
  );
}
