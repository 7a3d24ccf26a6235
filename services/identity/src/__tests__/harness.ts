import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNotifications } from '@portico/notifications/testing';
import { BusClient } from '@portico/platform';
import {
  createServiceDatabase,
  startNatsServer,
  uniqueDatabaseName,
  waitFor,
} from '@portico/platform/testing';
import { Notifications } from '@portico/proto';
import {
  ACCOUNT_NOTICE_KINDS,
  type BuiltFirm,
  startIdentity,
  type TestIdentity,
  testActor,
  testFirmSpec,
} from '../testing/index.js';

/** The identity service with the real notifications service beside it, on the test run's NATS and PostgreSQL. */
export async function startIdentityHarness(label: string) {
  // Its own NATS server: queue groups and streams of other test files never answer here.
  const nats = await startNatsServer();
  const natsUrl = nats.url;
  const pgAdminUrl = process.env.TEST_PG_ADMIN_URL as string;
  const notificationsDatabaseUrl = await createServiceDatabase(
    pgAdminUrl,
    uniqueDatabaseName('notifications'),
  );
  const runNotifications = () =>
    startNotifications({
      natsUrl,
      databaseUrl: notificationsDatabaseUrl,
      env: { DEV_OUTBOX_ENABLED: 'true' },
    });
  let notifications = await runNotifications();
  const identity: TestIdentity = await startIdentity({ natsUrl, pgAdminUrl });
  const nc: NatsConnection = await connect({ servers: natsUrl });
  const bus = new BusClient(nc);
  const firm: BuiltFirm = await identity.buildFirm(testFirmSpec(label));
  const other: BuiltFirm = await identity.buildFirm(testFirmSpec(`${label}-other`));

  const actorOf = testActor;

  /** The newest message the outbox holds for an address. */
  const lastMessageTo = async (to: string) => {
    const { messages } = await bus.request(Notifications.listOutbox, { to, limit: 1 });
    return messages[0];
  };
  /**
   * Waits for the messages of `kind` to an address to number `count`, and answers them, newest first:
   * notices are emailed by an event consumer once their change commits, not within the request.
   */
  const messagesOfKind = async (to: string, kind: string, count = 1, timeoutMs = 30_000) => {
    let found: Awaited<ReturnType<typeof lastMessageTo>>[] = [];
    await waitFor(
      async () => {
        const { messages } = await bus.request(Notifications.listOutbox, { to, limit: 100 });
        found = messages.filter((m) => m.kind === kind);
        return found.length >= count;
      },
      timeoutMs,
      `${count} ${kind} message(s) to ${to}`,
    );
    return found;
  };
  /**
   * The newest message to an address other than an account notice: notices come from an event consumer
   * in their own time, and one arriving after a code or link was sent would otherwise hide it.
   */
  const lastRequestedMessageTo = async (to: string) => {
    const { messages } = await bus.request(Notifications.listOutbox, { to, limit: 20 });
    return messages.find((m) => !(ACCOUNT_NOTICE_KINDS as readonly string[]).includes(m.kind));
  };
  // 'Your sign-in code for <firm> is 123456': the code follows 'is' (a test firm's name may hold digits).
  const lastCodeTo = async (to: string) =>
    /\bis (\d{6})\b/.exec((await lastRequestedMessageTo(to))?.text ?? '')?.[1] ?? '';
  const lastLinkTokenTo = async (to: string) =>
    /token=([A-Za-z0-9_-]+)/.exec((await lastRequestedMessageTo(to))?.text ?? '')?.[1] ?? '';
  /** The link of the newest message to an address (not a notice), parsed. */
  const lastLinkTo = async (to: string) =>
    new URL(/https?:\/\/\S+/.exec((await lastRequestedMessageTo(to))?.text ?? '')?.[0] ?? 'invalid:');

  /** Runs `work` while the notifications service is down (no responder: 503 at once), then starts it again. */
  const withNotificationsDown = async <T>(work: () => Promise<T>): Promise<T> => {
    await notifications.stop();
    try {
      return await work();
    } finally {
      notifications = await runNotifications();
    }
  };

  return {
    bus,
    nc,
    identity,
    firm,
    other,
    actorOf,
    lastMessageTo,
    messagesOfKind,
    lastCodeTo,
    lastLinkTokenTo,
    lastLinkTo,
    withNotificationsDown,
    stop: async () => {
      await nc.drain();
      await identity.stop();
      await notifications.stop();
      await nats.stop();
    },
  };
}
export type IdentityHarness = Awaited<ReturnType<typeof startIdentityHarness>>;
