import { createServer } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type JetStreamClient, jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type Actor, createLogger, ensureEventStream, sendSignal } from '@portico/platform';
import { DocumentsSignals, Identity, IdentityEvents, NotificationsEvents } from '@portico/proto';
import WebSocket from 'ws';
import { sessionRevoked } from '../auth/auth.errors.js';
import { RevocationList } from '../auth/revocations.js';
import { RealtimeHub } from '../realtime/realtime.hub.js';
import { RealtimeServer } from '../realtime/realtime.server.js';
import { type RunningGateway, startGateway } from '../testing/start-gateway.js';
import { advisorClaims, clientClaims, createTestKey, type TestKey } from './support/keys.js';
import { ok, respond } from './support/responders.js';

interface OpenSocket {
  ws: WebSocket;
  messages: unknown[];
  closed: Promise<{ code: number }>;
  next(): Promise<unknown>;
}

/** Opens a socket and collects what it receives; `next()` waits for the next message. */
/** How the shell offers its token: as a subprotocol entry beside the realtime one. */
const withToken = (token: string) => ['portico.realtime', token];

function openSocket(url: string, protocols?: string[]): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const messages: unknown[] = [];
    const waiters: Array<(m: unknown) => void> = [];
    let read = 0;
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      waiters.shift()?.(messages[read++]);
    });
    const closed = new Promise<{ code: number }>((r) => ws.on('close', (code) => r({ code })));
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        next: () =>
          read < messages.length ? Promise.resolve(messages[read++]) : new Promise((r) => waiters.push(r)),
      }),
    );
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode })),
    );
    ws.once('error', reject);
  });
}

