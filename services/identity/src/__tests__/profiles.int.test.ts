import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Identity } from '@portico/proto';
import pg from 'pg';
import { TEST_PASSWORD } from '../testing/fixtures.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

describe('identity users, entities and firm settings over NATS', () => {
  let h: IdentityHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const id = (key: string) => h.firm.users[key]?.id as string;
  const company = (key: string) => h.firm.companies[key]?.id as string;

  beforeAll(async () => {
    h = await startIdentityHarness('profiles');
  });
  afterAll(async () => {
    await h.stop();
  });

  describe('current user and firm', () => {
    it('returns the signed-in client with their active entities only', async () => {
      const me = await h.bus.request(Identity.currentUser, {}, { actor: actor('client') });
      expect(me).toMatchObject({
        id: id('client'),
        isAdvisor: false,
        timeZone: 'Pacific Time (US & Canada)',
      });
      expect(me.companyIds.sort()).toEqual([company('individual'), company('llc')].sort());
      expect(JSON.stringify(me)).not.toMatch(/passwordHash|argon2/i);
    });

    it('returns the firm with every preference defaulted', async () => {
      const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('group') });
      expect(firm.id).toBe(h.firm.firmId);
      expect(firm.preferences).toMatchObject({
        communication_disabled: false,
        drop_link_enabled: true,
        theme: { primary: '#1f5fa8' },
      });
      expect(firm.entityTypes).toContain('S-Corporation');
      expect(firm.firmGroups.map((g) => g.name)).toEqual(['East']);
    });

    it('brands the sign-in screen by slug, publicly, and 404s an unknown slug', async () => {
      const slug = (await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') })).slug;
      await expect(h.bus.request(Identity.firmThemeBySlug, { slug })).resolves.toMatchObject({
        primary: '#1f5fa8',
      });
      await expect(h.bus.request(Identity.firmThemeBySlug, { slug: 'no-such-firm' })).rejects.toMatchObject({
        status: 404,
      });
    });
  });

  describe('client profile', () => {
    it('saves digits-only phones, a US time zone and the contact method', async () => {
      const res = await h.bus.request(
        Identity.updateProfile,
        {
          id: id('other'),
          currentPassword: TEST_PASSWORD,
          phoneNumber: '(212) 555-0188',
          timeZone: 'Eastern Time (US & Canada)',
          preferredContactMethod: 'sms',
          workPhoneExtension: '42',
        },
        { actor: actor('other') },
      );
      expect(res.user).toMatchObject({
        phoneNumber: '2125550188',
        timeZone: 'Eastern Time (US & Canada)',
        preferredContactMethod: 'sms',
      });
      const again = await h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('other') });
      expect(again.phoneNumber).toBe('2125550188');
    });

    it('answers field messages and changes nothing when any field is bad', async () => {
      const err = await h.bus
        .request(
          Identity.updateProfile,
          {
            id: id('other'),
            currentPassword: TEST_PASSWORD,
            phoneNumber: '555',
            timeZone: 'Mars/Olympus',
            workPhoneExtension: '12',
          },
          { actor: actor('other') },
        )
        .catch((e) => e);
      expect(err).toMatchObject({ status: 400, message: 'Phone number must be 10 digits' });
      expect(err.extra.fields).toMatchObject({
        phone_number: 'Phone number must be 10 digits',
        time_zone: expect.any(String),
      });
      const after = await h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('other') });
      expect(after.workPhoneExtension).toBe('42');
      await expect(
        h.bus.request(Identity.updateProfile, { id: id('other'), email: '' }, { actor: actor('other') }),
      ).rejects.toMatchObject({ status: 400, message: 'Email is required' });
    });

    it('mails at most five confirmation links an hour, refusing the sixth before anything is saved', async () => {
      const change = (n: number) =>
        h.bus.request(
          Identity.updateProfile,
          { id: id('nogroup'), currentPassword: TEST_PASSWORD, email: `ned.${n}.${Date.now()}@example.com` },
          { actor: actor('nogroup') },
        );
      // A save refused for another field sends no link and counts for none.
      for (let n = 1; n <= 3; n++)
        await expect(
          h.bus.request(
            Identity.updateProfile,
            {
              id: id('nogroup'),
              currentPassword: TEST_PASSWORD,
              email: `refused.${n}.${Date.now()}@example.com`,
              timeZone: 'Mars',
            },
            { actor: actor('nogroup') },
          ),
        ).rejects.toMatchObject({ status: 400 });
      for (let n = 1; n <= 5; n++)
        await expect(change(n)).resolves.toMatchObject({ emailConfirmationSent: true });
      const pending = (await h.bus.request(Identity.currentUser, {}, { actor: actor('nogroup') }))
        .pendingEmail;
      await expect(change(6)).rejects.toMatchObject({
        status: 429,
        message: 'Too many confirmation emails were requested. Please wait an hour and try again.',
      });
      expect((await h.bus.request(Identity.currentUser, {}, { actor: actor('nogroup') })).pendingEmail).toBe(
        pending,
      );
      // Other tests change this user's email too: they start with no confirmations counted.
      await h.identity.query('delete from rate_limits where key = $1', [
        `email_confirmation:${id('nogroup')}`,
      ]);
      await h.identity.query('update users set pending_email = null where id = $1', [id('nogroup')]);
    });

    it('keeps the email until the new one is confirmed from the emailed link', async () => {
      const newEmail = `moved.${Date.now()}@example.com`;
      const res = await h.bus.request(
        Identity.updateProfile,
        { id: id('other'), currentPassword: TEST_PASSWORD, email: newEmail },
        { actor: actor('other') },
      );
      expect(res.emailConfirmationSent).toBe(true);
      expect(res.user?.email).toBe(h.firm.users.other?.email);
      expect(res.user?.pendingEmail).toBe(newEmail);
      const token = await h.lastLinkTokenTo(newEmail);
      const confirmed = await h.bus.request(Identity.confirmEmail, { token });
      expect(confirmed.email).toBe(newEmail);
      await expect(h.bus.request(Identity.lookupEmail, { email: newEmail })).resolves.toMatchObject({
        uid: h.firm.users.other?.uid,
      });
    });

    it("links the email confirmation to the profile page of the user's role", async () => {
      const linkTo = async (key: string) => {
        const newEmail = `${key}.moved.${Date.now()}@example.com`;
        await h.bus.request(
          Identity.updateProfile,
          { id: id(key), email: newEmail, currentPassword: TEST_PASSWORD },
          { actor: actor(key) },
        );
        return { newEmail, text: (await h.lastMessageTo(newEmail))?.text ?? '' };
      };
      const advisor = await linkTo('full');
      expect(advisor.text).toMatch(/http:\/\/portal\.test\/admin-profile\?email_token=[A-Za-z0-9_-]+\s/);
      const client = await linkTo('rocompany');
      expect(client.text).toMatch(/http:\/\/portal\.test\/profile\?email_token=[A-Za-z0-9_-]+\s/);
      const confirmed = await h.bus.request(Identity.confirmEmail, {
        token: await h.lastLinkTokenTo(advisor.newEmail),
      });
      expect(confirmed).toMatchObject({ email: advisor.newEmail, isAdvisor: true });
    });

    it('switches a user with a temporary email to email passcode only once the email from the set-email step is confirmed', async () => {
      await h.identity.query('update users set has_temp_email = true where id = $1', [id('setpw')]);
      const newEmail = `real.${Date.now()}@example.com`;
      const res = await h.bus.request(
        Identity.updateProfile,
        { id: id('setpw'), email: newEmail },
        { actor: actor('setpw') },
      );
      expect(res.emailConfirmationSent).toBe(true);
      expect(res.user).toMatchObject({ preferredSignInMethod: 'password', setPasswordRequired: true });
      const text = (await h.lastMessageTo(newEmail))?.text ?? '';
      expect(text).toContain(`http://portal.test/signin?email_token=`);
      const [firm] = await h.identity.query<{ slug: string }>('select slug from firms where id = $1', [
        h.firm.firmId,
      ]);
      expect(text).toContain(`&firm=${firm?.slug}`);
      const confirmed = await h.bus.request(Identity.confirmEmail, {
        token: await h.lastLinkTokenTo(newEmail),
      });
      expect(confirmed).toMatchObject({
        email: newEmail,
        preferredSignInMethod: 'email',
        setPasswordRequired: false,
        preferences: { hasTempEmail: false },
      });
      await expect(h.bus.request(Identity.lookupEmail, { email: newEmail })).resolves.toMatchObject({
        preferredSignInMethod: 'email',
        setPasswordRequired: false,
      });
    });

    it('keeps a sign-in method chosen after the set-email step when its email is confirmed later', async () => {
      await h.identity.query(
        'update users set has_temp_email = true, set_password_required = true where id = $1',
        [id('linkonly')],
      );
      const newEmail = `later.${Date.now()}@example.com`;
      await h.bus.request(
        Identity.updateProfile,
        { id: id('linkonly'), email: newEmail },
        { actor: actor('linkonly') },
      );
      await h.bus.request(
        Identity.setSignInMethod,
        { method: 'sms', phoneNumber: '4155550111' },
        { actor: actor('linkonly') },
      );
      const confirmed = await h.bus.request(Identity.confirmEmail, {
        token: await h.lastLinkTokenTo(newEmail),
      });
      expect(confirmed).toMatchObject({ email: newEmail, preferredSignInMethod: 'sms' });
    });

    it('leaves the sign-in method alone when a confirmed email change is an ordinary one', async () => {
      const newEmail = `plain.${Date.now()}@example.com`;
      await h.bus.request(
        Identity.updateProfile,
        { id: id('nogroup'), currentPassword: TEST_PASSWORD, email: newEmail },
        { actor: actor('nogroup') },
      );
      const confirmed = await h.bus.request(Identity.confirmEmail, {
        token: await h.lastLinkTokenTo(newEmail),
      });
      expect(confirmed).toMatchObject({ email: newEmail, preferredSignInMethod: 'password' });
    });

    it('answers 409, not 500, when two accounts confirm the same new address at once', async () => {
      const wanted = `contested.${Date.now()}@example.com`;
      const tokens: string[] = [];
      for (const key of ['client', 'other']) {
        await h.bus.request(
          Identity.updateProfile,
          { id: id(key), email: wanted, currentPassword: TEST_PASSWORD },
          { actor: actor(key) },
        );
        tokens.push(await h.lastLinkTokenTo(wanted));
      }
      const answers = await Promise.allSettled(
        tokens.map((token) => h.bus.request(Identity.confirmEmail, { token })),
      );
      const statuses = answers.map((a) =>
        a.status === 'fulfilled' ? 200 : (a.reason as { status: number }).status,
      );
      expect(statuses.sort()).toEqual([200, 409]);
    });

    it('refuses an email another user has, with This email already exists', async () => {
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('client'), currentPassword: TEST_PASSWORD, email: h.other.users.client?.email },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'This email already exists' });
    });

    it('cannot turn two-factor off when the firm forces it', async () => {
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_users: true } },
        { actor: actor('partner') },
      );
      const me = await h.bus.request(Identity.currentUser, {}, { actor: actor('client') });
      expect(me).toMatchObject({ twoFactorForced: true, enabled2fa: true });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('client'), currentPassword: TEST_PASSWORD, enabled2fa: false },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Two-factor authentication is required by your firm and cannot be turned off',
      });
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_users: false } },
        { actor: actor('partner') },
      );
    });

    it('refuses profile edits by a read-only account with the read-only message', async () => {
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('readonly'), timeZone: 'Hawaii' },
          { actor: actor('readonly') },
        ),
      ).rejects.toMatchObject({
        status: 403,
        message:
          'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
      });
    });

    it('hides other users from a client, and every user of another firm, with 404', async () => {
      await expect(
        h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('client') }),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('other'), timeZone: 'Hawaii' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({
        status: 404,
      });
      const foreign = h.other.users.client?.id;
      await expect(
        h.bus.request(Identity.getUser, { id: foreign }, { actor: actor('partner') }),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: foreign, timeZone: 'Hawaii' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 404,
      });
      await expect(
        h.bus.request(Identity.getUser, { id: 'not-a-uuid' }, { actor: actor('partner') }),
      ).rejects.toMatchObject({ status: 404 });
    });

    it('limits a group advisor to their group when firm groups are on', async () => {
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { has_firm_groups: true } },
        { actor: actor('partner') },
      );
      await expect(
        h.bus.request(Identity.getUser, { id: id('client') }, { actor: actor('group') }),
      ).resolves.toMatchObject({ id: id('client') });
      await expect(
        h.bus.request(Identity.getUser, { id: id('client') }, { actor: actor('nogroup') }),
      ).rejects.toMatchObject({ status: 404 });
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { has_firm_groups: false } },
        { actor: actor('partner') },
      );
      await expect(
        h.bus.request(Identity.getUser, { id: id('client') }, { actor: actor('nogroup') }),
      ).resolves.toMatchObject({ id: id('client') });
    });

    it('lists a group advisor only the entities they may open when firm groups are on', async () => {
      const names = async (key: string) =>
        (
          await h.bus.request(
            Identity.listCompanies,
            { rowsPerPage: 50, includeInactive: true },
            { actor: actor(key) },
          )
        ).companies.map((c) => c.id);
      const everything = await names('partner');
      // Otto's entity moves to another group for this test.
      const [west] = await h.identity.query<{ id: string }>(
        `insert into firm_groups (firm_id, name) values ($1, 'West') returning id`,
        [h.firm.firmId],
      );
      await h.identity.query('update users set firm_group_id = $1 where id = $2', [west?.id, id('other')]);
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { has_firm_groups: true } },
        { actor: actor('partner') },
      );
      try {
        const east = await names('group');
        expect(east).toEqual(expect.arrayContaining([company('individual'), company('llc')]));
        expect(east).not.toContain(company('otto'));
        expect(everything).toEqual(expect.arrayContaining(east));
        // Every entity listed opens, and the one left out does not.
        for (const companyId of east) {
          await h.bus.request(Identity.getCompany, { id: companyId }, { actor: actor('group') });
        }
        await expect(
          h.bus.request(Identity.getCompany, { id: company('otto') }, { actor: actor('group') }),
        ).rejects.toMatchObject({ status: 404 });
        expect(await names('nogroup')).toEqual([]);
        expect(await names('full')).toEqual(everything);
      } finally {
        await h.bus.request(
          Identity.updatePreferences,
          { preferences: { has_firm_groups: false } },
          { actor: actor('partner') },
        );
        await h.identity.query('update users set firm_group_id = null where id = $1', [id('other')]);
      }
      expect(await names('nogroup')).toEqual(everything);
    });

    it('lets only partners and admins edit another firm user', async () => {
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('admin'), preferredName: 'Boss' },
          { actor: actor('full') },
        ),
      ).rejects.toMatchObject({ status: 403 });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('full'), preferredName: 'Fay F.' },
          { actor: actor('partner') },
        ),
      ).resolves.toMatchObject({ user: { preferredName: 'Fay F.' } });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('full'), preferredName: 'Fay' },
          { actor: actor('admin') },
        ),
      ).resolves.toMatchObject({ user: { preferredName: 'Fay' } });
    });

    it("leaves a firm user's sign-in email and two-factor to them alone, not to a partner or admin", async () => {
      for (const change of [
        { email: 'taken.over@example.com' },
        { enabled2fa: false },
        { phoneNumber: '5550109999' },
      ])
        for (const who of ['admin', 'partner'])
          await expect(
            h.bus.request(Identity.updateProfile, { id: id('full'), ...change }, { actor: actor(who) }),
          ).rejects.toMatchObject({ status: 403, code: 'own_sign_in_only' });
      const full = await h.bus.request(Identity.getUser, { id: id('full') }, { actor: actor('full') });
      expect(full.pendingEmail).toBe('');
      // Their own, they may.
      await expect(
        h.bus.request(Identity.updateProfile, { id: id('full'), enabled2fa: true }, { actor: actor('full') }),
      ).resolves.toBeTruthy();
      await h.bus.request(
        Identity.updateProfile,
        { id: id('full'), currentPassword: TEST_PASSWORD, enabled2fa: false },
        { actor: actor('full') },
      );
    });

    it('asks for the password before a user who signs in with one changes their own email or phone, or turns two-factor off', async () => {
      const save = (change: Record<string, unknown>) =>
        h.bus.request(Identity.updateProfile, { id: id('group'), ...change }, { actor: actor('group') });
      const before = await h.bus.request(Identity.currentUser, {}, { actor: actor('group') });
      const missing = {
        status: 400,
        message: 'Current password is missing',
        extra: { fields: { current_password: 'Current password is missing' } },
      };
      await expect(save({ email: `gus.${Date.now()}@example.com` })).rejects.toMatchObject(missing);
      await expect(save({ phoneNumber: '2125550142', currentPassword: 'not-it' })).rejects.toMatchObject({
        status: 400,
        extra: { fields: { current_password: 'Current password is incorrect' } },
      });
      // A wrong one is a password attempt, as at sign-in.
      const attempts = () =>
        h.identity.query<{ failed_password_attempts: number }>(
          'select failed_password_attempts from users where id = $1',
          [id('group')],
        );
      expect(await attempts()).toEqual([{ failed_password_attempts: 1 }]);
      const after = await h.bus.request(Identity.currentUser, {}, { actor: actor('group') });
      expect(after).toMatchObject({ pendingEmail: '', phoneNumber: before.phoneNumber });

      // Unchanged values, as a form sends them with everything else, and two-factor on need none.
      await expect(
        save({ email: before.email.toUpperCase(), phoneNumber: before.phoneNumber, enabled2fa: true }),
      ).resolves.toMatchObject({ user: { enabled2fa: true } });
      await expect(save({ enabled2fa: false })).rejects.toMatchObject(missing);
      await expect(
        save({ enabled2fa: false, phoneNumber: '2125550142', currentPassword: TEST_PASSWORD }),
      ).resolves.toMatchObject({ user: { enabled2fa: false, phoneNumber: '2125550142' } });
      expect(await attempts()).toEqual([{ failed_password_attempts: 0 }]);

      // A user without a password (sign-in links) has nothing to prove it with.
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('linkonly'), phoneNumber: '2125550143' },
          { actor: actor('linkonly') },
        ),
      ).resolves.toMatchObject({ user: { phoneNumber: '2125550143' } });
    });

    it('tells a client whose phone someone else changed, since a texted code signs them in', async () => {
      const client = await h.bus.request(
        Identity.getUser,
        { id: id('linkonly') },
        { actor: actor('partner') },
      );
      await h.bus.request(
        Identity.updateProfile,
        { id: client.id, phoneNumber: '4155550142' },
        { actor: actor('partner') },
      );
      const notice = await h.lastMessageTo(client.email);
      expect(notice).toMatchObject({
        kind: 'phone_changed',
        subject: expect.stringContaining('phone number was changed'),
      });
      expect(notice?.text).not.toContain('4155550142');
    });

    it('checks two saves at once against each other: SMS contact and no phone never both stick', async () => {
      const client = id('other');
      const set = (change: Record<string, unknown>) =>
        h.bus.request(
          Identity.updateProfile,
          { id: client, currentPassword: TEST_PASSWORD, ...change },
          { actor: actor('other') },
        );
      await set({ phoneNumber: '(555) 010-0300', preferredContactMethod: 'email' });
      for (let round = 0; round < 4; round++) {
        await Promise.allSettled([set({ phoneNumber: '' }), set({ preferredContactMethod: 'sms' })]);
        const user = await h.bus.request(Identity.getUser, { id: client }, { actor: actor('other') });
        expect(user.preferredContactMethod === 'sms' && !user.phoneNumber).toBe(false);
        await set({ phoneNumber: '5550100300', preferredContactMethod: 'email' });
      }
    });

    it("keeps a client's name and a firm user's long texts to the firm's rules", async () => {
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('other'), fname: 'Someone' },
          { actor: actor('other') },
        ),
      ).rejects.toMatchObject({ status: 403, code: 'name_by_firm' });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('other'), preferredName: 'Oz' },
          { actor: actor('partner') },
        ),
      ).resolves.toBeTruthy();
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('full'), fname: 'F'.repeat(101) },
          { actor: actor('full') },
        ),
      ).rejects.toMatchObject({ status: 400 });
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('full'), outOfOffice: true, outOfOfficeMessage: 'x'.repeat(2_001) },
          { actor: actor('full') },
        ),
      ).rejects.toMatchObject({ status: 400 });
    });

    it('takes text without digits for a bad phone, not for its removal', async () => {
      await h.bus.request(
        Identity.updateProfile,
        { id: id('other'), currentPassword: TEST_PASSWORD, phoneNumber: '5550100300' },
        { actor: actor('other') },
      );
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('other'), currentPassword: TEST_PASSWORD, phoneNumber: 'call me' },
          { actor: actor('other') },
        ),
      ).rejects.toMatchObject({ status: 400 });
      const user = await h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('other') });
      expect(user.phoneNumber).toBe('5550100300');
    });

    it('takes only the US time zones of its list, not names an object happens to have', async () => {
      for (const timeZone of ['constructor', 'toString', '__proto__', 'Europe/Paris'])
        await expect(
          h.bus.request(Identity.updateProfile, { id: id('other'), timeZone }, { actor: actor('other') }),
        ).rejects.toMatchObject({ status: 400, extra: { fields: { time_zone: 'Choose a US time zone' } } });
      const after = await h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('other') });
      expect(after.timeZone).toBe('Eastern Time (US & Canada)');
    });

    it('keeps an advisor out of office only with a message for their clients', async () => {
      const update = (change: { outOfOffice?: boolean; outOfOfficeMessage?: string }) =>
        h.bus.request(Identity.updateProfile, { id: id('full'), ...change }, { actor: actor('full') });
      const required = {
        status: 400,
        extra: {
          fields: {
            out_of_office_message: 'Please enter the message clients see while you are out of office',
          },
        },
      };
      await expect(update({ outOfOffice: true })).rejects.toMatchObject(required);
      await expect(update({ outOfOffice: true, outOfOfficeMessage: '   ' })).rejects.toMatchObject(required);
      const away = await update({ outOfOffice: true, outOfOfficeMessage: ' Back on Monday. ' });
      expect(away.user).toMatchObject({ outOfOffice: true, outOfOfficeMessage: 'Back on Monday.' });
      // While away, the message cannot be emptied; once back, it can.
      await expect(update({ outOfOfficeMessage: '' })).rejects.toMatchObject(required);
      const back = await update({ outOfOffice: false, outOfOfficeMessage: '' });
      expect(back.user).toMatchObject({ outOfOffice: false, outOfOfficeMessage: '' });
    });

    it('sets the default company only to an active entity the client owns', async () => {
      await expect(
        h.bus.request(Identity.setDefaultCompany, { companyId: company('llc') }, { actor: actor('client') }),
      ).resolves.toMatchObject({
        defaultCompanyId: company('llc'),
      });
      for (const other of [company('inactive'), company('otto'), h.other.companies.individual?.id]) {
        await expect(
          h.bus.request(Identity.setDefaultCompany, { companyId: other }, { actor: actor('client') }),
        ).rejects.toMatchObject({ status: 404 });
      }
    });
  });

  describe('entities', () => {
    it('lets a client read an owned active entity but 404s inactive, unowned and foreign ones', async () => {
      await expect(
        h.bus.request(Identity.getCompany, { id: company('llc') }, { actor: actor('client') }),
      ).resolves.toMatchObject({ name: 'Cleo LLC' });
      for (const other of [company('inactive'), company('otto'), h.other.companies.llc?.id]) {
        await expect(
          h.bus.request(Identity.getCompany, { id: other }, { actor: actor('client') }),
        ).rejects.toMatchObject({ status: 404 });
      }
      await expect(
        h.bus.request(Identity.getCompany, { id: h.other.companies.llc?.id }, { actor: actor('partner') }),
      ).rejects.toMatchObject({ status: 404 });
    });

    it('saves the client entity profile with CA labels and a known country only', async () => {
      const saved = await h.bus.request(
        Identity.updateCompanyProfile,
        {
          id: company('llc'),
          street: '1 Bay St',
          city: 'Toronto',
          state: 'ON',
          zip: 'M5J 2N8',
          country: 'CA',
          businessEmail: 'Office@CleoLLC.com',
        },
        { actor: actor('client') },
      );
      expect(saved).toMatchObject({ country: 'CA', city: 'Toronto', businessEmail: 'office@cleollc.com' });
      await expect(
        h.bus.request(
          Identity.updateCompanyProfile,
          { id: company('llc'), country: 'Narnia' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'Choose a country from the list' });
    });

    it('refuses the client entity profile to advisors, read-only entities and firm-only fields', async () => {
      await expect(
        h.bus.request(
          Identity.updateCompanyProfile,
          { id: company('llc'), city: 'X' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 403,
      });
      await expect(
        h.bus.request(
          Identity.updateCompanyProfile,
          { id: h.firm.companies.rex_ro?.id, city: 'X' },
          { actor: actor('rocompany') },
        ),
      ).rejects.toMatchObject({
        status: 403,
        message:
          'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
      });
      await expect(
        h.bus.request(
          Identity.updateCompanyProfile,
          { id: company('llc'), readonlyAccess: false },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({ status: 403 });
    });

    it('applies the entity name rules with the exact messages', async () => {
      const update = (name: string) =>
        h.bus.request(Identity.updateCompany, { id: company('llc'), name }, { actor: actor('full') });
      await expect(update('A/B')).rejects.toMatchObject({
        status: 400,
        message: 'Entity Name cannot contain a "/" character.',
      });
      await expect(update('The "Best"')).rejects.toMatchObject({
        status: 400,
        message: 'Entity Name cannot contain a " character.',
      });
      await expect(update('  ')).rejects.toMatchObject({ status: 400 });
      await expect(update('cleo client')).rejects.toMatchObject({
        status: 400,
        message: 'Entity Name already exists.',
      });
      // A blank-looking name that turns the text around, and a copy of another's with a hidden space.
      for (const hidden of ['\u200b\u202e', 'Cleo Client\u200b'])
        await expect(update(hidden)).rejects.toMatchObject({
          status: 400,
          message: 'Entity Name cannot contain invisible characters.',
        });
      await expect(update('Cleo Ventures LLC')).resolves.toMatchObject({ name: 'Cleo Ventures LLC' });
      // Stored in one Unicode form: the same name typed with a combining accent is the same name.
      await expect(update('Cafe\u0301 Cleo')).resolves.toMatchObject({ name: 'Caf\u00e9 Cleo' });
      // ...so another entity of the same client typed so is refused as the same name.
      await expect(
        h.bus.request(
          Identity.updateCompany,
          { id: company('individual'), name: 'Cafe\u0301 Cleo' },
          { actor: actor('full') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'Entity Name already exists.' });
      await update('Cleo Ventures LLC');
    });

    it('saves an entity whose name another entity of its owners already has, while the name stays', async () => {
      // As two renames at once, or an owner added to a second entity of the same name, can leave it.
      const [before] = await h.identity.query<{ name: string }>('select name from companies where id = $1', [
        company('llc'),
      ]);
      await h.identity.query('update companies set name = $2 where id = $1', [company('llc'), 'Cleo Client']);
      try {
        await expect(
          h.bus.request(
            Identity.updateCompany,
            { id: company('llc'), name: 'Cleo Client', city: 'Fresno' },
            { actor: actor('partner') },
          ),
        ).resolves.toMatchObject({ name: 'Cleo Client', city: 'Fresno' });
      } finally {
        await h.identity.query('update companies set name = $2 where id = $1', [
          company('llc'),
          before?.name,
        ]);
      }
    });

    it('checks read-only against the entity as another save left it, not as it was read before', async () => {
      // Another save makes the entity inactive and holds its row; the read-only change read it active.
      const other = new pg.Client({ connectionString: h.identity.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`select set_config('app.bypass_rls', 'on', true)`);
        await other.query('update companies set inactive = true where id = $1', [company('llc')]);
        const toggled = h.bus
          .request(
            Identity.updateCompany,
            { id: company('llc'), readonlyAccess: true },
            { actor: actor('partner') },
          )
          .catch((e) => e);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query('commit');
        expect(await toggled).toMatchObject({
          status: 400,
          message: 'Read-only cannot be changed while the entity is inactive',
        });
        const [row] = await h.identity.query<{ readonly_access: boolean }>(
          'select readonly_access from companies where id = $1',
          [company('llc')],
        );
        expect(row?.readonly_access).toBe(false);
      } finally {
        await other.end();
        await h.identity.query('update companies set inactive = false where id = $1', [company('llc')]);
      }
    });

    it('refuses the firm entity edit to clients and read-only changes while inactive', async () => {
      await expect(
        h.bus.request(
          Identity.updateCompany,
          { id: company('llc'), name: 'Mine' },
          { actor: actor('client') },
        ),
      ).rejects.toMatchObject({
        status: 403,
      });
      await expect(
        h.bus.request(
          Identity.updateCompany,
          { id: company('inactive'), readonlyAccess: true },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Read-only cannot be changed while the entity is inactive',
      });
    });

    it("shows 'Individual (Not Allowed)' when the firm disallows individuals", async () => {
      await h.identity.query(`update firms set individual_allowed = false where id = $1`, [h.firm.firmId]);
      await expect(
        h.bus.request(
          Identity.updateCompany,
          { id: company('llc'), entityType: 'Individual' },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'Individual (Not Allowed)' });
      const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
      expect(firm.entityTypes).toContain('Individual (Not Allowed)');
      await h.identity.query(`update firms set individual_allowed = true where id = $1`, [h.firm.firmId]);
    });

    it('lists entities: all for advisors with paging, active owned ones for clients', async () => {
      const page = await h.bus.request(
        Identity.listCompanies,
        { rowsPerPage: 10, page: 1, includeInactive: true },
        { actor: actor('partner') },
      );
      expect(page.totalCount).toBe(Object.keys(h.firm.companies).length);
      const search = await h.bus.request(
        Identity.listCompanies,
        { searchTerm: 'otto', rowsPerPage: 10 },
        { actor: actor('partner') },
      );
      expect(search.companies.map((c) => c.name)).toEqual(['Otto Other']);
      const mine = await h.bus.request(
        Identity.listCompanies,
        { includeInactive: true },
        { actor: actor('client') },
      );
      expect(mine.companies.every((c) => !c.inactive)).toBe(true);
      expect(mine.totalCount).toBe(2);
    });

    it('lists the entities of one type for the chips selection by type, inactive ones to advisors only', async () => {
      const ofType = async (entityType: string, key: string) =>
        (
          await h.bus.request(
            Identity.listCompanies,
            { entityType, rowsPerPage: 50, includeInactive: true },
            { actor: actor(key) },
          )
        ).companies.map((c) => c.id);
      expect(await ofType('Partnership', 'partner')).toEqual([company('llc')]);
      expect(await ofType('S-Corporation', 'partner')).toEqual([company('inactive')]);
      expect(await ofType('S-Corporation', 'client')).toEqual([]);
      expect((await ofType('Individual', 'partner')).length).toBeGreaterThan(1);
    });

    it('lists entities newest first unless descending is false', async () => {
      const list = (descending?: boolean) =>
        h.bus.request(
          Identity.listCompanies,
          { rowsPerPage: 100, includeInactive: true, ...(descending === undefined ? {} : { descending }) },
          { actor: actor('partner') },
        );
      const byDefault = (await list()).companies.map((c) => c.id);
      const newestFirst = (await list(true)).companies.map((c) => c.id);
      const oldestFirst = (await list(false)).companies.map((c) => c.id);
      expect(byDefault).toEqual(newestFirst);
      expect(oldestFirst).toEqual([...newestFirst].reverse());
      expect(new Set(oldestFirst).size).toBeGreaterThan(2);
    });
  });

  describe('firm preferences', () => {
    it('are saved by partners only, as a whole merged object', async () => {
      for (const key of ['admin', 'full', 'group', 'client']) {
        await expect(
          h.bus.request(
            Identity.updatePreferences,
            { preferences: { tour_enabled: false } },
            { actor: actor(key) },
          ),
        ).rejects.toMatchObject({ status: 403 });
      }
      const firm = await h.bus.request(
        Identity.updatePreferences,
        { preferences: { communication_disabled: true, theme: { primary: '#112233' } } },
        { actor: actor('partner') },
      );
      expect(firm.preferences).toMatchObject({
        communication_disabled: true,
        theme: { primary: '#112233' },
        tour_enabled: true,
      });
      // The row keeps what differs from the defaults, so a later release's default reaches the rest.
      const [row] = await h.identity.query<{ preferences: Record<string, unknown> }>(
        'select preferences from firms where id = $1',
        [h.firm.firmId],
      );
      expect(row?.preferences).toMatchObject({ communication_disabled: true, theme: { primary: '#112233' } });
      expect(row?.preferences).not.toHaveProperty('tour_enabled');
    });

    it('takes a repeated drop link recipient for a change of the list, saved once', async () => {
      await h.bus.request(
        Identity.setDropLinkRecipients,
        { userIds: [id('admin'), id('full')] },
        { actor: actor('admin') },
      );
      const firm = await h.bus.request(
        Identity.updatePreferences,
        { preferences: { firm_user_ids_to_receive_drop_link_notification: [id('admin'), id('admin')] } },
        { actor: actor('partner') },
      );
      expect(firm.preferences).toMatchObject({
        firm_user_ids_to_receive_drop_link_notification: [id('admin')],
      });
    });

    it('refuses unknown keys and wrong types without saving anything', async () => {
      const err = await h.bus
        .request(
          Identity.updatePreferences,
          { preferences: { tour_enabled: 'yes', made_up: true, drop_link_enabled: false } },
          { actor: actor('partner') },
        )
        .catch((e) => e);
      expect(err.status).toBe(400);
      expect(err.extra.fields).toMatchObject({
        tour_enabled: 'Must be a boolean',
        made_up: 'Unknown preference',
      });
      const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
      expect(firm.preferences).toMatchObject({ drop_link_enabled: true });
    });

    it('keeps both of two preference saves made at once', async () => {
      for (let round = 0; round < 4; round++) {
        const tour = round % 2 === 0;
        const recipients = tour ? [id('admin')] : [id('full')];
        await Promise.all([
          h.bus.request(
            Identity.updatePreferences,
            { preferences: { tour_enabled: tour } },
            { actor: actor('partner') },
          ),
          h.bus.request(Identity.setDropLinkRecipients, { userIds: recipients }, { actor: actor('admin') }),
        ]);
        const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
        expect(firm.preferences).toMatchObject({
          tour_enabled: tour,
          firm_user_ids_to_receive_drop_link_notification: recipients,
        });
      }
    });

    it("keeps who is told of drop-offs: partners, admins and full users choose at least one of the firm's advisors", async () => {
      const set = (key: string, userIds: string[], as = actor(key)) =>
        h.bus.request(Identity.setDropLinkRecipients, { userIds }, { actor: as });
      for (const key of ['group', 'client', 'readonly']) {
        await expect(set(key, [id('partner')])).rejects.toMatchObject({ status: 403 });
      }
      await expect(set('admin', [])).rejects.toMatchObject({
        status: 400,
        message: 'Please select at least one user to receive notifications',
      });
      // A client of the firm, another firm's partner, or no user at all: not the firm's advisors.
      for (const ids of [[id('client')], [h.other.users.partner?.id as string], ['not-a-user']]) {
        await expect(set('admin', ids)).rejects.toMatchObject({
          status: 400,
          message: 'Choose firm users from the list',
        });
      }
      const saved = await set('full', [id('full'), id('admin'), id('full')]);
      expect(saved.firmUserIdsToReceiveDropLinkNotification).toEqual([id('full'), id('admin')]);
      const firm = await h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
      expect(firm.preferences).toMatchObject({
        firm_user_ids_to_receive_drop_link_notification: [id('full'), id('admin')],
      });
      // The whole-object settings save holds to the same rule when it changes the list, not otherwise.
      await expect(
        h.bus.request(
          Identity.updatePreferences,
          { preferences: { firm_user_ids_to_receive_drop_link_notification: [] } },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Please select at least one user to receive notifications',
      });
      // Not ids at all: a refusal, not a failure.
      await expect(
        h.bus.request(
          Identity.updatePreferences,
          { preferences: { firm_user_ids_to_receive_drop_link_notification: [42, null] } },
          { actor: actor('partner') },
        ),
      ).rejects.toMatchObject({ status: 400, message: 'Choose firm users from the list' });
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { ...firm.preferences, tour_enabled: true } },
        { actor: actor('partner') },
      );
      const other = await h.bus.request(Identity.currentFirm, {}, { actor: h.actorOf(h.other, 'partner') });
      expect(other.preferences).toMatchObject({ firm_user_ids_to_receive_drop_link_notification: [] });
    });

    it("never changes another firm's preferences", async () => {
      const otherFirm = () =>
        h.bus.request(Identity.currentFirm, {}, { actor: h.actorOf(h.other, 'partner') });
      const before = await otherFirm();
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { message_tags_disabled: !before.preferences?.message_tags_disabled } },
        { actor: actor('partner') },
      );
      expect((await otherFirm()).preferences).toEqual(before.preferences);
    });
  });
});
