import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents, Identity } from '@portico/proto';
import { Messages } from '../messages.js';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

describe("a firm's drop link switched off (drop_link_enabled)", () => {
  let h: DocumentsHarness;
  let dropLinkId = '';
  /** A drop-off filed while the link was on. */
  let receivedId = '';
  /** Uploads handed out and put while the link was on, not yet processed. */
  let pendingIds: string[] = [];
  const actor = (key: string) => h.actorOf(h.firm, key);
  const userId = (key: string) => h.firm.users[key]?.id as string;

  const setDropLink = (enabled: boolean) =>
    h.bus.request(
      Identity.updatePreferences,
      { preferences: { drop_link_enabled: enabled } },
      { actor: actor('partner') },
    );

  /** Presigned links through the drop link, each file put as a browser does. */
  async function putDropOffs(names: string[]) {
    const body = await pdf();
    const { links } = await h.bus.request(Documents.createDropOffLinks, {
      dropLinkId,
      files: names.map((name) => ({ name, size: BigInt(body.length) })),
    });
    for (const link of links) await fetch(link.url, { method: 'PUT', headers: link.headers, body });
    return links.map((l) => l.uploadId);
  }

  const processDropOffs = (uploadIds: string[]) =>
    h.bus.request(Documents.processDropOff, {
      dropLinkId,
      uploadIds,
      uploaderName: 'Visitor',
      uploaderEmail: 'visitor@example.com',
    });

  /** The firm's drop-offs and uploads through the drop link, and the recipients identity keeps. */
  async function state() {
    const [dropOffs] = await h.documents.query<{ n: number }>(
      'select count(*)::int as n from drop_offs where firm_id = $1',
      [h.firm.firmId],
    );
    const uploads = await h.documents.query<{ id: string; consumed: boolean }>(
      `select id, consumed_at is not null as consumed from uploads
        where firm_id = $1 and company_id is null order by id`,
      [h.firm.firmId],
    );
    const firm = await h.bus.request(Identity.firmContacts, { firmId: h.firm.firmId, userIds: [] });
    return {
      dropOffs: dropOffs?.n,
      uploads,
      recipients: firm.preferences?.firmUserIdsToReceiveDropLinkNotification,
    };
  }

  beforeAll(async () => {
    h = await startDocumentsHarness('drop-switch', { drop_link_enabled: true });
    const partner = { actor: actor('partner') };
    await h.bus.request(Documents.saveDropLink, { notifyUserIds: [userId('partner')] }, partner);
    ({ id: dropLinkId } = await h.bus.request(Documents.getDropLink, {}, partner));
    const filed = await processDropOffs(await putDropOffs(['received.pdf']));
    receivedId = filed.files[0]?.uploadId as string;
    pendingIds = await putDropOffs(['late.pdf']);
    await setDropLink(false);
  });
  afterAll(async () => {
    await h.stop();
  });

  const disabled = { status: 403, code: 'drop_link_disabled', message: Messages.dropLinkDisabled };

  it('closes the Drop Link page: get, save, list, download and delete answer 403 and change nothing', async () => {
    const before = await state();
    for (const key of ['partner', 'admin', 'full']) {
      const as = { actor: actor(key) };
      await expect(h.bus.request(Documents.getDropLink, {}, as)).rejects.toMatchObject(disabled);
      await expect(
        h.bus.request(Documents.saveDropLink, { notifyUserIds: [userId('full')] }, as),
      ).rejects.toMatchObject(disabled);
      await expect(h.bus.request(Documents.listDropOffs, {}, as)).rejects.toMatchObject(disabled);
      await expect(h.bus.request(Documents.downloadDropOff, { id: receivedId }, as)).rejects.toMatchObject(
        disabled,
      );
      await expect(h.bus.request(Documents.deleteDropOffs, { ids: [receivedId] }, as)).rejects.toMatchObject(
        disabled,
      );
    }
    // Others are refused for their role, as while the link is on.
    await expect(h.bus.request(Documents.getDropLink, {}, { actor: actor('group') })).rejects.toMatchObject({
      status: 403,
      code: 'drop_link_forbidden',
    });
    expect(await state()).toEqual(before);
  });

  it('refuses upload links on a valid drop link id, handing out none', async () => {
    const before = await state();
    await expect(
      h.bus.request(Documents.createDropOffLinks, { dropLinkId, files: [{ name: 'new.pdf', size: 10n }] }),
    ).rejects.toMatchObject({ status: 404, message: Messages.dropLinkDisabled });
    expect(await state()).toEqual(before);
  });

  it('files nothing from uploads whose links were made before it was switched off', async () => {
    const before = await state();
    await expect(processDropOffs(pendingIds)).rejects.toMatchObject({
      status: 404,
      message: Messages.dropLinkDisabled,
    });
    const after = await state();
    expect(after).toEqual(before);
    // Not consumed either: the uploads are left to the sweep, or to the link once it is on again.
    expect(after.uploads.filter((u) => pendingIds.includes(u.id))).toEqual([
      { id: pendingIds[0], consumed: false },
    ]);
  });

  it('opens the page again, with what was received before, once the link is switched back on', async () => {
    await setDropLink(true);
    const as = { actor: actor('full') };
    const listed = await h.bus.request(Documents.listDropOffs, {}, as);
    expect(listed.dropOffs.map((d) => d.name)).toEqual(['received.pdf']);
    const link = await h.bus.request(Documents.getDropLink, {}, as);
    expect(link).toMatchObject({ id: dropLinkId, enabled: true, notifyUserIds: [userId('partner')] });
    expect(
      (await h.bus.request(Documents.downloadDropOff, { id: receivedId }, as)).document?.data?.link,
    ).toBeTruthy();
  });
});
