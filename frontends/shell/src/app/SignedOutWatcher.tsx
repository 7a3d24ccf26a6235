import { GlobalNotice, type SessionStore, SIGNED_OUT_NOTICE, SIGNED_OUT_NOTICE_MS } from '@portico/kit';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AreaStatus } from '../remotes/registry.js';
import { isPublicPath } from './public-routes.js';

/**
 * Shows the signed-out notice for 10 s in every tab that was signed out, and opens /signin there, but
 * for a public page (a drop-off form, where a visitor may be uploading), which stays where it is; whether
 * the page is public is known once the areas' descriptors are.
 * Straight to /signin, not to / and on through the signed-out redirect: a second trip to / that React
 * took in the same render as that redirect left the redirect mounted with nothing changed, the tab stuck
 * on a blank /. The notice's 10 s are counted apart from the subscription, which is made again whenever
 * the page changes (navigate changes with it) and would otherwise drop the timer with the old one, and
 * from when the tab is seen: a tab in the background shows it when the user comes back to it.
 */
export function SignedOutWatcher({
  session,
  areas,
}: {
  session: SessionStore;
  areas: Promise<AreaStatus[]>;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The latest sign-out shown (a count), or null: each one shows the notice for another full 10 s.
  const [shown, setShown] = useState<number | null>(null);
  useEffect(
    () =>
      session.onSignedOut(({ notice }) => {
        if (notice) setShown((n) => (n ?? 0) + 1);
        void areas
          .then(
            (loaded) => isPublicPath(loaded, pathname),
            () => false,
          )
          .then((stays) => {
            if (!stays) navigate('/signin', { replace: true });
          });
      }),
    [session, navigate, pathname, areas],
  );
  useEffect(() => {
    if (shown === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = () => {
      if (timer !== undefined || document.visibilityState === 'hidden') return;
      timer = setTimeout(() => setShown(null), SIGNED_OUT_NOTICE_MS);
    };
    seen();
    document.addEventListener('visibilitychange', seen);
    return () => {
      document.removeEventListener('visibilitychange', seen);
      clearTimeout(timer);
    };
  }, [shown]);
  return shown === null ? null : <GlobalNotice text={SIGNED_OUT_NOTICE} testId="signed-out-notice" />;
}
