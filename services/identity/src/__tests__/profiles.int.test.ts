import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@portico/platform/testing';
import { Identity } from '@portico/proto';
import pg from 'pg';
import { type BuiltFirm, TEST_PASSWORD, testFirmSpec } from '../testing/index.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

describe('identity users, entities and firm settings over NATS', () => {
  let h: IdentityHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const id = (key: string) => h.firm.users[key]?.id as string;
  const company = (key: string) => h.firm.companies[key]?.id as string;
  /**
   * Waits until a statement of another connection waits for a lock `holder` holds: the request has passed
   * its check before the lock and reached the row, so what it answers comes from its check after the lock.
   */
  const waitForLockBehind = async (holder: pg.Client) => {
    const [held] = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    await waitFor(
      async () =>
        (
          await h.identity.query(
            `select 1 from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and $1 = any(pg_blocking_pids(pid))`,
            [held?.pid],
          )
        ).length > 0,
      10_000,
      'the request to wait for the row lock the other connection holds',
    );
  };

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

    it('answers a client only what the client portal shows of the firm, and advisors all of it', async () => {
      const firmOf = (key: string) => h.bus.request(Identity.currentFirm, {}, { actor: actor(key) });
      await h.bus.request(
        Identity.setDropLinkRecipients,
        { userIds: [id('admin')] },
        { actor: actor('admin') },
      );
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { customElements: { header: 'Internal note' }, in_app_banner_text: 'Closed Friday' } },
        { actor: actor('partner') },
      );
      await h.identity.query(
        `update firms set contact_tags = '{VIP}', entity_tags = '{Audit}', document_tags = '{W-2}' where id = $1`,
        [h.firm.firmId],
      );
      try {
        const advisor = await firmOf('full');
        expect(advisor).toMatchObject({
          contactTags: ['VIP'],
          entityTags: ['Audit'],
          documentTags: ['W-2'],
          firmGroups: [{ name: 'East' }],
          preferences: {
            firm_user_ids_to_receive_drop_link_notification: [id('admin')],
            customElements: { header: 'Internal note' },
            tour_enabled: true,
          },
        });
        expect(advisor.entityTypes.length).toBeGreaterThan(0);
        expect(advisor.preferencesVersion).toBeGreaterThan(0);

        const client = await firmOf('client');
        expect(client).toMatchObject({
          id: h.firm.firmId,
          name: advisor.name,
          slug: advisor.slug,
          logoUrl: advisor.logoUrl,
          timeZone: advisor.timeZone,
          contactTags: [],
          entityTags: [],
          documentTags: [],
          entityTypes: [],
          firmGroups: [],
        });
        expect(client.preferences).toEqual({
          theme: advisor.preferences?.theme,
          in_app_banner_enabled: false,
          in_app_banner_text: 'Closed Friday',
          communication_disabled: advisor.preferences?.communication_disabled,
          hide_documents_view_from_clients: false,
          disable_folder_action: false,
          disable_file_edit_action: false,
          force_2fa_on_users: false,
        });
        expect(JSON.stringify(client)).not.toContain(id('admin'));
      } finally {
        await h.identity.query(
          `update firms set contact_tags = '{}', entity_tags = '{}', document_tags = '{}' where id = $1`,
          [h.firm.firmId],
        );
      }
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

    it('bounds confirmation links of saves sent at once as of saves sent one by one', async () => {
      const key = `email_confirmation:${id('nogroup')}`;
      await h.identity.query('delete from rate_limits where key = $1', [key]);
      const saves = await Promise.allSettled(
        Array.from({ length: 8 }, (_, n) =>
          h.bus.request(
            Identity.updateProfile,
            {
              id: id('nogroup'),
              currentPassword: TEST_PASSWORD,
              email: `burst.${n}.${Date.now()}@example.com`,
            },
            { actor: actor('nogroup') },
          ),
        ),
      );
      const refused = saves
        .filter((r) => r.status === 'rejected')
        .map((r) => (r.reason as { status?: number }).status);
      expect(saves.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(5);
      expect(refused.filter((status) => status === 429).length).toBeGreaterThanOrEqual(3);
      await h.identity.query('delete from rate_limits where key = $1', [key]);
      await h.identity.query('update users set pending_email = null where id = $1', [id('nogroup')]);
    });

    it('saves nothing when the confirmation of a new email cannot be sent, and all of it once it can', async () => {
      const save = {
        id: id('twofa'),
        currentPassword: TEST_PASSWORD,
        email: `tia.moved.${Date.now()}@example.com`,
        timeZone: 'Hawaii',
        workPhoneExtension: '77',
      };
      const secrets = () =>
        h.identity.query<{ n: number }>(
          `select count(*)::int as n from one_time_secrets where user_id = $1 and purpose = 'email_confirmation'`,
          [id('twofa')],
        );
      const before = await h.bus.request(Identity.currentUser, {}, { actor: actor('twofa') });
      const secretsBefore = await secrets();
      await h.withNotificationsDown(async () => {
        await expect(
          h.bus.request(Identity.updateProfile, save, { actor: actor('twofa') }),
        ).rejects.toMatchObject({ status: 503 });
      });
      expect(await h.bus.request(Identity.currentUser, {}, { actor: actor('twofa') })).toEqual(before);
      expect(await secrets()).toEqual(secretsBefore);
      // Counted before the link went, and given back when it could not go.
      expect(
        await h.identity.query('select coalesce(sum(count), 0)::int as n from rate_limits where key = $1', [
          `email_confirmation:${id('twofa')}`,
        ]),
      ).toEqual([{ n: 0 }]);

      const saved = await h.bus.request(Identity.updateProfile, save, { actor: actor('twofa') });
      expect(saved).toMatchObject({
        emailConfirmationSent: true,
        user: { pendingEmail: save.email, timeZone: 'Hawaii', workPhoneExtension: '77' },
      });
      expect(await h.lastLinkTokenTo(save.email)).not.toBe('');
    });

    it("retires the old address's links in the same transaction as the confirmed change, or changes nothing", async () => {
      const newEmail = `tia.confirmed.${Date.now()}@example.com`;
      const { user } = await h.bus.request(
        Identity.updateProfile,
        { id: id('twofa'), currentPassword: TEST_PASSWORD, email: newEmail },
        { actor: actor('twofa') },
      );
      if (!user) throw new Error('no user answered');
      // A reset link sent to the old address; retiring it fails for this test.
      await h.bus.request(Identity.forgotPassword, { email: user.email });
      await h.identity.query(`create function refuse_retiring() returns trigger language plpgsql as $$
        begin raise exception 'retiring refused for this test'; end $$`);
      await h.identity.query(`create trigger refuse_retiring before update on one_time_secrets for each row
        when (new.purpose = 'password_reset' and old.consumed_at is null and new.consumed_at is not null)
        execute function refuse_retiring()`);
      try {
        await expect(
          h.bus.request(Identity.confirmEmail, { token: await h.lastLinkTokenTo(newEmail) }),
        ).rejects.toMatchObject({ status: 500 });
      } finally {
        await h.identity.query('drop trigger refuse_retiring on one_time_secrets');
        await h.identity.query('drop function refuse_retiring()');
      }
      const after = await h.bus.request(Identity.currentUser, {}, { actor: actor('twofa') });
      expect(after).toMatchObject({ email: user.email, pendingEmail: newEmail });
      const live = await h.identity.query(
        `select 1 from one_time_secrets where user_id = $1 and purpose = 'password_reset' and consumed_at is null`,
        [id('twofa')],
      );
      expect(live).toHaveLength(1);
      await h.identity.query('update users set pending_email = null where id = $1', [id('twofa')]);
    });

    it('sends no confirmation link for a save refused for another field', async () => {
      const newEmail = `refused.${Date.now()}@example.com`;
      await expect(
        h.bus.request(
          Identity.updateProfile,
          { id: id('other'), currentPassword: TEST_PASSWORD, email: newEmail, timeZone: 'Mars' },
          { actor: actor('other') },
        ),
      ).rejects.toMatchObject({ status: 400 });
      expect(await h.lastMessageTo(newEmail)).toBeUndefined();
      expect((await h.bus.request(Identity.currentUser, {}, { actor: actor('other') })).pendingEmail).toBe(
        '',
      );
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

    it('withdraws a change waiting for confirmation when the user asks, not when a save sends the address they have, and shows none once its link expired', async () => {
      const me = actor('admin');
      const own = h.firm.users.admin?.email as string;
      const save = (change: { email?: string; timeZone?: string; cancelEmailChange?: boolean }) =>
        h.bus.request(
          Identity.updateProfile,
          { id: id('admin'), currentPassword: TEST_PASSWORD, ...change },
          { actor: me },
        );
      const typo = `typo.${Date.now()}@example.com`;
      await expect(save({ email: typo })).resolves.toMatchObject({ user: { pendingEmail: typo } });
      const typoLink = await h.lastLinkTokenTo(typo);
      // The spec's form sends every field with each save: the address the account has changes nothing.
      await expect(save({ email: own.toUpperCase(), timeZone: 'Hawaii' })).resolves.toMatchObject({
        user: { email: own, pendingEmail: typo },
      });
      await expect(save({ cancelEmailChange: true })).resolves.toMatchObject({
        emailConfirmationSent: false,
        user: { email: own, pendingEmail: '' },
      });
      await expect(h.bus.request(Identity.confirmEmail, { token: typoLink })).rejects.toMatchObject({
        status: 410,
      });
      expect((await h.bus.request(Identity.currentUser, {}, { actor: me })).email).toBe(own);

      // Only the user withdraws their own change.
      const other = `other.${Date.now()}@example.com`;
      await h.bus.request(
        Identity.updateProfile,
        { id: id('client'), currentPassword: TEST_PASSWORD, email: other },
        { actor: actor('client') },
      );
      await h.bus.request(
        Identity.updateProfile,
        { id: id('client'), cancelEmailChange: true },
        { actor: actor('partner') },
      );
      expect(await h.bus.request(Identity.currentUser, {}, { actor: actor('client') })).toMatchObject({
        pendingEmail: other,
      });
      await h.bus.request(
        Identity.updateProfile,
        { id: id('client'), cancelEmailChange: true },
        { actor: actor('client') },
      );

      const late = `late.${Date.now()}@example.com`;
      await save({ email: late });
      await h.identity.query(
        `update one_time_secrets set expires_at = now() - interval '1 second'
          where user_id = $1 and purpose = 'email_confirmation' and consumed_at is null`,
        [id('admin')],
      );
      expect(await h.bus.request(Identity.currentUser, {}, { actor: me })).toMatchObject({
        email: own,
        pendingEmail: '',
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
      // The token in the fragment, which the browser sends to no server: out of the edge's logs.
      const advisor = await linkTo('full');
      expect(advisor.text).toMatch(/http:\/\/portal\.test\/admin-profile#email_token=[A-Za-z0-9_-]+\s/);
      expect((await h.lastLinkTo(advisor.newEmail)).search).toBe('');
      const client = await linkTo('rocompany');
      expect(client.text).toMatch(/http:\/\/portal\.test\/profile#email_token=[A-Za-z0-9_-]+\s/);
      expect((await h.lastLinkTo(client.newEmail)).search).toBe('');
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
      const [firm] = await h.identity.query<{ slug: string }>('select slug from firms where id = $1', [
        h.firm.firmId,
      ]);
      expect(text).toContain(`http://portal.test/signin?firm=${firm?.slug}#email_token=`);
      expect((await h.lastLinkTo(newEmail)).searchParams.has('email_token')).toBe(false);
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

    it("holds each forced two-factor setting to its own users: firm users', clients', and a partner's edit of a client", async () => {
      const forced = {
        status: 400,
        message: 'Two-factor authentication is required by your firm and cannot be turned off',
      };
      const turnOff = (key: string, by = key) =>
        h.bus.request(
          Identity.updateProfile,
          { id: id(key), enabled2fa: false, ...(by === key ? { currentPassword: TEST_PASSWORD } : {}) },
          { actor: actor(by) },
        );
      const force = (preferences: Record<string, boolean>) =>
        h.bus.request(Identity.updatePreferences, { preferences }, { actor: actor('partner') });
      try {
        await force({ force_2fa_on_firm_users: true, force_2fa_on_users: false });
        await expect(turnOff('full')).rejects.toMatchObject(forced);
        await expect(turnOff('client')).resolves.toMatchObject({ user: { enabled2fa: false } });

        await force({ force_2fa_on_firm_users: false, force_2fa_on_users: true });
        await expect(turnOff('full')).resolves.toMatchObject({ user: { enabled2fa: false } });
        await expect(turnOff('client', 'partner')).rejects.toMatchObject(forced);
      } finally {
        await force({ force_2fa_on_firm_users: false, force_2fa_on_users: false });
      }
    });

    it('tells the user when they turn two-factor off, and leaves the toggle to them, not to an advisor', async () => {
      // Its address as it is now (an earlier test moved it).
      const client = await h.bus.request(Identity.currentUser, {}, { actor: actor('other') });
      const set = (enabled2fa: boolean, by = 'other', more: Record<string, unknown> = {}) =>
        h.bus.request(
          Identity.updateProfile,
          {
            id: id('other'),
            enabled2fa,
            ...(by === 'other' ? { currentPassword: TEST_PASSWORD } : {}),
            ...more,
          },
          { actor: actor(by) },
        );
      const enabled = async () =>
        (await h.bus.request(Identity.getUser, { id: id('other') }, { actor: actor('other') })).enabled2fa;
      const before = (await h.messagesOfKind(client.email, 'two_factor_off', 0)).length;
      await set(true);
      await set(false);
      await set(true);
      // Spec 1 s.2.8: the toggle is in the user's own profile editor; the firm's edit of a client (spec 3
      // s.7) has none. Any advisor who may edit the client is refused, and nothing changes.
      const ownOnly = {
        status: 403,
        code: 'own_sign_in_only',
        message:
          'Only the user can change their own sign-in email, phone number and two-factor authentication',
      };
      for (const by of ['partner', 'full', 'group'])
        await expect(set(false, by)).rejects.toMatchObject(ownOnly);
      expect(await enabled()).toBe(true);
      await set(false);
      await expect(set(true, 'partner')).rejects.toMatchObject(ownOnly);
      expect(await enabled()).toBe(false);
      // Sent unchanged with the rest of a form, it changes nothing and is no refusal.
      await expect(set(false, 'partner', { timeZone: 'Hawaii' })).resolves.toMatchObject({
        user: { enabled2fa: false, timeZone: 'Hawaii' },
      });
      await set(false, 'other', { timeZone: 'Eastern Time (US & Canada)' });
      const notices = await h.messagesOfKind(client.email, 'two_factor_off', before + 2);
      expect(notices[0]?.subject).toMatch(/^Two-factor authentication was turned off/);
    });

    it("refuses an advisor's form that would put back a client's two-factor they changed meanwhile", async () => {
      // The client's own save turning two-factor on holds their row; the partner's form, read before it,
      // sends it off (unchanged as read) with a new time zone.
      const other = new pg.Client({ connectionString: h.identity.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`select set_config('app.bypass_rls', 'on', true)`);
        await other.query('update users set enabled_2fa = true where id = $1', [id('other')]);
        const partnerSave = h.bus
          .request(
            Identity.updateProfile,
            { id: id('other'), enabled2fa: false, timeZone: 'Hawaii' },
            { actor: actor('partner') },
          )
          .catch((e) => e);
        await waitForLockBehind(other);
        await other.query('commit');
        expect(await partnerSave).toMatchObject({ status: 403, code: 'own_sign_in_only' });
        const [row] = await h.identity.query<{ enabled_2fa: boolean; time_zone: string }>(
          'select enabled_2fa, time_zone from users where id = $1',
          [id('other')],
        );
        expect(row).toEqual({ enabled_2fa: true, time_zone: 'Eastern Time (US & Canada)' });
      } finally {
        await other.end();
        await h.identity.query('update users set enabled_2fa = false where id = $1', [id('other')]);
      }
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
      // Each a change of what the firm user has (two-factor is off): sent unchanged, they are allowed.
      for (const change of [
        { email: 'taken.over@example.com' },
        { enabled2fa: true },
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

    it("lets a partner or admin save a firm user's form that sends their sign-in fields unchanged", async () => {
      await h.identity.query(`update users set phone_number = '4155550100' where id = $1`, [id('full')]);
      try {
        const full = await h.bus.request(Identity.getUser, { id: id('full') }, { actor: actor('partner') });
        for (const who of ['partner', 'admin'])
          await expect(
            h.bus.request(
              Identity.updateProfile,
              {
                id: id('full'),
                email: ` ${full.email.toUpperCase()} `,
                phoneNumber: '(415) 555-0100',
                enabled2fa: full.enabled2fa,
                preferredName: `Fay by ${who}`,
              },
              { actor: actor(who) },
            ),
          ).resolves.toMatchObject({
            user: { preferredName: `Fay by ${who}`, email: full.email, phoneNumber: '4155550100' },
            emailConfirmationSent: false,
          });
        // Any one of them changed is still theirs alone.
        for (const change of [
          { email: `x${full.email}` },
          { phoneNumber: '4155550101' },
          { enabled2fa: !full.enabled2fa },
        ])
          await expect(
            h.bus.request(
              Identity.updateProfile,
              { id: id('full'), email: full.email, phoneNumber: '4155550100', ...change },
              { actor: actor('partner') },
            ),
          ).rejects.toMatchObject({ status: 403, code: 'own_sign_in_only' });
      } finally {
        await h.identity.query(`update users set phone_number = '', preferred_name = 'Fay' where id = $1`, [
          id('full'),
        ]);
      }
    });

    it("refuses a partner's form that would put back a firm user's phone they changed meanwhile", async () => {
      // The firm user's own save of a new phone holds their row; the partner's form, read before it,
      // sends the old phone with a new preferred name.
      const other = new pg.Client({ connectionString: h.identity.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`select set_config('app.bypass_rls', 'on', true)`);
        await other.query(`update users set phone_number = '4155550177' where id = $1`, [id('full')]);
        const partnerSave = h.bus
          .request(
            Identity.updateProfile,
            { id: id('full'), phoneNumber: '', preferredName: 'Fay P.' },
            { actor: actor('partner') },
          )
          .catch((e) => e);
        await waitForLockBehind(other);
        await other.query('commit');
        expect(await partnerSave).toMatchObject({ status: 403, code: 'own_sign_in_only' });
        const [row] = await h.identity.query<{ phone_number: string; preferred_name: string }>(
          'select phone_number, preferred_name from users where id = $1',
          [id('full')],
        );
        expect(row).toEqual({ phone_number: '4155550177', preferred_name: 'Fay' });
      } finally {
        await other.end();
        await h.identity.query(`update users set phone_number = '' where id = $1`, [id('full')]);
      }
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
      const [notice] = await h.messagesOfKind(client.email, 'phone_changed');
      expect(notice).toMatchObject({
        subject: expect.stringContaining('phone number was changed'),
        text: expect.stringContaining('(***) ***-0142'),
      });
      expect(notice?.text).not.toContain('4155550142');
    });

    it('tells of the change once notifications is back, when it was away as the change was saved', async () => {
      const client = await h.bus.request(
        Identity.getUser,
        { id: id('linkonly') },
        { actor: actor('partner') },
      );
      const before = (await h.messagesOfKind(client.email, 'phone_changed', 0)).length;
      await h.withNotificationsDown(async () => {
        await expect(
          h.bus.request(
            Identity.updateProfile,
            { id: client.id, phoneNumber: '4155550177' },
            { actor: actor('partner') },
          ),
        ).resolves.toMatchObject({ user: { phoneNumber: '4155550177' } });
      });
      const notices = await h.messagesOfKind(client.email, 'phone_changed', before + 1);
      expect(notices).toHaveLength(before + 1);
      expect(notices[0]?.text).toContain('(***) ***-0177');
      // Saving the same number again is no change, and tells nothing.
      await h.bus.request(
        Identity.updateProfile,
        { id: client.id, phoneNumber: '4155550177' },
        { actor: actor('partner') },
      );
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await h.messagesOfKind(client.email, 'phone_changed', 0)).toHaveLength(before + 1);
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
    it('refuses a read-only account its default company, by the flag as stored', async () => {
      const readOnly = {
        status: 403,
        code: 'account_read_only',
        message:
          'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
      };
      const stored = async () =>
        (
          await h.identity.query<{ default_company_id: string | null }>(
            'select default_company_id from users where id = $1',
            [id('readonly')],
          )
        )[0]?.default_company_id;
      const before = await stored();
      await h.identity.query('update users set default_company_id = null where id = $1', [id('readonly')]);
      try {
        // As the access token says, and as the database says when the token is older than the flag.
        for (const as of [actor('readonly'), { ...actor('readonly'), readonly_access: false }])
          await expect(
            h.bus.request(Identity.setDefaultCompany, { companyId: company('rita') }, { actor: as }),
          ).rejects.toMatchObject(readOnly);
        expect(await stored()).toBeNull();
      } finally {
        await h.identity.query('update users set default_company_id = $2 where id = $1', [
          id('readonly'),
          before,
        ]);
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

    it('refuses a name another entity of its owners has whose lower case differs between JavaScript and PostgreSQL', async () => {
      // JavaScript lowers 'İ' to two characters and a word-final 'Σ' to 'ς'; PostgreSQL's lower() does
      // neither. The check compares as the name's lock is keyed, in PostgreSQL.
      const names = await h.identity.query<{ id: string; name: string }>(
        'select id, name from companies where id = any($1)',
        [[company('llc'), company('individual')]],
      );
      const rename = (companyId: string, name: string) =>
        h.bus.request(Identity.updateCompany, { id: companyId, name }, { actor: actor('full') });
      try {
        for (const name of ['İSTANBUL CLEO', 'CLEO ΟΔΟΣ']) {
          await expect(rename(company('individual'), name)).resolves.toMatchObject({ name });
          await expect(rename(company('llc'), name)).rejects.toMatchObject({
            status: 400,
            message: 'Entity Name already exists.',
          });
        }
      } finally {
        for (const { id: companyId, name } of names)
          await h.identity.query('update companies set name = $2 where id = $1', [companyId, name]);
      }
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

    it('refuses one of two renames at once that give entities of the same owner one name', async () => {
      // The first rename has passed the name check and waits for its entity's row, held by another
      // save; meanwhile the second renames a sibling entity to the same name and commits.
      const names = await h.identity.query<{ id: string; name: string }>(
        'select id, name from companies where id = any($1)',
        [[company('llc'), company('individual')]],
      );
      const other = new pg.Client({ connectionString: h.identity.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`select set_config('app.bypass_rls', 'on', true)`);
        await other.query('select id from companies where id = $1 for update', [company('llc')]);
        const first = h.bus
          .request(
            Identity.updateCompany,
            { id: company('llc'), name: 'Cleo Twins' },
            { actor: actor('partner') },
          )
          .catch((e) => e);
        await waitForLockBehind(other);
        await expect(
          h.bus.request(
            Identity.updateCompany,
            { id: company('individual'), name: 'cleo twins' },
            { actor: actor('full') },
          ),
        ).resolves.toMatchObject({ name: 'cleo twins' });
        await other.query('commit');
        expect(await first).toMatchObject({ status: 400, message: 'Entity Name already exists.' });
        const [llc] = await h.identity.query<{ name: string }>('select name from companies where id = $1', [
          company('llc'),
        ]);
        expect(llc?.name).toBe(names.find((n) => n.id === company('llc'))?.name);

        // Sent at the same moment, one of the two is refused.
        const answers = await Promise.allSettled(
          [company('llc'), company('individual')].map((companyId, n) =>
            h.bus.request(
              Identity.updateCompany,
              { id: companyId, name: 'Cleo Together' },
              { actor: actor(n ? 'admin' : 'partner') },
            ),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
      } finally {
        await other.end();
        for (const { id: companyId, name } of names)
          await h.identity.query('update companies set name = $2 where id = $1', [companyId, name]);
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
        await waitForLockBehind(other);
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

    it("refuses a client's entity save on an entity made inactive meanwhile, as an inactive one is refused", async () => {
      // A partner's save makes the entity inactive and holds its row; the client's save read it active.
      const other = new pg.Client({ connectionString: h.identity.databaseUrl });
      await other.connect();
      const city = async () =>
        (
          await h.identity.query<{ city: string }>('select city from companies where id = $1', [
            company('llc'),
          ])
        )[0]?.city;
      const before = await city();
      try {
        await other.query('begin');
        await other.query(`select set_config('app.bypass_rls', 'on', true)`);
        await other.query('update companies set inactive = true where id = $1', [company('llc')]);
        const clientSave = h.bus
          .request(
            Identity.updateCompanyProfile,
            { id: company('llc'), city: 'Late City' },
            { actor: actor('client') },
          )
          .catch((e) => e);
        await waitForLockBehind(other);
        await other.query('commit');
        expect(await clientSave).toMatchObject({ status: 404 });
        expect(await city()).toBe(before);
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

    it('lists entities: all for advisors, searched, active owned ones for clients', async () => {
      const all = await h.bus.request(
        Identity.listCompanies,
        { rowsPerPage: 50, page: 1, includeInactive: true },
        { actor: actor('partner') },
      );
      expect(all.totalCount).toBe(Object.keys(h.firm.companies).length);
      expect(all.companies.map((c) => c.id).sort()).toEqual(
        Object.values(h.firm.companies)
          .map((c) => c.id)
          .sort(),
      );
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

    it("answers clients their entities without the firm's own fields, and advisors with them", async () => {
      await h.identity.query(
        `update companies set entity_tags = '{Audit}', external_entity_id = 'EXT-7', tax_return_id = 'TR-7',
           client_manager_id = $2, cpa_id = $3 where id = $1`,
        [company('llc'), id('full'), id('partner')],
      );
      const internal = {
        entityTags: ['Audit'],
        externalEntityId: 'EXT-7',
        taxReturnId: 'TR-7',
        clientManagerId: id('full'),
        cpaId: id('partner'),
      };
      const blank = { entityTags: [], externalEntityId: '', taxReturnId: '', clientManagerId: '', cpaId: '' };
      try {
        const toAdvisor = await h.bus.request(
          Identity.getCompany,
          { id: company('llc') },
          { actor: actor('partner') },
        );
        expect(toAdvisor).toMatchObject(internal);
        const listedTo = async (key: string) =>
          (
            await h.bus.request(Identity.listCompanies, { rowsPerPage: 50 }, { actor: actor(key) })
          ).companies.find((c) => c.id === company('llc'));
        expect(await listedTo('full')).toMatchObject(internal);

        // Spec 3 s.1: the firm's records of an entity are for firm staff.
        const shown = await h.bus.request(
          Identity.getCompany,
          { id: company('llc') },
          { actor: actor('client') },
        );
        expect(shown).toMatchObject({ ...blank, name: toAdvisor.name, city: toAdvisor.city });
        expect(await listedTo('client')).toMatchObject(blank);
        const saved = await h.bus.request(
          Identity.updateCompanyProfile,
          { id: company('llc'), city: 'Sacramento' },
          { actor: actor('client') },
        );
        expect(saved).toMatchObject({ ...blank, city: 'Sacramento' });
        expect(JSON.stringify([shown, saved])).not.toMatch(/EXT-7|TR-7|Audit/);
      } finally {
        await h.identity.query(
          `update companies set entity_tags = '{}', external_entity_id = '', tax_return_id = '',
             client_manager_id = null, cpa_id = null where id = $1`,
          [company('llc')],
        );
      }
    });

    describe('group advisors and the owners of an entity', () => {
      // A firm of its own, firm groups on: Eve (East) and Wes (West) own East West Partners together,
      // Wes owns West Co with Lou, of no group, whose account was deleted.
      let grouped: BuiltFirm;
      const as = (key: string) => h.actorOf(grouped, key);
      const of = (key: string) => grouped.companies[key]?.id as string;
      const user = (key: string) => grouped.users[key]?.id as string;

      beforeAll(async () => {
        const tag = randomBytes(3).toString('hex');
        const person = (key: string, fname: string, group?: string) => ({
          key,
          fname,
          lname: 'Owner',
          email: `${key}.${tag}@example.com`,
          ...(group ? { group } : {}),
        });
        grouped = await h.identity.buildFirm(
          testFirmSpec('grouped', {
            groups: ['East', 'West'],
            preferences: { has_firm_groups: true },
            clients: [
              {
                ...person('east', 'Eve', 'East'),
                companies: [{ key: 'shared', name: 'East West Partners', entityType: 'Partnership' }],
              },
              {
                ...person('west', 'Wes', 'West'),
                companies: [{ key: 'westco', name: 'West Co', entityType: 'Partnership' }],
              },
              { ...person('loose', 'Lou'), companies: [] },
            ],
          }),
        );
        await h.identity.query(
          `insert into company_owners (firm_id, company_id, user_id) values ($1, $2, $3), ($1, $4, $5)`,
          [grouped.firmId, of('shared'), user('west'), of('westco'), user('loose')],
        );
        // Soft deletion, as identity keeps a deleted user: the row stays, with deleted_at set.
        await h.identity.query('update users set deleted_at = now() where id = $1', [user('loose')]);
      });

      it('does not open an entity to every group through a deleted owner of no group', async () => {
        await expect(
          h.bus.request(Identity.getCompany, { id: of('westco') }, { actor: as('group') }),
        ).rejects.toMatchObject({ status: 404 });
        await expect(
          h.bus.request(Identity.companyAccess, { companyId: of('westco') }, { actor: as('group') }),
        ).rejects.toMatchObject({ status: 404 });
        await expect(
          h.bus.request(
            Identity.updateCompany,
            { id: of('westco'), city: 'Eastville' },
            { actor: as('group') },
          ),
        ).rejects.toMatchObject({ status: 404 });
        const listed = await h.bus.request(
          Identity.listCompanies,
          { rowsPerPage: 50, includeInactive: true },
          { actor: as('group') },
        );
        expect(listed.companies.map((c) => c.id)).toEqual([of('shared')]);
        // Firm-wide advisors still open it.
        await expect(
          h.bus.request(Identity.getCompany, { id: of('westco') }, { actor: as('full') }),
        ).resolves.toMatchObject({ id: of('westco') });
      });

      it('shows a group advisor only the owners they may see, as identity.user.get.v1 answers them', async () => {
        const shown = await h.bus.request(Identity.getCompany, { id: of('shared') }, { actor: as('group') });
        expect(shown.owners.map((o) => o.id)).toEqual([user('east')]);
        await expect(
          h.bus.request(Identity.getUser, { id: user('west') }, { actor: as('group') }),
        ).rejects.toMatchObject({ status: 404 });
        // A firm-wide advisor sees both; a deleted owner is shown to no one, as it opens for no one.
        const all = await h.bus.request(Identity.getCompany, { id: of('shared') }, { actor: as('full') });
        expect(all.owners.map((o) => o.id).sort()).toEqual([user('east'), user('west')].sort());
        const westco = await h.bus.request(
          Identity.getCompany,
          { id: of('westco') },
          { actor: as('partner') },
        );
        expect(westco.owners.map((o) => o.id)).toEqual([user('west')]);
        // Co-owners see each other on the entity they share.
        const toClient = await h.bus.request(
          Identity.getCompany,
          { id: of('shared') },
          { actor: as('east') },
        );
        expect(toClient.owners.map((o) => o.id).sort()).toEqual([user('east'), user('west')].sort());
      });
    });

    describe('order and pages, over more entities than a page', () => {
      // A firm of its own: 13 entities created at distinct times in an order unlike their names, ids or
      // insertion, two of them at the same moment (the id decides between those), listed 10 a page.
      const CREATED_MINUTES_AGO = [7, 2, 11, 0, 5, 5, 9, 1, 12, 3, 8, 10, 4];
      let paging: BuiltFirm;
      let newestFirst: string[];
      const list = (page: number, descending?: boolean) =>
        h.bus.request(
          Identity.listCompanies,
          {
            rowsPerPage: 10,
            page,
            includeInactive: true,
            ...(descending === undefined ? {} : { descending }),
          },
          { actor: h.actorOf(paging, 'partner') },
        );

      beforeAll(async () => {
        const tag = randomBytes(3).toString('hex');
        paging = await h.identity.buildFirm(
          testFirmSpec('paging', {
            clients: [
              {
                key: 'owner',
                fname: 'Pia',
                lname: 'Paging',
                email: `pia.${tag}@example.com`,
                companies: CREATED_MINUTES_AGO.map((_, n) => ({
                  key: `e${n}`,
                  name: `Entity ${String.fromCharCode(77 - n)}`,
                  entityType: 'Partnership',
                })),
              },
            ],
          }),
        );
        const created = CREATED_MINUTES_AGO.map((minutes, n) => ({
          id: paging.companies[`e${n}`]?.id as string,
          minutes,
        }));
        for (const { id: companyId, minutes } of created)
          await h.identity.query(
            `update companies set created_at = timestamptz '2026-01-15 12:00:00Z' - make_interval(mins => $2) where id = $1`,
            [companyId, minutes],
          );
        newestFirst = created
          .sort((a, b) => a.minutes - b.minutes || (a.id < b.id ? 1 : -1))
          .map((c) => c.id);
      });

      it('pages newest first by default, every entity once', async () => {
        const [first, second, third] = [await list(1), await list(2), await list(3)];
        expect(first).toMatchObject({ currentPage: 1, totalCount: 13, totalPages: 2 });
        expect(first.companies).toHaveLength(10);
        expect(second.companies).toHaveLength(3);
        expect(third.companies).toEqual([]);
        expect([...first.companies, ...second.companies].map((c) => c.id)).toEqual(newestFirst);
        expect((await list(1, true)).companies.map((c) => c.id)).toEqual(newestFirst.slice(0, 10));
      });

      it('pages oldest first when descending is false, the tie the other way round too', async () => {
        const [first, second] = [await list(1, false), await list(2, false)];
        expect(first.companies).toHaveLength(10);
        expect([...first.companies, ...second.companies].map((c) => c.id)).toEqual(
          [...newestFirst].reverse(),
        );
      });
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

    it('refuses a settings save based on preferences someone else saved since, changing nothing', async () => {
      const firmNow = () => h.bus.request(Identity.currentFirm, {}, { actor: actor('partner') });
      await h.bus.request(
        Identity.setDropLinkRecipients,
        { userIds: [id('admin')] },
        { actor: actor('admin') },
      );
      // The partner's settings page is loaded; then an admin chooses other drop link recipients.
      const loaded = await firmNow();
      await h.bus.request(
        Identity.setDropLinkRecipients,
        { userIds: [id('full')] },
        { actor: actor('admin') },
      );
      const changed = await firmNow();
      expect(changed.preferencesVersion).toBe(loaded.preferencesVersion + 1);

      // The page's next save sends its whole object, the old recipients in it, and its version.
      const stale = {
        preferences: { ...loaded.preferences, tour_enabled: !loaded.preferences?.tour_enabled },
        preferencesVersion: loaded.preferencesVersion,
      };
      await expect(
        h.bus.request(Identity.updatePreferences, stale, { actor: actor('partner') }),
      ).rejects.toMatchObject({
        status: 409,
        message: 'These settings were changed by someone else. Please reload the page and try again.',
      });
      expect(await firmNow()).toEqual(changed);

      // Reloaded, the same change is saved, and moves the version on.
      const saved = await h.bus.request(
        Identity.updatePreferences,
        {
          preferences: { ...changed.preferences, tour_enabled: !changed.preferences?.tour_enabled },
          preferencesVersion: changed.preferencesVersion,
        },
        { actor: actor('partner') },
      );
      expect(saved.preferences).toMatchObject({
        firm_user_ids_to_receive_drop_link_notification: [id('full')],
        tour_enabled: !changed.preferences?.tour_enabled,
      });
      expect(saved.preferencesVersion).toBe(changed.preferencesVersion + 1);
      // A save that sends no version is applied, as before versions.
      await expect(
        h.bus.request(
          Identity.updatePreferences,
          { preferences: { tour_enabled: true } },
          { actor: actor('partner') },
        ),
      ).resolves.toMatchObject({ preferences: { tour_enabled: true } });
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
