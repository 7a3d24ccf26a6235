import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type BuiltFirm, startIdentity, testActor, testFirmSpec } from '@portico/identity/testing';
import { startNotifications } from '@portico/notifications/testing';
import { type Actor, BusClient, EVENTS_STREAM, ensureEventStream } from '@portico/platform';
import {
  createServiceDatabase,
  startNatsServer,
  startS3Server,
  uniqueDatabaseName,
} from '@portico/platform/testing';
import { Documents, Notifications } from '@portico/proto';
import { S3ObjectStore } from '../storage/s3.object-store.js';
import { startDocuments } from '../testing/index.js';

/**
 * Documents with the real identity and notifications services beside it, on its own nats-server and
 * a local S3-compatible server; two firms, so isolation can be proved.
 */
export async function startDocumentsHarness(
  label: string,
  preferences: Record<string, unknown> = {},
  /** The documents service's own settings beyond the test defaults. */
  documentsEnv: Record<string, string> = {},
) {
  const nats = await startNatsServer();
  const s3 = await startS3Server();
  const pgAdminUrl = process.env.TEST_PG_ADMIN_URL as string;
  const notificationsDb = await createServiceDatabase(pgAdminUrl, uniqueDatabaseName('notifications'));
  const runNotifications = () =>
    startNotifications({
      natsUrl: nats.url,
      databaseUrl: notificationsDb,
      env: { DEV_OUTBOX_ENABLED: 'true' },
    });
  let notifications = await runNotifications();
  const identity = await startIdentity({ natsUrl: nats.url, pgAdminUrl });
  const documents = await startDocuments({ natsUrl: nats.url, pgAdminUrl, s3Env: s3.env, env: documentsEnv });
  // The bucket as the service sees it, for tests that look at objects themselves.
  const store = new S3ObjectStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  const nc: NatsConnection = await connect({ servers: nats.url });
  const bus = new BusClient(nc);
  // Every documents event the stream takes, in order, for the tests to wait on.
  await ensureEventStream(nc);
  const eventStream = await (
    await jetstream(nc).consumers.get(EVENTS_STREAM, { filter_subjects: 'events.documents.>' })
  ).consume();
  const received: { subject: string; event: DocumentEvent }[] = [];
  const reading = (async () => {
    for await (const msg of eventStream)
      received.push({ subject: msg.subject, event: msg.json<DocumentEvent>() });
  })();
  const firm: BuiltFirm = await identity.buildFirm(testFirmSpec(label, { preferences }));
  const other: BuiltFirm = await identity.buildFirm(testFirmSpec(`${label}-other`));

  const actorOf = testActor;

  /** Presign, PUT over HTTP as a browser does, then process; returns the process reply. */
  async function upload(
    actor: Actor,
    companyId: string,
    files: { name: string; body: Buffer }[],
    options: {
      path?: string;
      documentType?: string;
      taxYear?: string;
      newName?: string;
      tags?: string[];
      questionnaireId?: string;
    } = {},
  ) {
    const { links } = await bus.request(
      Documents.createUploadLinks,
      {
        companyId,
        path: options.path ?? '',
        documentType: options.documentType ?? '',
        taxYear: options.taxYear ?? '',
        files: files.map((f) => ({ name: f.name, size: BigInt(f.body.length) })),
      },
      { actor },
    );
    for (const [i, link] of links.entries()) {
      const res = await fetch(link.url, { method: 'PUT', headers: link.headers, body: files[i]?.body });
      if (!res.ok) throw new Error(`PUT failed with ${res.status}: ${await res.text()}`);
    }
    return bus.request(
      Documents.processDocument,
      {
        companyId,
        path: options.path ?? '',
        documentType: options.documentType ?? '',
        taxYear: options.taxYear ?? '',
        newName: options.newName ?? '',
        tags: options.tags ?? [],
        questionnaireId: options.questionnaireId ?? '',
        uploadIds: links.map((l) => l.uploadId),
      },
      { actor },
    );
  }

  async function list(actor: Actor, companyId: string, path = '', showWithDeleted = false) {
    return bus.request(Documents.getDocuments, { companyId, path, showWithDeleted }, { actor });
  }

  /**
   * The events on `subject` (an event contract's) that `match` accepts, once there are `count` of them
   * or 5 seconds have passed.
   */
  async function eventsOn(subject: string, match: (event: DocumentEvent) => boolean, count = 1) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = received.filter((r) => r.subject === subject && match(r.event)).map((r) => r.event);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const lastMessageTo = async (to: string) =>
    (await bus.request(Notifications.listOutbox, { to, limit: 1 })).messages[0];

  /** The messages sent to `to` once there are `count` of them (15 s at most), newest first. */
  async function messagesTo(to: string, count = 1) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { messages } = await bus.request(Notifications.listOutbox, { to, limit: 20 });
      if (messages.length >= count || Date.now() > deadline) return messages;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    bus,
    nc,
    s3,
    store,
    identity,
    documents,
    firm,
    other,
    actorOf,
    upload,
    list,
    lastMessageTo,
    messagesTo,
    eventsOn,
    /** Stops the notifications service; `resume` starts it again on the same database. */
    stopNotifications: async () => {
      await notifications.stop();
      return {
        resume: async () => {
          notifications = await runNotifications();
        },
      };
    },
    stop: async () => {
      await eventStream.close();
      await reading;
      await nc.drain();
      store.destroy();
      await documents.stop();
      await identity.stop();
      await notifications.stop();
      await s3.stop();
      await nats.stop();
    },
  };
}
/** A documents event as the stream carries it (the contract's wire JSON). */
export type DocumentEvent = {
  firm_id: string;
  company_id: string;
  item_type: string;
  path: string;
  new_path: string;
  actor_user_id: string;
};

export type DocumentsHarness = Awaited<ReturnType<typeof startDocumentsHarness>>;
