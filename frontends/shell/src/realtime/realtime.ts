/** What the gateway sends on the user's socket. */
export type RealtimeMessage =
  | { type: 'forced_sign_out' }
  | { type: 'maintenance_alert'; show: boolean; text: string };

export const REALTIME_PROTOCOL = 'portico.realtime';
/** The gateway closes with this code when the user's sessions were revoked. */
export const SIGNED_OUT_CLOSE_CODE = 4401;
/** How long a socket must stay open for its next reconnection to wait the shortest delay again. */
export const STABLE_SOCKET_MS = 10_000;

/** Each handler is told the token its socket was opened with. */
export interface RealtimeHandlers {
  onMessage: (message: RealtimeMessage, token: string) => void;
  onSignedOut: (token: string) => void;
  /** The socket is open: what it said before may be out of date (it replays what is still so). */
  onOpen?: () => void;
}

/** ws(s)://host/realtime for an API base URL ('' = this origin). */
export function realtimeUrl(apiUrl: string, origin = window.location.origin): string {
  const url = new URL(`${apiUrl.replace(/\/$/, '')}/realtime`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Keeps a socket to the gateway open while signed in, reconnecting with backoff. The token travels as
 * a WebSocket subprotocol entry (the gateway also accepts ?access_token=), so it stays out of URLs and
 * access logs. `getToken` is asked before each connection and refreshes an expired token: a socket
 * is never answered 401 the way an API call is, so a tab idle past its token's life reconnected with
 * it until some call refreshed it. Returns a function that closes it for good.
 */
export function connectRealtime(
  apiUrl: string,
  getToken: () => Promise<string | undefined>,
  handlers: RealtimeHandlers,
) {
  let socket: WebSocket | undefined;
  let stopped = false;
  let attempt = 0;
  let openedAt: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retry = () => {
    attempt += 1;
    timer = setTimeout(open, Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)));
  };
  const open = async () => {
    let token: string | undefined;
    try {
      token = await getToken();
    } catch {
      // The token could not be refreshed now (offline, the service away): try again later.
      if (!stopped) retry();
      return;
    }
    if (stopped || !token) return;
    const socketToken = token;
    socket = new WebSocket(realtimeUrl(apiUrl), [REALTIME_PROTOCOL, token]);
    socket.onopen = () => {
      openedAt = Date.now();
      handlers.onOpen?.();
    };
    socket.onmessage = (event) => {
      try {
        handlers.onMessage(JSON.parse(String(event.data)) as RealtimeMessage, socketToken);
      } catch {
        // not a message of ours
      }
    };
    socket.onclose = (event) => {
      if (stopped) return;
      if (event.code === SIGNED_OUT_CLOSE_CODE) {
        handlers.onSignedOut(socketToken);
        return;
      }
      // Only a socket that stayed up a while starts the waits again from the shortest: one the server
      // closes as soon as it opened would otherwise be reopened every two seconds for ever.
      if (openedAt !== undefined && Date.now() - openedAt >= STABLE_SOCKET_MS) attempt = 0;
      openedAt = undefined;
      retry();
    };
  };
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close(1000, 'closed by the page');
  };
}
