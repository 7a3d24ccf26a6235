import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type BuiltFirm, TEST_PASSWORD, testFirmSpec } from '@portico/identity/testing';
import type { Actor } from '@portico/platform';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';
import { outcome, writtenState } from './written-state.js';

jest.setTimeout(120_000);

/**
 * Spec 1 s.6: with firm groups on, a group-access advisor sees only the entities of their own group's
 * users and of users in no group; with no group of their own, none. Identity answers 404 for the rest
 * (README: asked, not copied), and documents passes it on for every call, writing nothing.
 *
 * The test firm's 'client' (entities individual, llc, inactive) is in group East, 'other' (otto) in no
 * group; a client of group West (westco) is added here, with an advisor of that group.
 */
describe('documents: group-access advisors with firm groups on', () => {
  let h: DocumentsHarness;
  let state: ReturnType<typeof writtenState>;
  let firm: BuiltFirm;
  let body: Buffer;
  const company = (key: string) => firm.companies[key]?.id as string;
  const actor = (key: string) => h.actorOf(firm, key);
  /** The advisor of group West: not in the shared spec, so made here as the gateway would send it. */
  const westAdvisor = (): Actor => ({
    user_id: firm.users.westie?.id as string,
    firm_id: firm.firmId,
    role: 'advisor',
    firm_access: 'group',
    firm_group_id: firm.groups.West,
    readonly_access: false,
  });

  const calls = (companyKey: string, file: string): [string, (a: Actor) => Promise<unknown>][] => [
    ['list', (a) => h.list(a, company(companyKey))],
    [
      'search',
      (a) =>
        h.bus.request(
          Documents.searchDocuments,
          { companyId: company(companyKey), searchTerm: 'pdf' },
          { actor: a },
        ),
    ],
    [
      'download',
      (a) =>
        h.bus.request(
          Documents.downloadDocument,
          { companyId: company(companyKey), link: `/${file}`, isDownload: true },
          { actor: a },
        ),
    ],
    [
      'upload links',
      (a) =>
        h.bus.request(
          Documents.createUploadLinks,
          {
            companyId: company(companyKey),
            path: '',
            files: [{ name: 'new.pdf', size: BigInt(body.length) }],
          },
          { actor: a },
        ),
    ],
    [
      'create folder',
      (a) =>
        h.bus.request(
          Documents.createFolder,
          { companyId: company(companyKey), name: 'Group made' },
          { actor: a },
        ),
    ],
  ];

  /** Each call answered 404 'Not found', naming none of the company's files, and nothing written in the firm. */
  async function refusedEverything(who: Actor, companyKey: string, file: string) {
    const before = await state.of(firm.firmId);
    const answers = [];
    for (const [what, call] of calls(companyKey, file)) {
      const err = await call(who).then(
        () => ({ status: 200, message: 'done' }) as { status: number; message: string },
        (e: { status: number; message: string }) => e,
      );
      answers.push([what, err.status, err.message, `${err.message} ${JSON.stringify(err)}`.includes(file)]);
    }
    expect(answers).toEqual(calls(companyKey, file).map(([what]) => [what, 404, 'Not found', false]));
    expect(await state.of(firm.firmId)).toEqual(before);
  }

  beforeAll(async () => {
    h = await startDocumentsHarness('groups');
    state = writtenState(h);
    body = await pdf();
    const spec = testFirmSpec('groups-on', { preferences: { has_firm_groups: true } });
    spec.groups = ['East', 'West'];
    const email = (who: string) => `${who}.${spec.slug}@example.com`;
    spec.advisors.push({
      key: 'westie',
      fname: 'Wren',
      lname: 'Westie',
      email: email('westie'),
      firmAccess: 'group',
      group: 'West',
      password: TEST_PASSWORD,
    });
    spec.clients.push({
      key: 'west',
      fname: 'Wes',
      lname: 'West',
      email: email('west'),
      password: TEST_PASSWORD,
      group: 'West',
      companies: [{ key: 'westco', name: 'Wes West Co', entityType: 'Individual' }],
    });
    firm = await h.identity.buildFirm(spec);
    const partner = actor('partner');
    await h.upload(partner, company('llc'), [{ name: 'east.pdf', body }]);
    await h.upload(partner, company('otto'), [{ name: 'nogroup.pdf', body }]);
    await h.upload(partner, company('westco'), [{ name: 'west.pdf', body }]);
  });
  afterAll(async () => {
    state.close();
    await h.stop();
  });

  it('answers 404 to an advisor of no group on every entity, in a group or not, writing nothing', async () => {
    expect(actor('nogroup')).toMatchObject({ firm_access: 'group' });
    expect(actor('nogroup').firm_group_id).toBeUndefined();
    await refusedEverything(actor('nogroup'), 'llc', 'east.pdf');
    await refusedEverything(actor('nogroup'), 'otto', 'nogroup.pdf');
    await refusedEverything(actor('nogroup'), 'westco', 'west.pdf');
  });

  it('answers 404 to a group advisor on an entity of another group, writing nothing', async () => {
    expect(actor('group').firm_group_id).toBe(firm.groups.East);
    await refusedEverything(actor('group'), 'westco', 'west.pdf');
  });

  it.each([
    ["their own group's entity", 'llc', 'east.pdf'],
    ['an entity of a user in no group', 'otto', 'nogroup.pdf'],
  ])('lets a group advisor work on %s', async (_, companyKey, file) => {
    const group = actor('group');
    expect((await h.list(group, company(companyKey))).documents.map((d) => d.name)).toContain(file);
    const done = [];
    for (const [what, call] of calls(companyKey, file)) done.push([what, await outcome(call(group))]);
    expect(done).toEqual(calls(companyKey, file).map(([what]) => [what, 'done']));
    await expect(
      h.upload(group, company(companyKey), [{ name: 'by group.pdf', body }]),
    ).resolves.toMatchObject({
      documentLocation: '/by group.pdf',
    });
  });

  it("lets the other group's advisor open that entity: the 404 is the group's", async () => {
    expect((await h.list(westAdvisor(), company('westco'))).documents.map((d) => d.name)).toContain(
      'west.pdf',
    );
    await expect(h.list(westAdvisor(), company('llc'))).rejects.toMatchObject({ status: 404 });
  });

  it('holds no advisor back in a firm with groups off', async () => {
    const off = (key: string) => h.actorOf(h.firm, key);
    const llc = h.firm.companies.llc?.id as string;
    await h.upload(off('partner'), llc, [{ name: 'open.pdf', body }]);
    for (const key of ['nogroup', 'group'])
      expect([key, (await h.list(off(key), llc)).documents.map((d) => d.name)]).toEqual([
        key,
        expect.arrayContaining(['open.pdf']),
      ]);
  });
});
