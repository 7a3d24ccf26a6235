import { OptionalPortal } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { ToastAnnouncer } from '../toast/ToastAnnouncer.js';
import { KitThemeProvider, type KitThemeProviderProps } from './KitThemeProvider.js';

export type KitProviderProps = KitThemeProviderProps;

/**
 * Where toasts show (bottom right, at most 5); inside a `KitThemeProvider`. At the top right they covered
 * the header's Sign out and the in-app banner's close button while they showed, which a notice that stays
 * while a zip is built made last. The status region that says them follows them in the same landmark, so
 * the first element of the page holding a toast's text is the visible toast.
 */
export function KitNotifications({ env = 'default' }: { env?: 'default' | 'test' }) {
  return (
    <>
      {/* One landmark holds the toasts and what says them: a toast's content is inside a region of the
          page without being a live region of its own (ToastAnnouncer says it). */}
      <OptionalPortal>
        <section aria-label="Notifications">
          <Notifications
            position="bottom-right"
            limit={5}
            transitionDuration={env === 'test' ? 0 : 200}
            withinPortal={false}
          />
          <ToastAnnouncer />
        </section>
      </OptionalPortal>
    </>
  );
}

/** Theme, toasts and the dialog stack. The shell renders it once; remotes render inside it. */
export function KitProvider({ primary, children, env = 'default' }: KitProviderProps) {
  return (
    <KitThemeProvider primary={primary} env={env}>
      <KitNotifications env={env} />
      {children}
    </KitThemeProvider>
  );
}
