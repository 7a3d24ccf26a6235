import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Actor, AppError, type Logger } from '@portico/platform';
import { type WebSocket, WebSocketServer } from 'ws';
import { SESSION_REVOKED, unauthenticated } from '../auth/auth.errors.js';
import { issuedAtMs } from '../auth/claims.rules.js';
import type { RevocationList } from '../auth/revocations.js';
import { toErrorResponse } from '../errors/error-response.js';
import { type RealtimeHub, SIGNED_OUT_CLOSE_CODE, TOKEN_EXPIRED_CLOSE_CODE } from './realtime.hub.js';

const tooManySockets = () =>
  new AppError(
    'too_many_requests',
    'too_many_sockets',
    'Too many connections. Close some of your tabs and try again.',
  );

export const REALTIME_PATH = '/realtime';
/** The subprotocol a browser offers beside its token; the server selects it. */
export const REALTIME_PROTOCOL = 'portico.realtime';
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The token of an upgrade request: the entry of Sec-WebSocket-Protocol shaped like a JWT (offered as
 * [REALTIME_PROTOCOL, token]). Not from the query: a URL's query reaches access logs (Kong's among them),
 * and the shell never sent it there.
 */
export function tokenOfUpgrade(request: IncomingMessage): string | undefined {
  const offered = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  return offered.find((p) => JWT_SHAPE.test(p));
}

/** When a verified token expires and when it was issued (epoch ms), from its claims. */
function timesOf(token: string): { expiresAt: number; issuedAt?: number } {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    exp?: number;
    iat?: number;
    iat_ms?: number;
  };
  return { expiresAt: (payload.exp ?? 0) * 1_000, issuedAt: issuedAtMs(payload) };
}

function refuse(socket: Duplex, err: unknown): void {
  const { status, body } = toErrorResponse(err);
  const payload = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
      'Connection: close\r\n\r\n' +
      payload,
  );
}

/**
 * The authenticated WebSocket at /realtime: the token is verified like an HTTP request's, the socket
 * joins the hub under its user, and a ping keeps dead connections from piling up.
 */
export class RealtimeServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 4_096,
    handleProtocols: (protocols) => (protocols.has(REALTIME_PROTOCOL) ? REALTIME_PROTOCOL : false),
  });
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private pinger?: NodeJS.Timeout;

  constructor(
    private readonly hub: RealtimeHub,
    private readonly verify: (token: string) => Promise<Actor>,
    private readonly revocations: Pick<RevocationList, 'isRevoked'>,
    private readonly log: Logger,
    private readonly pingIntervalMs: number,
  ) {}

  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Nothing an upgrade request carries may end the process: a failure here is this socket's only.
      this.upgrade(request, socket, head).catch((err: unknown) => {
        this.log.error({ err }, 'realtime upgrade failed');
        socket.destroy();
      });
    });
    this.pinger = setInterval(() => this.ping(), this.pingIntervalMs);
    this.pinger.unref();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    // The path as sent, not parsed as a URL: a target such as '//' is no URL at all.
    if ((request.url ?? '/').split('?')[0] !== REALTIME_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const token = tokenOfUpgrade(request);
    let actor: Actor;
    try {
      if (!token) throw unauthenticated();
      actor = await this.verify(token);
    } catch (err) {
      // A signed-out session's token is told so the way an open socket is (closed with 4401), not with
      // a 401 the browser cannot read on a WebSocket: a tab whose socket was down when its session was
      // revoked would otherwise retry with it until the token expired, still showing the user's data.
      if (err instanceof AppError && err.code === SESSION_REVOKED) {
        this.wss.handleUpgrade(request, socket, head, (ws) => {
          this.onSocketError(ws);
          ws.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
        });
        return;
      }
      refuse(socket, err);
      return;
    }
    // Refused before the handshake: a socket opened and then closed at once makes the browser reconnect
    // at its shortest delay, and would clear the maintenance alert it then never gets again.
    if (this.hub.full(actor.user_id)) {
      refuse(socket, tooManySockets());
      return;
    }
    const { expiresAt, issuedAt } = timesOf(token);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      this.onSocketError(ws);
      // A revocation handled after the token's own check (its event can be processed while the
      // verification's promises settle) signed out the hub's sockets before this one joined: nothing
      // else would close it until its token expired.
      if (this.revocations.isRevoked(actor.user_id, issuedAt, actor.session_id)) {
        ws.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
        return;
      }
      if (!this.hub.add(actor.user_id, ws, actor.session_id, issuedAt)) return;
      this.alive.set(ws, true);
      ws.on('pong', () => this.alive.set(ws, true));
      // The browser only listens; anything it sends is ignored.
      ws.on('message', () => undefined);
      // A socket lives no longer than its token: the browser comes back with a fresh one, so a revoked
      // or expired session does not keep hearing its user's events.
      const expiry = setTimeout(
        () => ws.close(TOKEN_EXPIRED_CLOSE_CODE, 'token expired'),
        Math.max(0, expiresAt - Date.now()),
      );
      expiry.unref();
      ws.once('close', () => clearTimeout(expiry));
    });
  }

  /**
   * A socket's own errors (a frame a browser may not send, a reset) stay that socket's: first thing on
   * every socket, also one closed as it opens, since an 'error' event with no listener ends the process.
   */
  private onSocketError(ws: WebSocket): void {
    ws.on('error', (err) => this.log.debug({ err }, 'realtime socket error'));
  }

  private ping(): void {
    for (const ws of this.wss.clients) {
      if (!this.alive.get(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
    }
  }

  close(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.hub.closeAll();
    this.wss.close();
  }
}