describe('gateway: realtime socket fed by JetStream events', () => {
  let nc: NatsConnection;
  let js: JetStreamClient;
  let gateway: RunningGateway;
  let key: TestKey;
  let stopJwks: () => void;
  let stopUser: () => void;
  let wsUrl: string;

  beforeAll(async () => {
    const natsUrl = process.env.TEST_NATS_SERVER_URL as string;
    nc = await connect({ servers: natsUrl });
    await ensureEventStream(nc);
    js = jetstream(nc);
    key = await createTestKey('rt-key');
    stopJwks = respond(nc, Identity.jwks, () => ok({ keys: [key.publicJwk] })).stop;
    stopUser = respond(nc, Identity.currentUser, (req) => ok({ id: req.actor?.user_id ?? '' })).stop;
    gateway = await startGateway({ natsUrl });
    wsUrl = gateway.url.replace('http', 'ws');
  });

  afterAll(async () => {
    await gateway?.stop();
    stopJwks();
    stopUser();
    await nc.drain();
  });

  it('refuses a socket without a valid token with 401', async () => {
    await expect(openSocket(`${wsUrl}/realtime`)).rejects.toMatchObject({ status: 401 });
    await expect(openSocket(`${wsUrl}/realtime`, withToken('nope'))).rejects.toMatchObject({ status: 401 });
    // A token in the query is not read: a URL's query reaches access logs.
    await expect(
      openSocket(`${wsUrl}/realtime?access_token=${await key.sign(advisorClaims)}`, ['portico.realtime']),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('broadcasts a maintenance alert to every socket and replays it to new ones', async () => {
    const a = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(advisorClaims)));
    const b = await openSocket(`${wsUrl}/realtime`, ['portico.realtime', await key.sign(clientClaims)]);
    expect(b.ws.protocol).toBe('portico.realtime');
    await js.publish(
      NotificationsEvents.maintenanceAlert.subject,
      JSON.stringify({ event_id: 'm1', show: true, text: 'Maintenance tonight at 10pm' }),
    );
    const expected = { type: 'maintenance_alert', show: true, text: 'Maintenance tonight at 10pm' };
    expect(await a.next()).toEqual(expected);
    expect(await b.next()).toEqual(expected);
    const late = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(clientClaims)));
    expect(await late.next()).toEqual(expected);
    for (const s of [a, b, late]) s.ws.close();
  });

  it("signs out only that user's sockets on a revocation, and refuses the user's older tokens", async () => {
    const oldToken = await key.sign(
      { ...clientClaims, sub: 'revoked-user' },
      { issuedAt: Math.floor(Date.now() / 1000) - 5 },
    );
    const revoked = await openSocket(`${wsUrl}/realtime`, withToken(oldToken));
    const other = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(advisorClaims)));
    await js.publish(
      IdentityEvents.sessionsRevoked.subject,
      JSON.stringify({
        event_id: 'r1',
        user_id: 'revoked-user',
        firm_id: 'firm-1',
        reason: 'sign_out_everywhere',
        occurred_at: new Date().toISOString(),
      }),
    );
    const messages: unknown[] = [];
    for (;;) {
      const message = (await revoked.next()) as { type: string };
      messages.push(message);
      if (message.type === 'forced_sign_out') break;
    }
    expect((await revoked.closed).code).toBe(4401);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    const res = await fetch(`${gateway.url}/current_user`, {
      headers: { authorization: `Bearer ${oldToken}` },
    });
    expect(res.status).toBe(401);
    // A tab whose socket was down then comes back with that token: it is told it was signed out, as an
    // open socket is, instead of a 401 a browser cannot read on a WebSocket.
    const back = await openSocket(`${wsUrl}/realtime`, ['portico.realtime', oldToken]);
    expect((await back.closed).code).toBe(4401);
    other.ws.close();
  });

  it("shows a zip's progress on the sockets of the user who asked for it, and only theirs", async () => {
    const asker = { ...advisorClaims, sub: 'zip-asker' };
    const tabs = await Promise.all(
      [1, 2].map(async () => openSocket(`${wsUrl}/realtime`, withToken(await key.sign(asker)))),
    );
    const bystander = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(advisorClaims)));
    const progressOf = async (socket: OpenSocket) => {
      for (;;) {
        const message = (await socket.next()) as { type: string };
        if (message.type === 'progress') return message;
      }
    };
    sendSignal(nc, DocumentsSignals.zipProgress, {
      userId: 'zip-asker',
      progressId: 'b3f1c2de-0000-4000-8000-000000000001',
      filesDone: 3,
      fileCount: 40,
    });
    const expected = { type: 'progress', id: 'b3f1c2de-0000-4000-8000-000000000001', done: 3, total: 40 };
    for (const tab of tabs) expect(await progressOf(tab)).toEqual(expected);
    // The bystander's socket gets a later message of its own, and never the asker's progress.
    sendSignal(nc, DocumentsSignals.zipProgress, {
      userId: advisorClaims.sub,
      progressId: 'b3f1c2de-0000-4000-8000-000000000002',
      filesDone: 1,
      fileCount: 1,
    });
    expect(await progressOf(bystander)).toMatchObject({ id: 'b3f1c2de-0000-4000-8000-000000000002' });
    expect(bystander.messages).not.toContainEqual(expected);
    for (const s of [...tabs, bystander]) s.ws.close();
  });

  it("refuses a user's socket past the limit before its handshake (429), so the browser backs off", async () => {
    const claims = { ...clientClaims, sub: 'many-tabs-user' };
    const open = [];
    for (let i = 0; i < 20; i++)
      open.push(await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(claims))));
    await expect(openSocket(`${wsUrl}/realtime`, withToken(await key.sign(claims)))).rejects.toMatchObject({
      status: 429,
    });
    // Another user is not held back by this one's tabs.
    const other = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(advisorClaims)));
    for (const s of [...open, other]) s.ws.close();
  });

  it('closes a socket when its token expires, so the browser comes back with a fresh one', async () => {
    // Seconds of margin for the handshake on a loaded machine; the close is checked against the token's
    // own expiry (whole seconds), not against when the socket happened to open.
    const shortLived = await key.sign(clientClaims, { expiresIn: '4s' });
    const expiresAt =
      JSON.parse(Buffer.from(shortLived.split('.')[1] ?? '', 'base64url').toString()).exp * 1000;
    const socket = await openSocket(`${wsUrl}/realtime`, withToken(shortLived));
    expect((await socket.closed).code).toBe(4001);
    // Timers may fire a few ms early against the wall clock.
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 50);
    expect(Date.now()).toBeLessThan(expiresAt + 3_000);
  });

  it("signs out the sockets of one revoked session and leaves the same user's other session open", async () => {
    const user = { ...clientClaims, sub: 'two-sessions' };
    const stolen = await openSocket(
      `${wsUrl}/realtime`,
      withToken(await key.sign({ ...user, sid: 's-stolen' })),
    );
    const kept = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign({ ...user, sid: 's-kept' })));
    await js.publish(
      IdentityEvents.sessionsRevoked.subject,
      JSON.stringify({
        event_id: 'r2',
        user_id: 'two-sessions',
        session_id: 's-stolen',
        firm_id: 'firm-1',
        reason: 'refresh_reused',
        occurred_at: new Date().toISOString(),
      }),
    );
    expect((await stolen.closed).code).toBe(4401);
    expect(kept.ws.readyState).toBe(WebSocket.OPEN);
    kept.ws.close();
  });

  it('answers an upgrade to a target that is no URL, and stays up', async () => {
    const { host, port } = new URL(wsUrl.replace('ws:', 'http:'));
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connectTcp(Number(port), host.split(':')[0] as string, () =>
        socket.write(
          'GET // HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += String(chunk);
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.startsWith('HTTP/1.1 404')).toBe(true);
    // The gateway is still there for the next one.
    const again = await openSocket(`${wsUrl}/realtime`, withToken(await key.sign(advisorClaims)));
    again.ws.close();
  });
});

