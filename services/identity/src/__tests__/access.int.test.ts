import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Identity } from '@portico/proto';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

describe('company access and firm contacts for other services', () => {
  let h: IdentityHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const company = (key: string) => h.firm.companies[key]?.id as string;

  beforeAll(async () => {
    h = await startIdentityHarness('access');
    await h.identity.query(
      `update companies set settings = '{"folders_where_client_actions_disabled": ["/{year}/Final", 7]}' where id = $1`,
      [company('llc')],
    );
    await h.identity.query(
      `update firms set preferences = preferences || '{"disable_folder_action": true}' where id = $1`,
      [h.firm.firmId],
    );
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers a client's own company with owners, settings, preferences and their read-only flag", async () => {
    const access = await h.bus.request(
      Identity.companyAccess,
      { companyId: company('llc') },
      { actor: actor('client') },
    );
    expect(access).toMatchObject({
      companyId: company('llc'),
      firmId: h.firm.firmId,
      inactive: false,
      readonlyAccess: false,
      ownerIds: [h.firm.users.client?.id],
      foldersWhereClientActionsDisabled: ['/{year}/Final'],
      actorReadonly: false,
      preferences: { disableFolderAction: true, disableFileEditAction: false },
    });
  });

  it('shows the folders blocked for clients on the company itself, so the file manager can disable them', async () => {
    for (const who of ['client', 'partner']) {
      const shown = await h.bus.request(Identity.getCompany, { id: company('llc') }, { actor: actor(who) });
      expect(shown.foldersWhereClientActionsDisabled).toEqual(['/{year}/Final']);
    }
    const list = await h.bus.request(
      Identity.listCompanies,
      { searchTerm: '', page: 1, rowsPerPage: 50, includeInactive: false },
      { actor: actor('client') },
    );
    expect(list.companies.find((c) => c.id === company('llc'))?.foldersWhereClientActionsDisabled).toEqual([
      '/{year}/Final',
    ]);
  });

  it('reports read-only users and companies, and inactive companies to advisors', async () => {
    const ro = await h.bus.request(
      Identity.companyAccess,
      { companyId: company('rita') },
      { actor: actor('readonly') },
    );
    expect(ro.actorReadonly).toBe(true);
    const roCompany = await h.bus.request(
      Identity.companyAccess,
      { companyId: company('rex_ro') },
      { actor: actor('partner') },
    );
    expect(roCompany.readonlyAccess).toBe(true);
    const inactive = await h.bus.request(
      Identity.companyAccess,
      { companyId: company('inactive') },
      { actor: actor('full') },
    );
    expect(inactive.inactive).toBe(true);
  });

  it("404s another client's company, an inactive one for its client, and another firm's", async () => {
    // One at a time: a rejection nobody awaits yet would surface as an unhandled error.
    const attempts = [
      () => h.bus.request(Identity.companyAccess, { companyId: company('otto') }, { actor: actor('client') }),
      () =>
        h.bus.request(Identity.companyAccess, { companyId: company('inactive') }, { actor: actor('client') }),
      () =>
        h.bus.request(
          Identity.companyAccess,
          { companyId: h.other.companies.otto?.id as string },
          { actor: actor('partner') },
        ),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ status: 404 });
  });

  it("finds a company by the hash in the portal's addresses as by its id, with the same 404s", async () => {
    const get = (id: string, key: string) =>
      h.bus.request(Identity.getCompany, { id }, { actor: actor(key) });
    const byId = await get(company('llc'), 'partner');
    expect((await get(byId.hashId, 'partner')).id).toBe(company('llc'));
    expect((await get(byId.hashId, 'client')).id).toBe(company('llc'));
    const otto = await get(company('otto'), 'partner');
    const foreign = await h.bus.request(
      Identity.getCompany,
      { id: h.other.companies.otto?.id as string },
      { actor: h.actorOf(h.other, 'partner') },
    );
    for (const [id, key] of [
      [otto.hashId, 'client'],
      [foreign.hashId, 'partner'],
      ['NoSuchHash', 'partner'],
    ] as const) {
      await expect(get(id, key)).rejects.toMatchObject({ status: 404 });
    }
    // Other services name companies by id only.
    await expect(
      h.bus.request(Identity.companyAccess, { companyId: byId.hashId }, { actor: actor('partner') }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('lists the chosen advisors of a firm by id or by slug, and 404s an unknown firm', async () => {
    const chosen = await h.bus.request(Identity.firmContacts, {
      firmId: h.firm.firmId,
      userIds: [h.firm.users.full?.id as string, h.firm.users.client?.id as string],
    });
    expect(chosen.users.map((u) => u.email)).toEqual([h.firm.users.full?.email]);
    const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
    const bySlug = await h.bus.request(Identity.firmContacts, { slug: firm.slug });
    expect(bySlug.firmId).toBe(h.firm.firmId);
    expect(bySlug.users).toHaveLength(5);
    await expect(
      h.bus.request(Identity.firmContacts, { firmId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
