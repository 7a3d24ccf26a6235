import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TEST_PASSWORD } from '@portico/identity/testing';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { type Stack, startStack } from '../stack.js';

// Every sign-in path through the gateway over HTTP, against the real identity and notifications services.
describe('API: sign-in through the gateway', () => {
  let s: Stack;
  const email = (key: string) => s.firm.users[key]?.email as string;
  const post = (path: string, body: unknown) => s.call('POST', path, { body });
  // 'Your sign-in code for <firm> is 123456': the code follows 'is' (a test firm's name may hold digits).
  const codeFrom = async (to: string) =>
    /\bis (\d{6})\b/.exec((await s.lastMessageTo(to))?.text ?? '')?.[1] ?? '';
  const tokenFrom = async (to: string) =>
    /token=([A-Za-z0-9_-]+)/.exec((await s.lastMessageTo(to))?.text ?? '')?.[1] ?? '';

  beforeAll(async () => {
    s = await startStack('e2e-signin');
  });
  afterAll(async () => {
    await s.stop();
  });

  describe('validation at the edge', () => {
    it('answers missing email and password with the spec messages per field', async () => {
      const res = await post('/sessions/verify_password', {});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'Email is missing',
        fields: { email: 'Email is missing', password: 'Password is missing' },
      });
    });

    it('refuses a body that is not JSON', async () => {
      const res = await s.call('POST', '/sessions/verify_password', {
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty('error');
    });

    it('refuses an oversized body with 413', async () => {
      const res = await post('/sessions/get_preferred_sign_in_method', {
        email: 'a@b.co',
        padding: 'x'.repeat(2_000_000),
      });
      expect(res.status).toBe(413);
    });
  });

  describe('lookup', () => {
    it('returns the method and masked contacts with the spec keys', async () => {
      const res = await post('/sessions/get_preferred_sign_in_method', { email: `  ${email('client')}  ` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        accountant_id: s.firm.firmId,
        uid: s.firm.users.client?.uid,
        preferred_sign_in_method: 'password',
        methods: [{ name: 'email' }, { name: 'sms', value: '(***) ***-0123' }],
      });
    });

    it('answers 404 with the spec message for an unknown email', async () => {
      const res = await post('/sessions/get_preferred_sign_in_method', { email: 'nobody@example.com' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "Sorry, we couldn't find a user with that email address" });
    });
  });

  describe('password', () => {
    it('signs in, exchanges the grant and reads the current user', async () => {
      const session = await s.signIn(s.firm, 'full');
      const me = await s.call<{ id: string; firm_access: string }>('GET', '/current_user', {
        token: session.access_token,
      });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: s.firm.users.full?.id, firm_access: 'full' });
    });

    it('answers a wrong password with 401 Invalid password, and an unknown email with the generic message', async () => {
      expect(
        await post('/sessions/verify_password', { email: email('other'), password: 'Not-The-One-1' }),
      ).toMatchObject({
        status: 401,
        body: { error: 'Invalid password' },
      });
      expect(
        await post('/sessions/verify_password', { email: 'ghost@example.com', password: 'Whatever-123!' }),
      ).toMatchObject({
        status: 401,
        body: { error: 'The email address or password is incorrect' },
      });
    });

    it('locks after repeated wrong passwords with 429, Retry-After and the restriction message', async () => {
      let last = await post('/sessions/verify_password', {
        email: email('admin'),
        password: 'Wrong-0-Password',
      });
      for (let i = 1; i < 5; i++)
        last = await post('/sessions/verify_password', {
          email: email('admin'),
          password: `Wrong-${i}-Password`,
        });
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.body).toMatchObject({
        error:
          'Access to this account has been temporarily restricted. Please try again later or reset your password for immediate access.',
      });
      expect(
        (await post('/sessions/verify_password', { email: email('admin'), password: TEST_PASSWORD })).status,
      ).toBe(429);
    });
  });

  describe('codes', () => {
    it('signs in with an emailed code', async () => {
      const uid = s.firm.users.other?.uid;
      expect((await post('/sessions/send_email_verification_code', { uid })).status).toBe(200);
      const code = await codeFrom(email('other'));
      const step = await post('/sessions/verify_verification_code', { uid, code });
      expect(step.status).toBe(200);
      const session = await post('/sessions/exchange_token', {
        auth_token: (step.body as { auth_token: string }).auth_token,
      });
      expect(session.body).toHaveProperty('access_token');
    });

    it('answers a wrong code with 401 and the spec message, and a short one with 400', async () => {
      const uid = s.firm.users.other?.uid;
      await post('/sessions/send_email_verification_code', { uid });
      const code = await codeFrom(email('other'));
      const wrong = code === '000000' ? '111111' : '000000';
      expect(await post('/sessions/verify_verification_code', { uid, code: wrong })).toMatchObject({
        status: 401,
        body: { error: 'Invalid or expired verification code' },
      });
      expect((await post('/sessions/verify_verification_code', { uid, code: '12' })).status).toBe(400);
    });

    it('sends an SMS code, and answers a user without a phone with the SMS failure message', async () => {
      expect(
        (await post('/sessions/send_sms_verification_code', { uid: s.firm.users.client?.uid })).status,
      ).toBe(200);
      expect(
        await post('/sessions/send_sms_verification_code', { uid: s.firm.users.other?.uid }),
      ).toMatchObject({
        status: 400,
        body: {
          error:
            'SMS code failed to send. Your phone number might be invalid. Please use the button below to reset your sign-in method.',
        },
      });
    });
  });

  describe('links', () => {
    it('signs in with a magic link once; the second use is 410 for the expired-link screen', async () => {
      const who = s.firm.users.linkonly;
      const sent = await post('/sessions/send_auth_link', {
        uid: who?.uid,
        accountant_id: s.firm.firmId,
        redirect: '/profile',
      });
      expect(sent.status).toBe(200);
      const token = await tokenFrom(who?.email as string);
      const first = await post('/sessions/verify_auth_link', { token });
      expect(first).toMatchObject({ status: 200, body: { purpose: 'sign_in', redirect: '/profile' } });
      expect((await post('/sessions/verify_auth_link', { token })).status).toBe(410);
    });

    it('resets a forgotten password and signs in with the new one', async () => {
      const who = s.firm.users.partner;
      expect((await post('/sessions/forgot_password', { email: who?.email })).status).toBe(200);
      const link = await post('/sessions/verify_auth_link', { token: await tokenFrom(who?.email as string) });
      const grant = (link.body as { auth_token: string; purpose: string }).auth_token;
      expect((link.body as { purpose: string }).purpose).toBe('set_password');
      expect(
        await post('/sessions/reset_password', {
          token: grant,
          password: 'weak',
          password_confirmation: 'weak',
        }),
      ).toMatchObject({ status: 400, body: { error: 'Password must be greater than 10 characters' } });
      expect(
        (
          await post('/sessions/reset_password', {
            token: grant,
            password: 'Fresh-Partner-9',
            password_confirmation: 'Fresh-Partner-9',
          })
        ).status,
      ).toBe(200);
      expect(
        (await post('/sessions/verify_password', { email: who?.email, password: 'Fresh-Partner-9' })).status,
      ).toBe(200);
    });
  });

  describe('two-factor', () => {
    it('asks for the second factor and signs in with the emailed code', async () => {
      const step = await post('/sessions/verify_password', {
        email: email('twofa'),
        password: TEST_PASSWORD,
      });
      const body = step.body as { two_factor_required: boolean; challenge_token: string; auth_token: string };
      expect(body.two_factor_required).toBe(true);
      expect(body.auth_token).toBe('');
      const done = await post('/sessions/verify_2fa_code', {
        challenge_token: body.challenge_token,
        code: await codeFrom(email('twofa')),
      });
      expect(done.status).toBe(200);
      expect((done.body as { auth_token: string }).auth_token).toBeTruthy();
    });

    it('sends the two-factor link on request', async () => {
      const step = await post('/sessions/verify_password', {
        email: email('twofa'),
        password: TEST_PASSWORD,
      });
      const challenge = (step.body as { challenge_token: string }).challenge_token;
      expect((await post('/sessions/send_2fa_link', { challenge_token: challenge })).status).toBe(200);
      const res = await post('/sessions/verify_auth_link', { token: await tokenFrom(email('twofa')) });
      expect((res.body as { auth_token: string }).auth_token).toBeTruthy();
    });
  });

  describe('sessions', () => {
    it('refreshes once per refresh token: 409 for a second tab at once, and a later reuse revokes the family with 401', async () => {
      const first = await s.signIn(s.firm, 'client');
      const second = await post('/sessions/refresh', { refresh_token: first.refresh_token });
      expect(second.status).toBe(200);
      expect(await post('/sessions/refresh', { refresh_token: first.refresh_token })).toMatchObject({
        status: 409,
        body: { code: 'refresh_superseded', error: 'This session was just renewed. Please try again.' },
      });
      const newest = (second.body as { refresh_token: string }).refresh_token;
      await s.identity.query(
        `update refresh_tokens set rotated_at = now() - interval '1 minute' where rotated_at is not null`,
      );
      expect(await post('/sessions/refresh', { refresh_token: first.refresh_token })).toMatchObject({
        status: 401,
      });
      expect((await post('/sessions/refresh', { refresh_token: newest })).status).toBe(401);
    });

    it('answers 401 with a code the browser uses to refresh, for missing, forged and other-key tokens', async () => {
      expect(await s.call('GET', '/current_user')).toMatchObject({
        status: 401,
        body: { code: 'unauthenticated' },
      });
      expect(await s.call('GET', '/current_user', { token: 'abc.def.ghi' })).toMatchObject({ status: 401 });
      const session = await s.signIn(s.firm, 'client');
      const [h, p] = session.access_token.split('.');
      const tampered = `${h}.${p}.${'A'.repeat(86)}`;
      expect((await s.call('GET', '/current_user', { token: tampered })).status).toBe(401);
      // The same claims and key id, signed with a key that is not identity's.
      const { privateKey } = await generateKeyPair('ES256');
      const otherKey = await new SignJWT(decodeJwt(session.access_token))
        .setProtectedHeader(decodeProtectedHeader(session.access_token) as { alg: string })
        .sign(privateKey);
      expect((await s.call('GET', '/current_user', { token: otherKey })).status).toBe(401);
      expect((await s.call('GET', '/current_user', { token: session.access_token })).status).toBe(200);
    });

    it('signs out everywhere: refresh tokens stop working', async () => {
      const a = await s.signIn(s.firm, 'rocompany');
      const b = await s.signIn(s.firm, 'rocompany');
      const res = await s.call('POST', '/sessions/sign_out_everywhere', { token: a.access_token });
      expect(res.status).toBe(200);
      for (const t of [a, b])
        expect((await post('/sessions/refresh', { refresh_token: t.refresh_token })).status).toBe(401);
    });

    it('sets a sign-in method for a set_password_required user', async () => {
      const session = await s.signIn(s.firm, 'setpw');
      expect(session).toMatchObject({ set_password_required: true });
      const set = (body: object) =>
        s.call('POST', '/users/set_sign_in_method', { token: session.access_token, body });
      // Spec 2 section 7's keys: signInMethod with newPassword or phoneNumber.
      for (const [body, error] of [
        [{ signInMethod: 'fax' }, 'Please choose a sign-in method'],
        [{}, 'Please choose a sign-in method'],
        [{ signInMethod: 'sms' }, 'Phone is required'],
        [{ signInMethod: 'password' }, 'Password is missing'],
        [{ signInMethod: 'password', newPassword: 'Picked-Secret-42' }, 'Passwords do not match'],
        // The keys shells sent before the spec's, read the same way.
        [{ method: 'sms' }, 'Phone is required'],
        [{ method: 'password', password: 'Picked-Secret-42' }, 'Passwords do not match'],
      ] as const)
        expect(await set(body)).toMatchObject({ status: 400, body: { error } });
      expect(
        await set({
          signInMethod: 'password',
          newPassword: 'Picked-Secret-42',
          password_confirmation: 'Picked-Secret-42',
        }),
      ).toMatchObject({ status: 200, body: { preferred_sign_in_method: 'password' } });
    });

    it('publishes the JWKS', async () => {
      const res = await s.call<{ keys: { kid: string; crv: string }[] }>('GET', '/.well-known/jwks.json');
      expect(res.status).toBe(200);
      expect(res.body.keys[0]).toMatchObject({ kid: 'test-key', crv: 'P-256' });
      // Its own caching stays; the security headers come with it.
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('keeps a signed-in answer out of every cache, with the security headers, errors too', async () => {
      const session = await s.signIn(s.firm, 'full');
      const res = await s.call('GET', '/current_user', { token: session.access_token });
      expect(res.status).toBe(200);
      const refused = await s.call('GET', '/current_user');
      expect(refused.status).toBe(401);
      for (const answer of [res, refused])
        expect({
          cache: answer.headers.get('cache-control'),
          sniff: answer.headers.get('x-content-type-options'),
          referrer: answer.headers.get('referrer-policy'),
          frame: answer.headers.get('x-frame-options'),
        }).toEqual({ cache: 'no-store', sniff: 'nosniff', referrer: 'no-referrer', frame: 'DENY' });
    });
  });
});
