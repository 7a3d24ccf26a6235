import { GlobalNotice } from '@portico/kit';
import { useEffect, useState } from 'react';
import { useShellRuntime } from '../app/services.js';
import { useSession } from '../session/useSession.js';
import { connectRealtime } from './realtime.js';

/** The signed-in socket: forced sign-out everywhere, and the global maintenance alert. */
export function Realtime() {
  const { config, session, client } = useShellRuntime();
  const current = useSession(session);
  const token = current?.access_token;
  const [alert, setAlert] = useState<string | null>(null);

  useEffect(() => {
    // Signed out, nothing of the signed-in socket stays on screen.
    if (!token) return setAlert(null);
    return connectRealtime(config.apiUrl, () => client.freshAccessToken(), {
      // On each connection the gateway sends the alert again if it is still up.
      onOpen: () => setAlert(null),
      onMessage: (message) => {
        if (message.type === 'forced_sign_out') session.signOut('forced');
        else if (message.type === 'maintenance_alert')
          setAlert(message.show && message.text ? message.text : null);
      },
      onSignedOut: () => session.signOut('forced'),
    });
  }, [token, config.apiUrl, session, client]);

  return alert ? <GlobalNotice text={alert} color="orange" testId="maintenance-alert" /> : null;
}
