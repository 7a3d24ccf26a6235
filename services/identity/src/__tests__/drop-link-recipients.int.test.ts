import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase } from '@portico/platform';
import { Identity } from '@portico/proto';
import { FirmsRepository } from '../firms/firms.repository.js';
import { FirmsService } from '../firms/firms.service.js';
import { PreferencesCache } from '../firms/preferences.cache.js';
import { schema } from '../schema.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

// Drop Link is for partners, admins and full users (spec 1 s.2.2): only they can download what it
// received, so only they can be told of drop-offs.
describe("the drop link's recipients are users who may open Drop Link", () => {
  let h: IdentityHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const id = (key: string) => h.firm.users[key]?.id as string;
  const refused = {
    status: 400,
    message: 'Choose firm users from the list',
    extra: { fields: { firm_user_ids_to_receive_drop_link_notification: 'Choose firm users from the list' } },
  };

  beforeAll(async () => {
    h = await startIdentityHarness('drop-recipients');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses a group user, alone or among others, as it refuses any user not on the list', async () => {
    const set = (userIds: string[]) =>
      h.bus.request(Identity.setDropLinkRecipients, { userIds }, { actor: actor('admin') });
    for (const ids of [[id('group')], [id('partner'), id('nogroup')]])
      await expect(set(ids)).rejects.toMatchObject(refused);
    const saved = await set([id('partner'), id('admin'), id('full')]);
    expect(saved.firmUserIdsToReceiveDropLinkNotification).toEqual([id('partner'), id('admin'), id('full')]);
    // The settings page's whole save keeps to the same rule when it changes the list.
    await expect(
      h.bus.request(
        Identity.updatePreferences,
        { preferences: { firm_user_ids_to_receive_drop_link_notification: [id('group')] } },
        { actor: actor('partner') },
      ),
    ).rejects.toMatchObject(refused);
  });

  it('checks a settings save of the list within the transaction that holds the firm, on its connection', async () => {
    // With one connection in the pool: a check on a second connection waited for the first, held by
    // the save itself, until the pool gave up (a few saves at once did so with every connection).
    const database = openDatabase(h.identity.databaseUrl, schema, { max: 1 });
    try {
      const firms = new FirmsRepository(database.db);
      const service = new FirmsService(firms, new PreferencesCache(firms));
      const saved = await service.updatePreferences(actor('partner'), {
        firm_user_ids_to_receive_drop_link_notification: [id('partner'), id('admin')],
      });
      expect(saved.preferences).toMatchObject({
        firm_user_ids_to_receive_drop_link_notification: [id('partner'), id('admin')],
      });
    } finally {
      await database.pool.end();
    }
  });

  it("answers each advisor's firm access with the firm's contacts, for documents to choose from", async () => {
    const firm = await h.bus.request(Identity.firmContacts, { firmId: h.firm.firmId, userIds: [] });
    const access = Object.fromEntries(firm.users.map((u) => [u.id, u.firmAccess]));
    expect(access).toEqual({
      [id('partner')]: 'partner',
      [id('admin')]: 'admin',
      [id('full')]: 'full',
      [id('group')]: 'group',
      [id('nogroup')]: 'group',
    });
  });
});
