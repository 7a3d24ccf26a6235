import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Identity } from '@portico/proto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { hashSecret } from '../crypto/secrets.js';
import { type BuiltFirm, TEST_PASSWORD, testFirmSpec } from '../testing/index.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

describe('identity sign-in over NATS', () => {
  let h: IdentityHarness;
  const email = (key: string) => h.firm.users[key]?.email as string;

  beforeAll(async () => {
    h = await startIdentityHarness('signin');
  });
  afterAll(async () => {
    await h.stop();
  });

  describe('email lookup', () => {
    it('returns the preferred method and masked contacts', async () => {
      const res = await h.bus.request(Identity.lookupEmail, { email: `  ${email('client').toUpperCase()} ` });
      expect(res.uid).toBe(h.firm.users.client?.uid);
      expect(res.accountantId).toBe(h.firm.firmId);
      expect(res.preferredSignInMethod).toBe('password');
      expect(res.methods.map((m) => m.name)).toEqual(['email', 'sms']);
      expect(res.methods[1]?.value).toBe('(***) ***-0123');
      expect(res.methods[0]?.value).not.toContain(email('client').split('@')[0]);
    });

    it('answers the spec messages for a missing, malformed and unknown email', async () => {
      await expect(h.bus.request(Identity.lookupEmail, { email: '  ' })).rejects.toMatchObject({
        status: 400,
        message: 'Email is missing',
      });
      await expect(h.bus.request(Identity.lookupEmail, { email: 'nope@x' })).rejects.toMatchObject({
        status: 400,
      });
      await expect(
        h.bus.request(Identity.lookupEmail, { email: 'nobody@example.com' }),
      ).rejects.toMatchObject({
        status: 404,
        message: "Sorry, we couldn't find a user with that email address",
      });
    });

    it('refuses a deactivated user', async () => {
      await expect(
        h.bus.request(Identity.lookupEmail, { email: email('deactivated') }),
      ).rejects.toMatchObject({
        status: 403,
        message: 'Sorry, there was a problem signing you in',
      });
    });
  });

  describe('password', () => {
    it('signs in and exchanges the grant for a session whose token names the actor', async () => {
      const step = await h.bus.request(Identity.verifyPassword, {
        email: email('partner'),
        password: TEST_PASSWORD,
      });
      expect(step.twoFactorRequired).toBe(false);
      const tokens = await h.bus.request(Identity.exchangeToken, {
        authToken: step.authToken,
        userAgent: 'jest',
        ip: '127.0.0.1',
      });
      const claims = decodeJwt(tokens.accessToken);
      expect(decodeProtectedHeader(tokens.accessToken)).toMatchObject({ alg: 'ES256', kid: 'test-key' });
      expect(claims).toMatchObject({
        sub: h.firm.users.partner?.id,
        firm_id: h.firm.firmId,
        role: 'advisor',
        firm_access: 'partner',
      });
      expect(tokens.isAdvisor).toBe(true);
      // A grant works once.
      await expect(
        h.bus.request(Identity.exchangeToken, { authToken: step.authToken }),
      ).rejects.toMatchObject({ status: 401 });
    });

    it("uses the spec's messages for a missing or wrong password and an unknown email", async () => {
      await expect(
        h.bus.request(Identity.verifyPassword, { email: email('other'), password: '' }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Password is missing',
      });
      await expect(
        h.bus.request(Identity.verifyPassword, { email: email('other'), password: 'Wrong-Password-1!' }),
      ).rejects.toMatchObject({
        status: 401,
        message: 'Invalid password',
      });
      await expect(
        h.bus.request(Identity.verifyPassword, { email: 'ghost@example.com', password: 'x' }),
      ).rejects.toMatchObject({
        status: 401,
        message: 'The email address or password is incorrect',
      });
      await expect(
        h.bus.request(Identity.verifyPassword, { email: email('linkonly'), password: 'x' }),
      ).rejects.toMatchObject({
        status: 401,
        message: 'The email address or password is incorrect',
      });
    });

    it('locks the account after five wrong passwords, even for the right one, with the restriction message', async () => {
      const who = email('admin');
      for (let i = 0; i < 4; i++) {
        await expect(
          h.bus.request(Identity.verifyPassword, { email: who, password: `Wrong-${i}-Password!` }),
        ).rejects.toMatchObject({ status: 401 });
      }
      const restricted =
        'Access to this account has been temporarily restricted. Please try again later or reset your password for immediate access.';
      await expect(
        h.bus.request(Identity.verifyPassword, { email: who, password: 'Wrong-5-Password!' }),
      ).rejects.toMatchObject({
        status: 429,
        message: restricted,
      });
      const err = await h.bus
        .request(Identity.verifyPassword, { email: who, password: TEST_PASSWORD })
        .catch((e) => e);
      expect(err).toMatchObject({ status: 429, message: restricted });
      expect(err.extra.retryAfterSeconds).toBeGreaterThan(0);
    });
  });

  describe('email and SMS codes', () => {
    it('sends a six-digit code through the notifications outbox and signs in with it once', async () => {
      const uid = h.firm.users.other?.uid as string;
      const sent = await h.bus.request(Identity.sendEmailCode, { uid });
      expect(sent.sentTo).toMatch(/\*\*\*/);
      const code = await h.lastCodeTo(email('other'));
      expect(code).toMatch(/^\d{6}$/);
      // In the firm's name: its clients know the firm, not the product behind its portal.
      const [firm] = await h.identity.query('select name from firms where id = $1', [h.firm.firmId]);
      expect(await h.lastMessageTo(email('other'))).toMatchObject({
        senderName: firm?.name,
        subject: `Your ${firm?.name} sign-in code is ${code}`,
        text: expect.stringContaining(`Your sign-in code for ${firm?.name} is ${code}.`),
      });
      const step = await h.bus.request(Identity.verifyCode, { uid, code });
      expect(step.authToken).toBeTruthy();
      await expect(h.bus.request(Identity.verifyCode, { uid, code })).rejects.toMatchObject({
        status: 401,
        message: 'Invalid or expired verification code',
      });
    });

    it('burns the code after five wrong attempts with 429 Too many incorrect attempts', async () => {
      const uid = h.firm.users.readonly?.uid as string;
      await h.bus.request(Identity.sendEmailCode, { uid });
      const code = await h.lastCodeTo(email('readonly'));
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) {
        await expect(h.bus.request(Identity.verifyCode, { uid, code: wrong })).rejects.toMatchObject({
          status: 401,
        });
      }
      await expect(h.bus.request(Identity.verifyCode, { uid, code: wrong })).rejects.toMatchObject({
        status: 429,
        message: 'Too many incorrect attempts',
      });
      await expect(h.bus.request(Identity.verifyCode, { uid, code })).rejects.toMatchObject({ status: 401 });
    });

    it('needs a uid and a six-digit code', async () => {
      await expect(h.bus.request(Identity.verifyCode, { uid: '', code: '123456' })).rejects.toMatchObject({
        status: 400,
        message: 'Something went wrong',
      });
      await expect(
        h.bus.request(Identity.verifyCode, { uid: h.firm.users.other?.uid, code: '12345' }),
      ).rejects.toMatchObject({ status: 400 });
    });

    it('rate limits code sends with 429 and the server message', async () => {
      const uid = h.firm.users.rocompany?.uid as string;
      for (let i = 0; i < 5; i++) await h.bus.request(Identity.sendEmailCode, { uid });
      await expect(h.bus.request(Identity.sendEmailCode, { uid })).rejects.toMatchObject({
        status: 429,
        message: 'Too many verification codes were requested. Please wait a few minutes and try again.',
      });
    });

    it('sends an SMS code to the phone on file, and refuses a user without a valid phone with the SMS failure message', async () => {
      const sent = await h.bus.request(Identity.sendSmsCode, { uid: h.firm.users.client?.uid });
      expect(sent.sentTo).toBe('(***) ***-0123');
      const [firm] = await h.identity.query('select name from firms where id = $1', [h.firm.firmId]);
      expect((await h.lastMessageTo('4155550123'))?.text).toMatch(
        new RegExp(`^Your ${firm?.name} sign-in code is \\d{6}\\.`),
      );
      await expect(
        h.bus.request(Identity.sendSmsCode, { uid: h.firm.users.other?.uid }),
      ).rejects.toMatchObject({
        status: 400,
        message:
          'SMS code failed to send. Your phone number might be invalid. Please use the button below to reset your sign-in method.',
      });
    });
  });

  describe('links', () => {
    it('signs in with a magic link once, keeping a same-site redirect only', async () => {
      const who = h.firm.users.linkonly;
      await h.bus.request(Identity.sendAuthLink, {
        uid: who?.uid,
        accountantId: h.firm.firmId,
        redirect: '/documents/abc',
      });
      const token = await h.lastLinkTokenTo(who?.email as string);
      // The link opens /signin with the firm's branding: it names the user's firm.
      const [firm] = await h.identity.query('select slug from firms where id = $1', [h.firm.firmId]);
      // The token in the fragment (#token=), which the browser sends to no server: out of the edge's logs.
      expect((await h.lastMessageTo(who?.email as string))?.text).toContain(
        `/signin?firm=${firm?.slug}#token=${token}`,
      );
      const link = await h.lastLinkTo(who?.email as string);
      expect({ query: link.searchParams.has('token'), fragment: link.hash }).toEqual({
        query: false,
        fragment: `#token=${token}`,
      });
      const [named] = await h.identity.query('select name from firms where id = $1', [h.firm.firmId]);
      expect((await h.lastMessageTo(who?.email as string))?.subject).toBe(`Your ${named?.name} sign-in link`);
      const res = await h.bus.request(Identity.verifyAuthLink, { token });
      expect(res).toMatchObject({ purpose: 'sign_in', redirect: '/documents/abc' });
      expect(res.authToken).toBeTruthy();
      await expect(h.bus.request(Identity.verifyAuthLink, { token })).rejects.toMatchObject({ status: 410 });
      await h.bus.request(Identity.sendAuthLink, { email: who?.email, redirect: 'https://evil.example/' });
      const second = await h.bus.request(Identity.verifyAuthLink, {
        token: await h.lastLinkTokenTo(who?.email as string),
      });
      expect(second.redirect).toBe('');
    });

    it('needs the accountant id with a uid', async () => {
      await expect(
        h.bus.request(Identity.sendAuthLink, { uid: h.firm.users.linkonly?.uid }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Something went wrong',
      });
      await expect(
        h.bus.request(Identity.sendAuthLink, {
          uid: h.firm.users.linkonly?.uid,
          accountantId: h.other.firmId,
        }),
      ).rejects.toMatchObject({ status: 400 });
    });

    it('answers 410 for an expired link so the screen offers another way', async () => {
      const who = h.firm.users.linkonly;
      await h.bus.request(Identity.sendAuthLink, { email: who?.email });
      const token = await h.lastLinkTokenTo(who?.email as string);
      await h.identity.query(
        `update one_time_secrets set expires_at = now() - interval '1 second' where purpose = 'sign_in_link'`,
      );
      await expect(h.bus.request(Identity.verifyAuthLink, { token })).rejects.toMatchObject({
        status: 410,
        code: 'link_expired',
      });
    });

    it('resets a forgotten password through the emailed link, checking the password rules', async () => {
      const who = h.firm.users.full;
      await h.bus.request(Identity.forgotPassword, { email: who?.email });
      const token = await h.lastLinkTokenTo(who?.email as string);
      // The reset link's token in the fragment too, out of the query the edge logs.
      const emailed = await h.lastLinkTo(who?.email as string);
      expect({ query: emailed.search.includes(token), fragment: emailed.hash }).toEqual({
        query: false,
        fragment: `#token=${token}`,
      });
      const link = await h.bus.request(Identity.verifyAuthLink, { token });
      expect(link.purpose).toBe('set_password');
      await expect(
        h.bus.request(Identity.resetPassword, {
          token: link.authToken,
          password: 'short',
          passwordConfirmation: 'short',
        }),
      ).rejects.toMatchObject({ status: 400, message: 'Password must be greater than 10 characters' });
      await expect(
        h.bus.request(Identity.resetPassword, {
          token: link.authToken,
          password: 'Brand-New-Pass-1',
          passwordConfirmation: 'Brand-New-Pass-2',
        }),
      ).rejects.toMatchObject({ status: 400, message: 'Passwords do not match' });
      const done = await h.bus.request(Identity.resetPassword, {
        token: link.authToken,
        password: 'Brand-New-Pass-1',
        passwordConfirmation: 'Brand-New-Pass-1',
      });
      expect(done.authToken).toBeTruthy();
      await expect(
        h.bus.request(Identity.verifyPassword, { email: who?.email, password: 'Brand-New-Pass-1' }),
      ).resolves.toMatchObject({
        twoFactorRequired: false,
      });
    });
  });

  describe('a step whose grant cannot be issued', () => {
    /** Refuses inserting grants (auth_grant, set_sign_in_method) while `work` runs, as a failing write would. */
    async function withGrantsRefused(work: () => Promise<void>) {
      await h.identity.query(`create function refuse_grants() returns trigger language plpgsql as $$
        begin raise exception 'grants refused for this test'; end $$`);
      await h.identity.query(`create trigger refuse_grants before insert on one_time_secrets for each row
        when (new.purpose in ('auth_grant', 'set_sign_in_method')) execute function refuse_grants()`);
      try {
        await work();
      } finally {
        await h.identity.query('drop trigger refuse_grants on one_time_secrets');
        await h.identity.query('drop function refuse_grants()');
      }
    }

    it('leaves the sign-in link and the reset link working for another try', async () => {
      const who = h.firm.users.linkonly;
      await h.bus.request(Identity.sendAuthLink, { email: who?.email });
      const signIn = await h.lastLinkTokenTo(who?.email as string);
      const full = h.firm.users.full;
      await h.bus.request(Identity.forgotPassword, { email: full?.email });
      const reset = await h.lastLinkTokenTo(full?.email as string);
      await withGrantsRefused(async () => {
        for (const token of [signIn, reset])
          await expect(h.bus.request(Identity.verifyAuthLink, { token })).rejects.toMatchObject({
            status: 500,
          });
      });
      await expect(h.bus.request(Identity.verifyAuthLink, { token: signIn })).resolves.toMatchObject({
        purpose: 'sign_in',
      });
      await expect(h.bus.request(Identity.verifyAuthLink, { token: reset })).resolves.toMatchObject({
        purpose: 'set_password',
      });
    });

    it('leaves the sign-in code working for another try, and still used once', async () => {
      const uid = h.firm.users.other?.uid as string;
      await h.bus.request(Identity.sendEmailCode, { uid });
      const code = await h.lastCodeTo(email('other'));
      await withGrantsRefused(async () => {
        await expect(h.bus.request(Identity.verifyCode, { uid, code })).rejects.toMatchObject({
          status: 500,
        });
      });
      const step = await h.bus.request(Identity.verifyCode, { uid, code });
      expect(step.authToken).toBeTruthy();
      await expect(h.bus.request(Identity.verifyCode, { uid, code })).rejects.toMatchObject({ status: 401 });
    });
  });

  describe('two-factor', () => {
    it('asks for a second factor when the user enabled it and accepts the emailed code', async () => {
      const who = h.firm.users.twofa;
      const step = await h.bus.request(Identity.verifyPassword, {
        email: who?.email,
        password: TEST_PASSWORD,
      });
      expect(step).toMatchObject({ twoFactorRequired: true, authToken: '' });
      const code = await h.lastCodeTo(who?.email as string);
      await expect(
        h.bus.request(Identity.verifyTwoFactor, {
          challengeToken: step.challengeToken,
          code: code === '999999' ? '000000' : '999999',
        }),
      ).rejects.toMatchObject({
        status: 401,
      });
      const done = await h.bus.request(Identity.verifyTwoFactor, {
        challengeToken: step.challengeToken,
        code,
      });
      expect(done.authToken).toBeTruthy();
    });

    it('completes the second factor by the emailed link too, landing where the sign-in was headed (same site only)', async () => {
      const who = h.firm.users.twofa;
      const byLink = async (redirect: string) => {
        const step = await h.bus.request(Identity.verifyPassword, {
          email: who?.email,
          password: TEST_PASSWORD,
        });
        await h.bus.request(Identity.sendTwoFactor, {
          challengeToken: step.challengeToken,
          delivery: 'link',
          redirect,
        });
        return h.bus.request(Identity.verifyAuthLink, {
          token: await h.lastLinkTokenTo(who?.email as string),
        });
      };
      const res = await byLink('/profile');
      expect(res).toMatchObject({ authToken: expect.any(String), redirect: '/profile', purpose: 'sign_in' });
      expect(await byLink('https://evil.example/x')).toMatchObject({ redirect: '' });
    });

    it('asks every firm user for it when the firm forces two-factor on firm users, not clients', async () => {
      const partner = h.actorOf(h.firm, 'partner');
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_firm_users: true } },
        { actor: partner },
      );
      const advisor = await h.bus.request(Identity.verifyPassword, {
        email: email('group'),
        password: TEST_PASSWORD,
      });
      expect(advisor.twoFactorRequired).toBe(true);
      const client = await h.bus.request(Identity.verifyPassword, {
        email: email('client'),
        password: TEST_PASSWORD,
      });
      expect(client.twoFactorRequired).toBe(false);
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_firm_users: false, force_2fa_on_users: true } },
        { actor: partner },
      );
      const forcedClient = await h.bus.request(Identity.verifyPassword, {
        email: email('client'),
        password: TEST_PASSWORD,
      });
      expect(forcedClient.twoFactorRequired).toBe(true);
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_users: false } },
        { actor: partner },
      );
    });
  });

  describe('two-factor after a sign-in code', () => {
    // A firm of its own: these tests change users and firm preferences.
    let firm: BuiltFirm;
    const user = (key: string) => firm.users[key] as { id: string; uid: string; email: string };
    const setPhone = (key: string, phone: string) =>
      h.identity.query('update users set phone_number = $2 where id = $1', [user(key).id, phone]);
    const textedSignIn = async (key: string, phone: string) => {
      await h.bus.request(Identity.sendSmsCode, { uid: user(key).uid });
      return h.bus.request(Identity.verifyCode, { uid: user(key).uid, code: await h.lastCodeTo(phone) });
    };

    beforeAll(async () => {
      firm = await h.identity.buildFirm(testFirmSpec('codes-2fa'));
    });

    it('asks for the second factor after a texted code when the user enabled it, and accepts the emailed code', async () => {
      await setPhone('twofa', '4155550177');
      const step = await textedSignIn('twofa', '4155550177');
      expect(step).toMatchObject({ twoFactorRequired: true, authToken: '' });
      expect(step.twoFactorMethods.map((m) => m.name)).toEqual(['email']);
      const done = await h.bus.request(Identity.verifyTwoFactor, {
        challengeToken: step.challengeToken,
        code: await h.lastCodeTo(user('twofa').email),
      });
      expect(done.authToken).toBeTruthy();
    });

    it('asks for it after a texted code when the firm forces it on firm users or on clients', async () => {
      const partner = h.actorOf(firm, 'partner');
      await setPhone('full', '4155550178');
      await setPhone('client', '4155550179');
      expect((await textedSignIn('full', '4155550178')).authToken).toBeTruthy();
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_firm_users: true } },
        { actor: partner },
      );
      expect(await textedSignIn('full', '4155550178')).toMatchObject({ twoFactorRequired: true });
      expect((await textedSignIn('client', '4155550179')).authToken).toBeTruthy();
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_firm_users: false, force_2fa_on_users: true } },
        { actor: partner },
      );
      expect(await textedSignIn('client', '4155550179')).toMatchObject({ twoFactorRequired: true });
      await h.bus.request(
        Identity.updatePreferences,
        { preferences: { force_2fa_on_users: false } },
        { actor: partner },
      );
    });

    it('counts an emailed code as both factors, as a sign-in link', async () => {
      await h.bus.request(Identity.sendEmailCode, { uid: user('twofa').uid });
      const step = await h.bus.request(Identity.verifyCode, {
        uid: user('twofa').uid,
        code: await h.lastCodeTo(user('twofa').email),
      });
      expect(step.twoFactorRequired).toBe(false);
      expect(step.authToken).toBeTruthy();
    });

    it('signs a user with a temporary email in by the texted code alone, having no mailbox for a second factor', async () => {
      await setPhone('other', '4155550180');
      await h.identity.query('update users set enabled_2fa = true, has_temp_email = true where id = $1', [
        user('other').id,
      ]);
      const step = await textedSignIn('other', '4155550180');
      expect(step.twoFactorRequired).toBe(false);
      expect(step.authToken).toBeTruthy();
    });
  });

  describe('sessions', () => {
    const signIn = async (key: string) => {
      const step = await h.bus.request(Identity.verifyPassword, {
        email: email(key),
        password: TEST_PASSWORD,
      });
      return h.bus.request(Identity.exchangeToken, { authToken: step.authToken });
    };

    it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
      const first = await signIn('client');
      const second = await h.bus.request(Identity.refresh, { refreshToken: first.refreshToken });
      expect(second.refreshToken).not.toBe(first.refreshToken);
      // Presented again at once, as a second tab of the same browser does: refused, nothing ended.
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: first.refreshToken }),
      ).rejects.toMatchObject({ status: 409, code: 'refresh_superseded' });
      const third = await h.bus.request(Identity.refresh, { refreshToken: second.refreshToken });
      // Later than any tab would: it leaked, and the whole sign-in ends.
      await h.identity.query(
        `update refresh_tokens set rotated_at = now() - interval '1 minute' where token_hash = $1`,
        [hashSecret(first.refreshToken)],
      );
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: first.refreshToken }),
      ).rejects.toMatchObject({
        status: 401,
        code: 'refresh_reused',
      });
      // The thief's reuse ended the family: the newest token no longer works either.
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: third.refreshToken }),
      ).rejects.toMatchObject({ status: 401 });
    });

    it('stores refresh tokens only hashed', async () => {
      const tokens = await signIn('client');
      const count = async (value: string) =>
        Number(
          (
            await h.identity.query<{ n: string }>(
              'select count(*) as n from refresh_tokens where token_hash = $1',
              [value],
            )
          )[0]?.n,
        );
      expect(await count(tokens.refreshToken)).toBe(0);
      // Stored, as its hash.
      expect(await count(hashSecret(tokens.refreshToken))).toBe(1);
    });

    it('signs out everywhere and announces it for open browsers', async () => {
      const a = await signIn('other');
      const b = await signIn('other');
      const res = await h.bus.request(Identity.signOutEverywhere, {}, { actor: h.actorOf(h.firm, 'other') });
      expect(res.revokedSessions).toBeGreaterThanOrEqual(2);
      for (const t of [a, b])
        await expect(h.bus.request(Identity.refresh, { refreshToken: t.refreshToken })).rejects.toMatchObject(
          { status: 401 },
        );
      const events = await h.identity.query<{ subject: string }>(
        `select subject from outbox_events where payload->>'user_id' = $1`,
        [h.firm.users.other?.id],
      );
      expect(events.map((e) => e.subject)).toContain('events.identity.session.revoked.v1');
    });

    it('publishes the signing keys as a JWKS', async () => {
      const { keys } = await h.bus.request(Identity.jwks, {});
      expect(keys[0]).toMatchObject({ kid: 'test-key', kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    });
  });

  describe('set sign-in method', () => {
    it('lets a set_password_required user choose a password, then signs in normally', async () => {
      const step = await h.bus.request(Identity.verifyPassword, {
        email: email('setpw'),
        password: TEST_PASSWORD,
      });
      expect(step.setPasswordRequired).toBe(true);
      const actor = h.actorOf(h.firm, 'setpw');
      await expect(
        h.bus.request(
          Identity.setSignInMethod,
          { method: 'password', password: 'nouppercase-1!', passwordConfirmation: 'nouppercase-1!' },
          { actor },
        ),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Password must contain at least one uppercase letter',
      });
      const res = await h.bus.request(
        Identity.setSignInMethod,
        { method: 'password', password: 'Chosen-Pass-77', passwordConfirmation: 'Chosen-Pass-77' },
        { actor },
      );
      expect(res).toMatchObject({ preferredSignInMethod: 'password' });
      expect(res.authToken).toBeTruthy();
      const after = await h.bus.request(Identity.verifyPassword, {
        email: email('setpw'),
        password: 'Chosen-Pass-77',
      });
      expect(after.setPasswordRequired).toBe(false);
      // A first password, chosen where the firm asked for one, is no change to tell the user of.
      const notices = await h.identity.query(
        `select 1 from outbox_events where subject = 'events.identity.user.account_notice_due.v1'
          and payload->>'user_id' = $1`,
        [h.firm.users.setpw?.id],
      );
      expect(notices).toEqual([]);
    });

    it('sets SMS as the method with a valid phone only', async () => {
      const actor = h.actorOf(h.firm, 'linkonly');
      await expect(
        h.bus.request(Identity.setSignInMethod, { method: 'sms', phoneNumber: '12345' }, { actor }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Phone number must be 10 digits',
      });
      await expect(
        h.bus.request(Identity.setSignInMethod, { method: 'sms', phoneNumber: '(415) 555-0199' }, { actor }),
      ).resolves.toMatchObject({
        preferredSignInMethod: 'sms',
      });
      const lookup = await h.bus.request(Identity.lookupEmail, { email: email('linkonly') });
      expect(lookup.preferredSignInMethod).toBe('sms');
      await expect(
        h.bus.request(Identity.setSignInMethod, { method: 'carrier-pigeon' }, { actor }),
      ).rejects.toMatchObject({ status: 400 });
    });

    it('refuses without a session or a grant', async () => {
      await expect(
        h.bus.request(Identity.setSignInMethod, { method: 'email', grantToken: 'made-up' }),
      ).rejects.toMatchObject({ status: 401 });
    });
  });

  describe('a changed password ends what the old one opened', () => {
    const signInWith = async (password: string) => {
      const step = await h.bus.request(Identity.verifyPassword, { email: email('rocompany'), password });
      return h.bus.request(Identity.exchangeToken, { authToken: step.authToken });
    };
    const refreshes = (refreshToken: string) =>
      h.bus.request(Identity.refresh, { refreshToken }).then(
        () => 'renewed',
        (err: { status?: number }) => `refused ${err.status}`,
      );

    it('ends the sessions and the other reset links when a password is set through a reset link, and a refused password keeps the grant', async () => {
      const before = await signInWith(TEST_PASSWORD);
      const who = email('rocompany');
      await h.bus.request(Identity.forgotPassword, { email: who });
      const firstLink = await h.lastLinkTokenTo(who);
      await h.bus.request(Identity.forgotPassword, { email: who });
      const secondLink = await h.lastLinkTokenTo(who);
      const { authToken: grantToken } = await h.bus.request(Identity.verifyAuthLink, { token: secondLink });
      await expect(
        h.bus.request(Identity.setSignInMethod, {
          grantToken,
          method: 'password',
          password: 'short',
          passwordConfirmation: 'short',
        }),
      ).rejects.toMatchObject({ status: 400 });
      const set = await h.bus.request(Identity.setSignInMethod, {
        grantToken,
        method: 'password',
        password: 'Changed-Pass-42',
        passwordConfirmation: 'Changed-Pass-42',
      });
      expect(set.authToken).toBeTruthy();
      expect(await refreshes(before.refreshToken)).toBe('refused 401');
      await expect(h.bus.request(Identity.verifyAuthLink, { token: firstLink })).rejects.toMatchObject({
        status: 410,
      });
      const [revoked] = await h.identity.query<{ reason: string; session_id: string }>(
        `select payload->>'reason' as reason, payload->>'session_id' as session_id from outbox_events
          where subject = 'events.identity.session.revoked.v1' and payload->>'session_id' = $1`,
        [decodeJwt(before.accessToken).sid],
      );
      expect(revoked?.reason).toBe('password_changed');
    });

    it('keeps the session that changes the password and ends the others', async () => {
      const here = await signInWith('Changed-Pass-42');
      const elsewhere = await signInWith('Changed-Pass-42');
      const actor = {
        ...h.actorOf(h.firm, 'rocompany'),
        session_id: decodeJwt(here.accessToken).sid as string,
      };
      await h.bus.request(
        Identity.setSignInMethod,
        {
          method: 'password',
          password: 'Changed-Again-43',
          passwordConfirmation: 'Changed-Again-43',
          currentPassword: 'Changed-Pass-42',
        },
        { actor },
      );
      expect(await refreshes(here.refreshToken)).toBe('renewed');
      expect(await refreshes(elsewhere.refreshToken)).toBe('refused 401');
    });

    it('retires the links sent to an address the account no longer has', async () => {
      const who = email('rocompany');
      await h.bus.request(Identity.forgotPassword, { email: who });
      const link = await h.lastLinkTokenTo(who);
      const actor = h.actorOf(h.firm, 'rocompany');
      const id = h.firm.users.rocompany?.id as string;
      const newEmail = `moved.${Date.now()}@example.com`;
      await h.bus.request(
        Identity.updateProfile,
        // The password the test before set.
        { id, email: newEmail, currentPassword: 'Changed-Again-43' },
        { actor },
      );
      await h.bus.request(Identity.confirmEmail, { token: await h.lastLinkTokenTo(newEmail) });
      await expect(h.bus.request(Identity.verifyAuthLink, { token: link })).rejects.toMatchObject({
        status: 410,
      });
    });
  });

  describe('old credentials stop working when they are replaced', () => {
    let firm: BuiltFirm;
    const who = (key: string) => firm.users[key] as BuiltFirm['users'][string];
    const oldPasswordSignIn = (key: string) =>
      h.bus.request(Identity.verifyPassword, { email: who(key).email, password: TEST_PASSWORD });
    const grantFromResetLink = async (key: string) => {
      await h.bus.request(Identity.forgotPassword, { email: who(key).email });
      const link = await h.lastLinkTokenTo(who(key).email);
      return { link, ...(await h.bus.request(Identity.verifyAuthLink, { token: link })) };
    };

    beforeAll(async () => {
      firm = await h.identity.buildFirm(testFirmSpec('replaced-credentials'));
    });

    it('a password left from before a switch to codes no longer signs in, switched through a reset link or from Profile Settings', async () => {
      const { authToken: grantToken } = await grantFromResetLink('client');
      await h.bus.request(Identity.setSignInMethod, { grantToken, method: 'email' });
      await expect(oldPasswordSignIn('client')).rejects.toMatchObject({
        status: 401,
        message: 'The email address or password is incorrect',
      });
      expect(
        await h.identity.query('select password_hash from users where id = $1', [who('client').id]),
      ).toEqual([{ password_hash: null }]);

      await h.bus.request(
        Identity.setSignInMethod,
        { method: 'email', currentPassword: TEST_PASSWORD },
        { actor: h.actorOf(firm, 'full') },
      );
      await expect(oldPasswordSignIn('full')).rejects.toMatchObject({ status: 401 });
    });

    it('a reset link sets a password once', async () => {
      const email = who('other').email;
      await h.bus.request(Identity.forgotPassword, { email });
      const link = await h.lastLinkTokenTo(email);
      const reset = (password: string) =>
        h.bus.request(Identity.resetPassword, { token: link, password, passwordConfirmation: password });
      await expect(reset('Replaced-Pass-44')).resolves.toMatchObject({ authToken: expect.any(String) });
      // The account's address hears of the new password: whoever set it may not be its owner.
      const [notice] = await h.messagesOfKind(email, 'password_changed');
      expect(notice?.subject).toMatch(/password was changed$/);
      await expect(reset('Replaced-Pass-45')).rejects.toMatchObject({ status: 410 });
      await expect(h.bus.request(Identity.verifyAuthLink, { token: link })).rejects.toMatchObject({
        status: 410,
      });
      await expect(
        h.bus.request(Identity.verifyPassword, { email, password: 'Replaced-Pass-44' }),
      ).resolves.toMatchObject({ authToken: expect.any(String) });
    });

    it('a code that could not be sent leaves the one the user has working', async () => {
      const user = who('group');
      await h.bus.request(Identity.sendEmailCode, { uid: user.uid });
      const code = await h.lastCodeTo(user.email);
      await h.withNotificationsDown(() =>
        expect(h.bus.request(Identity.sendEmailCode, { uid: user.uid })).rejects.toMatchObject({
          status: 503,
        }),
      );
      await expect(h.bus.request(Identity.verifyCode, { uid: user.uid, code })).resolves.toMatchObject({
        authToken: expect.any(String),
      });
    });

    it('a code texted to a phone replaced by a change of sign-in method no longer signs in', async () => {
      const user = who('nogroup');
      const me = h.actorOf(firm, 'nogroup');
      const before = `415555${String(Date.now()).slice(-4)}`;
      await h.bus.request(
        Identity.updateProfile,
        { id: user.id, phoneNumber: before, currentPassword: TEST_PASSWORD },
        { actor: me },
      );
      await h.bus.request(Identity.sendSmsCode, { uid: user.uid });
      const texted = await h.lastCodeTo(before);
      expect(texted).toMatch(/^\d{6}$/);
      await h.bus.request(
        Identity.setSignInMethod,
        { method: 'sms', phoneNumber: '2125550188', currentPassword: TEST_PASSWORD },
        { actor: me },
      );
      await expect(h.bus.request(Identity.verifyCode, { uid: user.uid, code: texted })).rejects.toMatchObject(
        {
          status: 401,
        },
      );
    });

    it('a code emailed to a replaced address, or texted to a replaced phone, no longer signs in', async () => {
      const admin = who('admin');
      await h.bus.request(Identity.sendEmailCode, { uid: admin.uid });
      const emailed = await h.lastCodeTo(admin.email);
      expect(emailed).toMatch(/^\d{6}$/);
      const moved = `moved.${Date.now()}@example.com`;
      await h.bus.request(
        Identity.updateProfile,
        { id: admin.id, email: moved, currentPassword: TEST_PASSWORD },
        { actor: h.actorOf(firm, 'admin') },
      );
      await h.bus.request(Identity.confirmEmail, { token: await h.lastLinkTokenTo(moved) });
      await expect(
        h.bus.request(Identity.verifyCode, { uid: admin.uid, code: emailed }),
      ).rejects.toMatchObject({
        status: 401,
      });

      const client = who('twofa');
      const partner = h.actorOf(firm, 'partner');
      const phone = `415555${String(Date.now()).slice(-4)}`;
      await h.bus.request(Identity.updateProfile, { id: client.id, phoneNumber: phone }, { actor: partner });
      await h.bus.request(Identity.sendSmsCode, { uid: client.uid });
      const texted = await h.lastCodeTo(phone);
      expect(texted).toMatch(/^\d{6}$/);
      await h.bus.request(
        Identity.updateProfile,
        { id: client.id, phoneNumber: '2125550199' },
        { actor: partner },
      );
      await expect(
        h.bus.request(Identity.verifyCode, { uid: client.uid, code: texted }),
      ).rejects.toMatchObject({
        status: 401,
      });
    });
  });
});
