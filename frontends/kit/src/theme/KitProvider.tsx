import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type ReactNode, useMemo } from 'react';
import { DialogStackProvider } from '../dialog/DialogStack.js';
import { createPorticoTheme } from './theme.js';

export interface KitProviderProps {
  /** The firm's preferences.theme.primary. */
  primary?: string;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

/** Theme, toasts and the dialog stack. The shell renders it once; remotes render inside it. */
export function KitProvider({ primary, children, env = 'default' }: KitProviderProps) {
  const theme = useMemo(() => createPorticoTheme(primary), [primary]);
  return (
    <MantineProvider theme={theme} env={env}>
      <Notifications position="top-right" limit={5} transitionDuration={env === 'test' ? 0 : 200} />
      <DialogStackProvider>{children}</DialogStackProvider>
    </MantineProvider>
  );
}
