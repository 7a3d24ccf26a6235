import type { NatsConnection } from '@nats-io/transport-node';
import { type Logger, subscribeFanOut, subscribeSignal } from '@portico/platform';
import { DocumentsSignals, IdentityEvents, NotificationsEvents } from '@portico/proto';
import type { RevocationList } from '../auth/revocations.js';
import type { RealtimeHub } from './realtime.hub.js';

function msOf(isoTime: string): number | undefined {
  const ms = Date.parse(isoTime);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Feeds the sockets from JetStream, every replica seeing every event: a user's revoked sessions sign the
 * user's sockets out (and refuse the user's older access tokens), one revoked session refuses that
 * session's tokens; maintenance alerts go to everyone. Progress signals (core NATS, not stored) go to
 * the sockets of the user who asked for the work.
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
  const zipProgress = subscribeSignal(
    nc,
    DocumentsSignals.zipProgress,
    (signal) => {
      if (!signal.userId || !signal.progressId) return;
      hub.sendTo(signal.userId, {
        type: 'progress',
        id: signal.progressId,
        done: signal.filesDone,
        total: signal.fileCount,
      });
    },
    log,
  );
  return {
    stop: async () => {
      zipProgress.stop();
      await Promise.all(subscriptions.map((s) => s.stop()));
    },
  };
}
