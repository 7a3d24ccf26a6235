import type { ProgressUpdate } from '@portico/kit';

/** What the gateway sends on the user's socket. */
export type RealtimeMessage =
  | { type: 'forced_sign_out' }
  | { type: 'maintenance_alert'; show: boolean; text: string }
  /** How far work the browser named with `id` has got on the server (a zip being built). */
  | ({ type: 'progress' } & ProgressUpdate);

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A progress message's update, or undefined when it lacks its id or a count (the socket's JSON is unchecked). */
export function progressUpdate(message: { type: 'progress' }): ProgressUpdate | undefined {
  const { id, done, total } = message as Record<string, unknown>;
  if (typeof id !== 'string' || !id || !isCount(done) || !isCount(total)) return undefined;
  return { id, done, total };
}

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

/** The wait before reconnection `attempt` (1, 2, ...): doubling from 2 s to 30 s, spread by half either way. */
export function reconnectDelay(attempt: number, random = Math.random): number {
  // Spread, so the sockets a gateway rollout closes all at once do not all come back at the same moment.
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)) * (0.5 + random());
}

/**
 * Keeps a socket to the gateway open while signed in, reconnecting with backoff. The token travels as
 * a WebSocket subprotocol entry (the gateway also accepts ?access_token=), so it stays out of URLs and
 * access logs. `getToken` is asked before each connection and refreshes an expired token: a socket
 * is never answered 401 the way an API call is, so a tab idle past its token's life reconnected with
 * it until some call refreshed it. The browser going offline drops the socket (after a network change
 * it can stay open but dead, and what the gateway sends meanwhile is lost); coming back online opens
 * one at once instead of at the end of a wait of up to 45 s. Returns a function that closes it for good.
 */
export function connectRealtime(
  apiUrl: string,
  getToken: () => Promise<string | undefined>,
  handlers: RealtimeHandlers,
) {
  let socket: WebSocket | undefined;
  let connecting = false;
  let stopped = false;
  let attempt = 0;
  let openedAt: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retry = () => {
    attempt += 1;
    timer = setTimeout(open, reconnectDelay(attempt));
  };
  const open = async () => {
    if (stopped || socket || connecting) return;
    connecting = true;
    let token: string | undefined;
    try {
      token = await getToken();
    } catch {
      // The token could not be refreshed now (offline, the service away): try again later.
      if (!stopped) retry();
      return;
    } finally {
      connecting = false;
    }
    if (stopped || !token || socket) return;
    const socketToken = token;
    const opened = new WebSocket(realtimeUrl(apiUrl), [REALTIME_PROTOCOL, token]);
    socket = opened;
    opened.onopen = () => {
      openedAt = Date.now();
      handlers.onOpen?.();
    };
    opened.onmessage = (event) => {
      try {
        handlers.onMessage(JSON.parse(String(event.data)) as RealtimeMessage, socketToken);
      } catch {
        // not a message of ours
      }
    };
    opened.onclose = (event) => {
      // A socket dropped meanwhile (offline) is no longer the connection: its late close starts nothing.
      if (socket !== opened) return;
      socket = undefined;
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
  const wentOffline = () => {
    const dropped = socket;
    if (!dropped) return;
    socket = undefined;
    openedAt = undefined;
    // Not waited for: a closing handshake over a dead network ends when the browser gives up on it.
    dropped.close(1000, 'offline');
    // Tried again in a while too, in case the browser never says it is back.
    if (!stopped) retry();
  };
  const cameOnline = () => {
    clearTimeout(timer);
    attempt = 0;
    void open();
  };
  window.addEventListener('offline', wentOffline);
  window.addEventListener('online', cameOnline);
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener('offline', wentOffline);
    window.removeEventListener('online', cameOnline);
    socket?.close(1000, 'closed by the page');
  };
}
