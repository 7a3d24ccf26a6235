import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { originAllowed } from '../http/cors.js';
import {
  MAX_SOCKETS_PER_USER,
  RealtimeHub,
  type RealtimeSocket,
  SIGNED_OUT_CLOSE_CODE,
  TRY_AGAIN_LATER_CLOSE_CODE,
} from '../realtime/realtime.hub.js';
import { tokenOfUpgrade } from '../realtime/realtime.server.js';

class Socket implements RealtimeSocket {
  sent: unknown[] = [];
  closedWith?: number;
  private onClose?: () => void;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.onClose?.();
  }
  once(_event: 'close', listener: () => void) {
    this.onClose = listener;
  }
}

describe('realtime hub', () => {
  it("signs out every socket of one user and leaves the others' open", () => {
    const hub = new RealtimeHub();
    const [a1, a2, b] = [new Socket(), new Socket(), new Socket()];
    hub.add('a', a1);
    hub.add('a', a2);
    hub.add('b', b);
    hub.signOut('a');
    for (const s of [a1, a2]) {
      expect(s.sent).toEqual([{ type: 'forced_sign_out' }]);
      expect(s.closedWith).toBe(SIGNED_OUT_CLOSE_CODE);
    }
    expect(b.sent).toEqual([]);
    expect(hub.size).toBe(1);
  });

  it('spares, on a sign-out everywhere that arrives late, the sockets of tokens issued after it', () => {
    const hub = new RealtimeHub();
    const [before, after] = [new Socket(), new Socket()];
    hub.add('a', before, 's1', 1_000);
    hub.add('a', after, 's2', 2_000);
    hub.signOut('a', 1_500);
    expect(before.closedWith).toBe(SIGNED_OUT_CLOSE_CODE);
    expect(after.sent).toEqual([]);
    expect(after.closedWith).toBeUndefined();
    expect(hub.size).toBe(1);
  });

  it('broadcasts the maintenance alert and gives a shown one to sockets opened later', () => {
    const hub = new RealtimeHub();
    const early = new Socket();
    hub.add('a', early);
    hub.maintenanceAlert(true, 'Down at 10pm');
    const late = new Socket();
    hub.add('b', late);
    const alert = { type: 'maintenance_alert', show: true, text: 'Down at 10pm' };
    expect(early.sent).toEqual([alert]);
    expect(late.sent).toEqual([alert]);
    hub.maintenanceAlert(false, '');
    const later = new Socket();
    hub.add('c', later);
    expect(later.sent).toEqual([]);
  });

  it("signs out the sockets of one revoked session, not the user's others", () => {
    const hub = new RealtimeHub();
    const [stolen, kept] = [new Socket(), new Socket()];
    hub.add('a', stolen, 'session-1');
    hub.add('a', kept, 'session-2');
    hub.signOutSession('a', 'session-1');
    expect(stolen.closedWith).toBe(SIGNED_OUT_CLOSE_CODE);
    expect(stolen.sent).toEqual([{ type: 'forced_sign_out' }]);
    expect(kept.closedWith).toBeUndefined();
    expect(hub.size).toBe(1);
  });

  it("refuses a socket past the limit of one user, and not another user's", () => {
    const hub = new RealtimeHub();
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) expect(hub.add('a', new Socket())).toBe(true);
    const extra = new Socket();
    expect(hub.add('a', extra)).toBe(false);
    expect(extra.closedWith).toBe(TRY_AGAIN_LATER_CLOSE_CODE);
    expect(hub.add('b', new Socket())).toBe(true);
    expect(hub.size).toBe(MAX_SOCKETS_PER_USER + 1);
  });

  it('forgets a socket once it closes', () => {
    const hub = new RealtimeHub();
    const s = new Socket();
    hub.add('a', s);
    s.close(1000);
    expect(hub.size).toBe(0);
  });
});

describe('realtime token', () => {
  const request = (url: string, protocol?: string) =>
    ({ url, headers: protocol ? { 'sec-websocket-protocol': protocol } : {} }) as unknown as IncomingMessage;

  it('reads the token from the offered subprotocols, never from the query', () => {
    expect(tokenOfUpgrade(request('/realtime?access_token=a.b.c'))).toBeUndefined();
    expect(tokenOfUpgrade(request('/realtime', 'portico.realtime, eyJh.eyJz.sig-_'))).toBe('eyJh.eyJz.sig-_');
    expect(tokenOfUpgrade(request('/realtime', 'portico.realtime'))).toBeUndefined();
  });
});

describe('CORS origins', () => {
  it('allows the configured origins, else localhost outside production only', () => {
    const listed = { corsOrigins: ['https://portal.example.com'], nodeEnv: 'production' as const };
    expect(originAllowed('https://portal.example.com', listed)).toBe(true);
    expect(originAllowed('http://localhost:3000', listed)).toBe(false);
    expect(originAllowed('http://localhost:5173', { corsOrigins: [], nodeEnv: 'development' })).toBe(true);
    expect(originAllowed('http://localhost.evil.com', { corsOrigins: [], nodeEnv: 'development' })).toBe(
      false,
    );
    expect(originAllowed('http://localhost:5173', { corsOrigins: [], nodeEnv: 'production' })).toBe(false);
  });
});
