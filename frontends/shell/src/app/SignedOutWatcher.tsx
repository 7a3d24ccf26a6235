import { GlobalNotice, type SessionStore, SIGNED_OUT_NOTICE, SIGNED_OUT_NOTICE_MS } from '@portico/kit';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/**
 * Shows the signed-out notice for 10 s in every tab that was signed out, and opens /signin there.
 * Straight to /signin, not to / and on through the signed-out redirect: a tab is often told twice (the
 * other tab's message, then its own socket closing), and a second trip to / that React took in the same
 * render as the redirect's left that redirect mounted with nothing changed, the tab stuck on a blank /.
 */
export function SignedOutWatcher({ session }: { session: SessionStore }) {
  const navigate = useNavigate();
  const [notice, setNotice] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = session.onSignedOut(({ notice: show }) => {
      navigate('/signin', { replace: true });
      if (!show) return;
      setNotice(true);
      clearTimeout(timer);
      timer = setTimeout(() => setNotice(false), SIGNED_OUT_NOTICE_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [session, navigate]);
  return notice ? <GlobalNotice text={SIGNED_OUT_NOTICE} testId="signed-out-notice" /> : null;
}