describe('realtime socket of a session revoked while its token is verified', () => {
  it('is closed with 4401 as it opens, not kept open until its token expires', async () => {
    const key = await createTestKey('race-key');
    const hub = new RealtimeHub();
    const revocations = new RevocationList();
    const actor = (sessionId: string): Actor => ({
      user_id: 'racing-user',
      firm_id: 'firm-1',
      role: 'client',
      readonly_access: false,
      session_id: sessionId,
    });
    // Verification takes a while (a key fetch from identity); the session's sign-out arrives meanwhile.
    const verify = async (token: string): Promise<Actor> => {
      const sessionId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sid;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (sessionId === 'signed-out') {
        revocations.revokeSession(sessionId);
        hub.signOutSession('racing-user', sessionId);
      }
      return actor(sessionId);
    };
    const server = createServer();
    const realtime = new RealtimeServer(hub, verify, revocations, createLogger('gateway', 'silent'), 30_000);
    realtime.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/realtime`;
    try {
      const revoked = await openSocket(
        url,
        withToken(await key.sign({ ...clientClaims, sid: 'signed-out' })),
      );
      const stillOpen = new Promise((resolve) => setTimeout(() => resolve({ code: 'still open' }), 2_000));
      expect(await Promise.race([revoked.closed, stillOpen])).toEqual({ code: 4401 });
      // A session that was not revoked meanwhile stays open.
      const kept = await openSocket(url, withToken(await key.sign({ ...clientClaims, sid: 'still-in' })));
      expect(kept.ws.readyState).toBe(WebSocket.OPEN);
      expect(hub.size).toBe(1);
      kept.ws.close();
      await kept.closed;
    } finally {
      realtime.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('realtime socket that is closed as it opens', () => {
  /** The handshake for /realtime with the token, then at once a frame a client may not send (unmasked). */
  const handshakeThenUnmaskedFrame = (token: string) =>
    Buffer.concat([
      Buffer.from(
        'GET /realtime HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
          `Sec-WebSocket-Protocol: portico.realtime, ${token}\r\n\r\n`,
      ),
      Buffer.from([0x81, 0x01, 0x61]),
    ]);

  it.each([
    ['a session signed out before', 'signed-out'],
    ['a session revoked during its handshake', 'revoked-meanwhile'],
  ])(
    "takes a bad frame on the socket of %s as that socket's error, not the process's",
    async (_case, sid) => {
      const key = await createTestKey('frame-key');
      const verify = async (token: string): Promise<Actor> => {
        if (sid === 'signed-out' && token) throw sessionRevoked();
        return {
          user_id: 'frame-user',
          firm_id: 'firm-1',
          role: 'client',
          readonly_access: false,
          session_id: sid,
        };
      };
      const revocations = { isRevoked: () => sid === 'revoked-meanwhile' };
      const server = createServer();
      const realtime = new RealtimeServer(
        new RealtimeHub(),
        verify,
        revocations,
        createLogger('gateway', 'silent'),
        30_000,
      );
      realtime.attach(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        const token = await key.sign({ ...clientClaims, sid });
        await new Promise<void>((resolve, reject) => {
          const socket = connectTcp(port, '127.0.0.1', () => socket.write(handshakeThenUnmaskedFrame(token)));
          socket.on('data', () => undefined);
          socket.on('close', () => resolve());
          socket.on('error', reject);
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', onUncaught);
        realtime.close();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
