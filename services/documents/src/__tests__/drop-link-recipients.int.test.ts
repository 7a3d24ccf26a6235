import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { type BuiltFirm, startIdentity, testActor, testFirmSpec } from '@portico/identity/testing';
import { startNotifications } from '@portico/notifications/testing';
import { BusClient, EVENT_ID_HEADER, ensureEventStream } from '@portico/platform';
import {
  createServiceDatabase,
  startNatsServer,
  startS3Server,
  uniqueDatabaseName,
} from '@portico/platform/testing';
import { Documents, DocumentsEvents, Identity, Notifications } from '@portico/proto';
import { startDocuments } from '../testing/index.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

describe('who is told of drop-offs, and who can be chosen', () => {
  let h: DocumentsHarness;
  let dropLinkId = '';
  const actor = (key: string) => h.actorOf(h.firm, key);
  const userId = (key: string) => h.firm.users[key]?.id as string;
  const email = (key: string) => h.firm.users[key]?.email as string;

  /** Presigned links through the drop link, each file put as a browser does; answers the upload ids. */
  async function putDropOffs(names: string[]) {
    const body = await pdf();
    const { links } = await h.bus.request(Documents.createDropOffLinks, {
      dropLinkId,
      files: names.map((name) => ({ name, size: BigInt(body.length) })),
    });
    for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    return links.map((l) => l.uploadId);
  }
  const processDropOffs = (uploadIds: string[], uploaderName = 'Visitor') =>
    h.bus.request(Documents.processDropOff, {
      dropLinkId,
      uploadIds,
      uploaderName,
      uploaderEmail: 'visitor@example.com',
    });
  /** The drop-off emails sent to a user, once there are `count` of them (15 s at most). */
  const dropOffMails = async (key: string, count = 1) =>
    (await h.messagesTo(email(key), count)).filter((m) => m.kind === 'drop_off_received');

  beforeAll(async () => {
    // A new firm: its drop link on, nobody chosen to be told (identity's defaults).
    h = await startDocumentsHarness('drop-recipients', { drop_link_enabled: true });
    ({ id: dropLinkId } = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') }));
  });
  afterAll(async () => {
    await h.stop();
  });

  it("emails the firm's partners of a drop-off while nobody is chosen", async () => {
    const contacts = await h.bus.request(Identity.firmContacts, { firmId: h.firm.firmId, userIds: [] });
    expect(contacts.preferences?.firmUserIdsToReceiveDropLinkNotification).toEqual([]);
    await processDropOffs(await putDropOffs(['unannounced.pdf']));
    // Before, the file was stored and nobody was told.
    const [mail] = await dropOffMails('partner');
    expect(mail?.text).toContain('unannounced.pdf');
    for (const key of ['admin', 'full', 'group']) {
      const { messages } = await h.bus.request(Notifications.listOutbox, { to: email(key), limit: 5 });
      expect(messages.filter((m) => m.kind === 'drop_off_received')).toEqual([]);
    }
  });

  it('offers, and takes, only the partners, admins and full users, who can open Drop Link', async () => {
    const page = await h.bus.request(Documents.getDropLink, {}, { actor: actor('admin') });
    // Before, every advisor, group users among them, who cannot open what they would be told of.
    expect(page.firmUsers.map((u) => u.id).sort()).toEqual(
      [userId('partner'), userId('admin'), userId('full')].sort(),
    );
    for (const ids of [[userId('group')], [userId('full'), userId('nogroup')]])
      await expect(
        h.bus.request(Documents.saveDropLink, { notifyUserIds: ids }, { actor: actor('admin') }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Choose firm users from the list',
        extra: { fields: { notifyUserIds: 'Choose firm users from the list' } },
      });
    const saved = await h.bus.request(
      Documents.saveDropLink,
      { notifyUserIds: [userId('full')] },
      { actor: actor('admin') },
    );
    expect(saved.notifyUserIds).toEqual([userId('full')]);
  });

  it('tells the chosen users who may open Drop Link, and the partners once none of them may', async () => {
    await processDropOffs(await putDropOffs(['chosen.pdf']));
    expect((await dropOffMails('full'))[0]?.text).toContain('chosen.pdf');
    // The full user becomes a group user: chosen still, but no longer able to open Drop Link.
    await h.identity.query(`update users set firm_access = 'group' where id = $1`, [userId('full')]);
    try {
      const page = await h.bus.request(Documents.getDropLink, {}, { actor: actor('partner') });
      expect(page.notifyUserIds).toEqual([]);
      expect(page.firmUsers.map((u) => u.id)).not.toContain(userId('full'));
      await processDropOffs(await putDropOffs(['regrouped.pdf']));
      const partnerMails = await dropOffMails('partner', 2);
      expect(partnerMails[0]?.text).toContain('regrouped.pdf');
      expect((await dropOffMails('full'))[0]?.text).toContain('chosen.pdf');
    } finally {
      await h.identity.query(`update users set firm_access = 'full' where id = $1`, [userId('full')]);
    }
  });

  it('refuses a blank uploader name before the uploads are claimed', async () => {
    const ids = await putDropOffs(['nameless.pdf']);
    for (const name of ['', '   '])
      await expect(processDropOffs(ids, name)).rejects.toMatchObject({
        status: 400,
        message: 'Please enter your name',
        extra: { fields: { uploaderName: 'Please enter your name' } },
      });
    const rows = await h.documents.query<{ claimed: boolean; consumed: boolean }>(
      `select claimed_until is not null as claimed, consumed_at is not null as consumed
         from uploads where id = any($1)`,
      [ids],
    );
    expect(rows).toEqual([{ claimed: false, consumed: false }]);
    // Named, the same upload goes.
    expect((await processDropOffs(ids, 'Jo Visitor')).message).toBe('Document(s) uploaded successfully');
  });
});

describe('drop-offs published before the notifier first made its consumer (a first deploy)', () => {
  let stopAll: () => Promise<void> = async () => {};
  let nc: NatsConnection;
  let bus: BusClient;
  let firm: BuiltFirm;
  let documents: Awaited<ReturnType<typeof startDocuments>> | undefined;

  beforeAll(async () => {
    const nats = await startNatsServer();
    const s3 = await startS3Server();
    const pgAdminUrl = process.env.TEST_PG_ADMIN_URL as string;
    const notifications = await startNotifications({
      natsUrl: nats.url,
      databaseUrl: await createServiceDatabase(pgAdminUrl, uniqueDatabaseName('notifications')),
      env: { DEV_OUTBOX_ENABLED: 'true' },
    });
    const identity = await startIdentity({ natsUrl: nats.url, pgAdminUrl });
    nc = await connect({ servers: nats.url });
    bus = new BusClient(nc);
    firm = await identity.buildFirm(
      testFirmSpec('first-deploy', { preferences: { drop_link_enabled: true } }),
    );
    await bus.request(
      Identity.setDropLinkRecipients,
      { userIds: [firm.users.full?.id as string] },
      { actor: testActor(firm, 'partner') },
    );
    // The stream is there, and the relay publishes a drop-off before the notifier's consumer exists.
    await ensureEventStream(nc);
    const eventId = randomUUID();
    const h = natsHeaders();
    h.set(EVENT_ID_HEADER, eventId);
    await jetstream(nc).publish(
      DocumentsEvents.dropOffReceived.subject,
      JSON.stringify({
        event_id: eventId,
        firm_id: firm.firmId,
        names: ['before-the-consumer.pdf'],
        uploader_name: 'Jo',
        uploader_email: 'jo@example.com',
        occurred_at: new Date().toISOString(),
      }),
      { msgID: eventId, headers: h },
    );
    documents = await startDocuments({ natsUrl: nats.url, pgAdminUrl, s3Env: s3.env });
    stopAll = async () => {
      await nc.drain();
      await documents?.stop();
      await identity.stop();
      await notifications.stop();
      await s3.stop();
      await nats.stop();
    };
  });
  afterAll(async () => {
    await stopAll();
  });

  it('emails them once the consumer is made', async () => {
    const to = firm.users.full?.email as string;
    const deadline = Date.now() + 15_000;
    let messages = (await bus.request(Notifications.listOutbox, { to, limit: 5 })).messages;
    while (!messages.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      messages = (await bus.request(Notifications.listOutbox, { to, limit: 5 })).messages;
    }
    // Before, the consumer was made from now on: the event was skipped and nobody was told.
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: 'drop_off_received' });
    expect(messages[0]?.text).toContain('before-the-consumer.pdf');
  });
});
