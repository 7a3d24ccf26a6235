/** What the browser receives on its socket. */
export type RealtimeMessage =
  | { type: 'forced_sign_out' }
  | { type: 'maintenance_alert'; show: boolean; text: string }
  /** How far long work the user asked for has come (`id` is the name the user's request gave it). */
  | { type: 'progress'; id: string; done: number; total: number };

/** The part of a WebSocket the hub uses. */
export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Close code telling the browser its sessions were revoked (4000-4999 are for applications). */
export const SIGNED_OUT_CLOSE_CODE = 4401;
/** Close code telling the browser its token expired: it connects again with a fresh one. */
export const TOKEN_EXPIRED_CLOSE_CODE = 4001;
export const GOING_AWAY_CLOSE_CODE = 1001;
/** Close code refusing a socket over the per-user limit (the browser tries again later). */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;
/** Sockets one user may hold on one replica: one per tab, and more tabs than anyone keeps open. */
export const MAX_SOCKETS_PER_USER = 20;

/**
 * The open sockets of this replica by user. Events reach every replica, so each one delivers to the
 * sockets it holds. The latest maintenance alert is kept for sockets that open later.
 */
export class RealtimeHub {
  private readonly byUser = new Map<string, Set<RealtimeSocket>>();
  private readonly sessionOf = new WeakMap<RealtimeSocket, string>();
  /** When each socket's token was issued, in ms: a late sign-out everywhere spares later sign-ins. */
  private readonly issuedAtOf = new WeakMap<RealtimeSocket, number>();
  private latestAlert?: RealtimeMessage & { type: 'maintenance_alert' };

  /** Whether the user holds as many sockets as one may: a new one is refused before its handshake. */
  full(userId: string): boolean {
    return (this.byUser.get(userId)?.size ?? 0) >= MAX_SOCKETS_PER_USER;
  }

  /** Adds the socket of a user's session; false (and the socket closed) past MAX_SOCKETS_PER_USER. */
  add(userId: string, socket: RealtimeSocket, sessionId?: string, issuedAtMs?: number): boolean {
    let sockets = this.byUser.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(userId, sockets);
    }
    if (sockets.size >= MAX_SOCKETS_PER_USER) {
      socket.close(TRY_AGAIN_LATER_CLOSE_CODE, 'too many connections');
      return false;
    }
    sockets.add(socket);
    if (sessionId) this.sessionOf.set(socket, sessionId);
    if (issuedAtMs !== undefined) this.issuedAtOf.set(socket, issuedAtMs);
    socket.once('close', () => this.remove(userId, socket));
    if (this.latestAlert?.show) this.deliver(socket, this.latestAlert);
    return true;
  }

  /**
   * Tells the user's sockets that they were signed out, then closes them: every one, or with `beforeMs`
   * those whose token was issued before it, as the revocation list refuses tokens. The event can arrive
   * late (the outbox's relay, a replica's replay), after the user signed in again.
   */
  signOut(userId: string, beforeMs?: number): void {
    for (const socket of this.byUser.get(userId) ?? []) {
      const issuedAt = this.issuedAtOf.get(socket);
      if (beforeMs !== undefined && issuedAt !== undefined && issuedAt >= beforeMs) continue;
      this.deliver(socket, { type: 'forced_sign_out' });
      socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
      this.remove(userId, socket);
    }
  }

  /** Signs out the sockets of one revoked session (signed out, or its refresh token reused). */
  signOutSession(userId: string, sessionId: string): void {
    for (const socket of this.byUser.get(userId) ?? []) {
      if (this.sessionOf.get(socket) !== sessionId) continue;
      this.deliver(socket, { type: 'forced_sign_out' });
      socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
      this.remove(userId, socket);
    }
  }

  maintenanceAlert(show: boolean, text: string): void {
    this.latestAlert = { type: 'maintenance_alert', show, text };
    this.broadcast(this.latestAlert);
  }

  /** To the sockets one user holds on this replica (every tab of theirs: the id says which one waits). */
  sendTo(userId: string, message: RealtimeMessage): void {
    for (const socket of this.byUser.get(userId) ?? []) this.deliver(socket, message);
  }

  broadcast(message: RealtimeMessage): void {
    for (const sockets of this.byUser.values()) for (const socket of sockets) this.deliver(socket, message);
  }

  closeAll(code = GOING_AWAY_CLOSE_CODE, reason = 'server shutting down'): void {
    for (const sockets of this.byUser.values()) for (const socket of sockets) socket.close(code, reason);
    this.byUser.clear();
  }

  get size(): number {
    let total = 0;
    for (const sockets of this.byUser.values()) total += sockets.size;
    return total;
  }

  private remove(userId: string, socket: RealtimeSocket): void {
    const sockets = this.byUser.get(userId);
    if (!sockets) return;
    sockets.delete(socket);
    if (sockets.size === 0) this.byUser.delete(userId);
  }

  private deliver(socket: RealtimeSocket, message: RealtimeMessage): void {
    try {
      socket.send(JSON.stringify(message));
    } catch {
      // A socket that cannot take a message is closing; its close handler removes it.
    }
  }
}
