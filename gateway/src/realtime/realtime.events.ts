import type { NatsConnection } from '@nats-io/transport-node';
import { type Logger, subscribeFanOut } from '@portico/platform';
import { IdentityEvents, NotificationsEvents } from '@portico/proto';
import type { RevocationList } from '../auth/revocations.js';
import type { RealtimeHub } from './realtime.hub.js';

function msOf(isoTime: string): number | undefined {
  const ms = Date.parse(isoTime);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Feeds the sockets from JetStream, every replica seeing every event: a user's revoked sessions sign the
 * user's sockets out (and refuse the user's older access tokens), one revoked session refuses that
 * session's tokens; maintenance alerts go to everyone.
 */
export async function startRealtimeEvents(
  nc: NatsConnection,
  hub: RealtimeHub,
  revocations: RevocationList,
  log: Logger,
): Promise<{ stop: () => Promise<void> }> {
  const subscriptions = await Promise.all([
    subscribeFanOut(
      nc,
      IdentityEvents.sessionsRevoked,
      (event) => {
        if (!event.userId) return;
        // One session: its tokens are refused and its sockets signed out; the user's other sessions go on.
        if (event.sessionId) {
          revocations.revokeSession(event.sessionId, msOf(event.occurredAt));
          return hub.signOutSession(event.userId, event.sessionId);
        }
        const at = msOf(event.occurredAt);
        revocations.revoke(event.userId, at);
        hub.signOut(event.userId, at);
      },
      log,
      // A replica that starts (a rolling deploy, a crash) must refuse the tokens revoked before it did,
      // for as long as they would otherwise be valid.
      { replayFrom: new Date(Date.now() - revocations.retainMs) },
    ),
    subscribeFanOut(
      nc,
      NotificationsEvents.maintenanceAlert,
      (event) => hub.maintenanceAlert(event.show, event.text),
      log,
      // A replica that starts while a banner is up learns it from the last alert in the stream.
      { replayLast: true },
    ),
  ]);
  return {
    stop: async () => {
      await Promise.all(subscriptions.map((s) => s.stop()));
    },
  };
}
