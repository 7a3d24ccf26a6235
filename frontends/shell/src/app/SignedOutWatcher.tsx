import { GlobalNotice, type SessionStore, SIGNED_OUT_NOTICE, SIGNED_OUT_NOTICE_MS } from '@portico/kit';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/**
 * Shows the signed-out notice for 10 s in every tab that was signed out, and opens /signin there.
 * Straight to /signin, not to / and on through the signed-out redirect: a second trip to / that React
 * took in the same render as that redirect left the redirect mounted with nothing changed, the tab stuck
 * on a blank /. The notice's 10 s are counted apart from the subscription, which is made again whenever
 * the page changes (navigate changes with it) and would otherwise drop the timer with the old one.
 */
export function SignedOutWatcher({ session }: { session: SessionStore }) {
  const navigate = useNavigate();
  // The latest sign-out shown (a count), or null: each one shows the notice for another full 10 s.
  const [shown, setShown] = useState<number | null>(null);
  useEffect(
    () =>
      session.onSignedOut(({ notice }) => {
        navigate('/signin', { replace: true });
        if (notice) setShown((n) => (n ?? 0) + 1);
      }),
    [session, navigate],
  );
  useEffect(() => {
    if (shown === null) return;
    const timer = setTimeout(() => setShown(null), SIGNED_OUT_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [shown]);
  return shown === null ? null : <GlobalNotice text={SIGNED_OUT_NOTICE} testId="signed-out-notice" />;
}
