/** What the browser receives on its socket. */
export type RealtimeMessage =
  | { type: 'forced_sign_out' }
  | { type: 'maintenance_alert'; show: boolean; text: string };

/** The part of a WebSocket the hub uses. */
export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Close code telling the browser its sessions were revoked (4000-4999 are for applications). */
export const SIGNED_OUT_CLOSE_CODE = 4401;
export const GOING_AWAY_CLOSE_CODE = 1001;

/**
 * The open sockets of this replica by user. Events reach every replica, so each one delivers to the
 * sockets it holds. The latest maintenance alert is kept for sockets that open later.
 */
export class RealtimeHub {
  private readonly byUser = new Map<string, Set<RealtimeSocket>>();
  private latestAlert?: RealtimeMessage & { type: 'maintenance_alert' };

  add(userId: string, socket: RealtimeSocket): void {
    let sockets = this.byUser.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(userId, sockets);
    }
    sockets.add(socket);
    socket.once('close', () => this.remove(userId, socket));
    if (this.latestAlert?.show) this.deliver(socket, this.latestAlert);
  }

  /** Tells every socket of the user that it was signed out, then closes them. */
  signOut(userId: string): void {
    const sockets = this.byUser.get(userId);
    if (!sockets) return;
    for (const socket of sockets) {
      this.deliver(socket, { type: 'forced_sign_out' });
      socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
    }
    this.byUser.delete(userId);
  }

  maintenanceAlert(show: boolean, text: string): void {
    this.latestAlert = { type: 'maintenance_alert', show, text };
    this.broadcast(this.latestAlert);
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
