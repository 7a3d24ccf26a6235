import { MantineProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { DialogStackProvider } from '../dialog/DialogStack.js';
import { createPorticoTheme } from './theme.js';

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
 */
export function KitThemeProvider({ primary, children, env = 'default' }: KitThemeProviderProps) {
  const theme = useMemo(() => createPorticoTheme(primary), [primary]);
  return (
    <MantineProvider theme={theme} env={env}>
      <DialogStackProvider>{children}</DialogStackProvider>
    </MantineProvider>
  );
}
