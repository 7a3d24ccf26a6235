import { GlobalNotice, reportProgress } from '@portico/kit';
import { useEffect, useState } from 'react';
import { useShellRuntime } from '../app/services.js';
import { useSession } from '../session/useSession.js';
import { connectRealtime, progressUpdate } from './realtime.js';

/**
 * The signed-in socket: forced sign-out everywhere, the global maintenance alert, and the progress of
 * work an area follows (`onProgress`).
 */
export function Realtime() {
  const { config, session, client } = useShellRuntime();
  const current = useSession(session);
  const token = current?.access_token;
  const [alert, setAlert] = useState<string | null>(null);

  useEffect(() => {
    // Signed out, nothing of the signed-in socket stays on screen.
    if (!token) return setAlert(null);
    // A socket tells of its own session's end: once another session replaced it (another user signed in
    // in another tab, which also revokes the one replaced), that end is not the new session's.
    const sessionEnded = (socketToken: string) => {
      if (!session.isOtherSession(socketToken)) session.signOut('forced');
    };
    return connectRealtime(config.apiUrl, () => client.freshAccessToken(), {
      // On each connection the gateway sends the alert again if it is still up.
      onOpen: () => setAlert(null),
      onMessage: (message, socketToken) => {
        if (message.type === 'forced_sign_out') sessionEnded(socketToken);
        else if (message.type === 'maintenance_alert')
          setAlert(message.show && message.text ? message.text : null);
        else if (message.type === 'progress') {
          const update = progressUpdate(message);
          if (update) reportProgress(update);
        }
      },
      onSignedOut: sessionEnded,
    });
  }, [token, config.apiUrl, session, client]);

  return alert ? <GlobalNotice text={alert} color="orange" testId="maintenance-alert" /> : null;
}
