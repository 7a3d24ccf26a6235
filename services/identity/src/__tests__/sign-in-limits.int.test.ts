import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase } from '@portico/platform';
import { Identity } from '@portico/proto';
import { schema } from '../schema.js';
import { SecretsRepository } from '../sessions/secrets.repository.js';
import { TEST_PASSWORD } from '../testing/index.js';
import { UsersRepository } from '../users/users.repository.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

/** 'rejected 429', 'rejected 401' or 'fulfilled' for each settled call. */
const outcomes = (settled: PromiseSettledResult<unknown>[]) =>
  settled.map((s) =>
    s.status === 'fulfilled' ? 'fulfilled' : `rejected ${(s.reason as { status?: number }).status}`,
  );
const count = (list: string[], value: string) => list.filter((v) => v === value).length;

/**
 * The limits behind sign-in hold when requests arrive at once, not only one after another, and the
 * changes of an account need what they claim to need.
 */
describe('identity: sign-in limits under concurrent requests, and account changes', () => {
  let h: IdentityHarness;
  const user = (key: string) => h.firm.users[key] as { id: string; uid: string; email: string };

  beforeAll(async () => {
    h = await startIdentityHarness('limits');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('gives guesses sent at once no more than the five attempts a code has, the right one included', async () => {
    const { uid, email } = user('other');
    await h.bus.request(Identity.sendEmailCode, { uid });
    const code = await h.lastCodeTo(email);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const burst = outcomes(
      await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => h.bus.request(Identity.verifyCode, { uid, code: wrong(i) })),
      ),
    );
    // Four wrong guesses are told so, the fifth burns the code, the rest find none left.
    expect(count(burst, 'rejected 401')).toBe(4);
    expect(count(burst, 'rejected 429')).toBe(16);
    await expect(h.bus.request(Identity.verifyCode, { uid, code })).rejects.toMatchObject({ status: 401 });
  });

  it('counts wrong codes against the account across new codes, then compares none until the hour is over', async () => {
    const { uid, email } = user('nogroup');
    const guessWrong = async () => {
      await h.bus.request(Identity.sendEmailCode, { uid });
      const code = await h.lastCodeTo(email);
      const wrong = code === '000000' ? '111111' : '000000';
      const told: string[] = [];
      for (let i = 0; i < 5; i++)
        told.push(
          ...outcomes(await Promise.allSettled([h.bus.request(Identity.verifyCode, { uid, code: wrong })])),
        );
      return told;
    };
    // Two codes' five attempts each: ten wrong guesses, the limit of an hour.
    expect(await guessWrong()).toEqual([...Array(4).fill('rejected 401'), 'rejected 429']);
    expect(await guessWrong()).toEqual([...Array(4).fill('rejected 401'), 'rejected 429']);
    // A third code, even the right one, is not compared.
    await h.bus.request(Identity.sendEmailCode, { uid });
    const refused = await h.bus
      .request(Identity.verifyCode, { uid, code: await h.lastCodeTo(email) })
      .catch((e) => e);
    expect(refused).toMatchObject({ status: 429, message: 'Too many incorrect attempts' });
    expect(refused.extra?.retryAfterSeconds ?? refused.retryAfterSeconds).toBeGreaterThan(3000);
  });

  it('hands out exactly five attempts of a code to twenty takers at once', async () => {
    // The property the service relies on: guesses are compared only after taking an attempt.
    const { id, uid, email } = user('other');
    await h.bus.request(Identity.sendEmailCode, { uid });
    expect(await h.lastCodeTo(email)).toMatch(/^\d{6}$/);
    const [row] = await h.identity.query<{ id: string }>(
      `select id from one_time_secrets where user_id = $1 and purpose = 'sign_in_code' and consumed_at is null
       order by created_at desc limit 1`,
      [id],
    );
    const database = openDatabase(h.identity.databaseUrl, schema, { max: 10 });
    try {
      const secrets = new SecretsRepository(database.db);
      const taken = await Promise.all(
        Array.from({ length: 20 }, () => secrets.takeAttempt(row?.id as string, 5)),
      );
      expect(taken.filter((t) => typeof t === 'number').sort()).toEqual([1, 2, 3, 4, 5]);
      expect(taken.filter((t) => t === 'exhausted')).toHaveLength(15);
    } finally {
      await database.close();
    }
  });

  it('lets the right code through when it comes within the five', async () => {
    const { uid, email } = user('other');
    await h.bus.request(Identity.sendEmailCode, { uid });
    const code = await h.lastCodeTo(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const burst = outcomes(
      await Promise.allSettled([
        h.bus.request(Identity.verifyCode, { uid, code: wrong }),
        h.bus.request(Identity.verifyCode, { uid, code: wrong }),
        h.bus.request(Identity.verifyCode, { uid, code }),
      ]),
    );
    expect(burst.sort()).toEqual(['fulfilled', 'rejected 401', 'rejected 401']);
  });

  it('locks the account after five wrong passwords sent at once, and then refuses the right one', async () => {
    const { email } = user('full');
    const burst = outcomes(
      await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          h.bus.request(Identity.verifyPassword, { email, password: `Wrong-${i}-Password!` }),
        ),
      ),
    );
    // Five passwords are compared: four are told wrong, the fifth locks; the rest are refused uncompared.
    expect(count(burst, 'rejected 401')).toBe(4);
    expect(count(burst, 'rejected 429')).toBe(26);
    await expect(
      h.bus.request(Identity.verifyPassword, { email, password: TEST_PASSWORD }),
    ).rejects.toMatchObject({ status: 429 });
  });

  it('hands out five password attempts to twenty takers at once, the fifth locking, and starts again after the lock', async () => {
    const { id } = user('partner');
    const database = openDatabase(h.identity.databaseUrl, schema, { max: 10 });
    try {
      const users = new UsersRepository(database.db);
      const taken = await Promise.all(Array.from({ length: 20 }, () => users.takePasswordAttempt(id, 5, 60)));
      const numbered = taken.flatMap((t) => ('attempt' in t ? [t] : []));
      expect(numbered.map((t) => t.attempt).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(numbered.filter((t) => t.locked).map((t) => t.attempt)).toEqual([5]);
      expect(taken.filter((t) => 'lockedUntil' in t)).toHaveLength(15);
      // The lock runs out: the next attempt is the first again.
      await h.identity.query(`update users set locked_until = now() - interval '1 second' where id = $1`, [
        id,
      ]);
      expect(await users.takePasswordAttempt(id, 5, 60)).toEqual({ attempt: 1, locked: false });
      await h.identity.query(
        `update users set failed_password_attempts = 0, locked_until = null where id = $1`,
        [id],
      );
    } finally {
      await database.close();
    }
  });

  it('lets the right password through as the fifth attempt, and lifts the lock that attempt set', async () => {
    const { email } = user('admin');
    for (let i = 0; i < 4; i++)
      await expect(
        h.bus.request(Identity.verifyPassword, { email, password: `Wrong-${i}-Password!` }),
      ).rejects.toMatchObject({ status: 401 });
    await expect(
      h.bus.request(Identity.verifyPassword, { email, password: TEST_PASSWORD }),
    ).resolves.toBeTruthy();
    await expect(
      h.bus.request(Identity.verifyPassword, { email, password: 'Wrong-again-Password!' }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('sends no more two-factor codes than other codes: a known password does not buy fresh guesses', async () => {
    const { email } = user('twofa');
    for (let i = 0; i < 5; i++)
      await expect(
        h.bus.request(Identity.verifyPassword, { email, password: TEST_PASSWORD }),
      ).resolves.toMatchObject({ twoFactorRequired: true });
    await expect(
      h.bus.request(Identity.verifyPassword, { email, password: TEST_PASSWORD }),
    ).rejects.toMatchObject({ status: 429 });
  });

  it('tells the replaced address of every change, a change back and forth again included', async () => {
    const id = user('readonly').id;
    // A read-only account cannot change its own email: the firm's partner changes it.
    const partner = h.actorOf(h.firm, 'partner');
    const a = user('readonly').email;
    const b = `elsewhere.${Date.now()}@example.com`;
    const change = async (to: string) => {
      await h.bus.request(Identity.updateProfile, { id, email: to }, { actor: partner });
      await h.bus.request(Identity.confirmEmail, { token: await h.lastLinkTokenTo(to) });
    };
    await change(b);
    await change(a);
    await change(b);
    expect(await h.messagesOfKind(a, 'email_changed', 2)).toHaveLength(2);
    // And no third: each change is told once.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await h.messagesOfKind(a, 'email_changed', 0)).toHaveLength(2);
  });

  it('confirms only the address waiting for confirmation: an earlier link of a replaced one changes nothing', async () => {
    const me = h.actorOf(h.firm, 'client');
    const id = user('client').id;
    const typo = `typo.${Date.now()}@example.com`;
    const right = `right.${Date.now()}@example.com`;
    await h.bus.request(
      Identity.updateProfile,
      { id, email: typo, currentPassword: TEST_PASSWORD },
      { actor: me },
    );
    const typoToken = await h.lastLinkTokenTo(typo);
    await h.bus.request(
      Identity.updateProfile,
      { id, email: right, currentPassword: TEST_PASSWORD },
      { actor: me },
    );
    await expect(h.bus.request(Identity.confirmEmail, { token: typoToken })).rejects.toMatchObject({
      status: 410,
    });
    const before = user('client').email;
    const confirmed = await h.bus.request(Identity.confirmEmail, { token: await h.lastLinkTokenTo(right) });
    expect(confirmed.email).toBe(right);
    // The address it replaced hears of it, without the new one in full.
    const [notice] = await h.messagesOfKind(before, 'email_changed');
    expect(notice).toMatchObject({ subject: expect.stringContaining('sign-in email was changed') });
    expect(notice?.text).not.toContain(right);
    await expect(h.bus.request(Identity.lookupEmail, { email: typo })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('gives a signed-in change of sign-in method no grant to sign in again with', async () => {
    const res = await h.bus.request(
      Identity.setSignInMethod,
      { method: 'email', currentPassword: TEST_PASSWORD },
      {
        actor: h.actorOf(h.firm, 'partner'),
      },
    );
    expect(res).toMatchObject({ preferredSignInMethod: 'email', authToken: '' });
  });

  it('asks a signed-in user who signs in with a password for it before any change of method, counting wrong ones', async () => {
    const actor = h.actorOf(h.firm, 'group');
    const change = (currentPassword?: string) =>
      h.bus.request(
        Identity.setSignInMethod,
        {
          method: 'sms',
          phoneNumber: '4155550199',
          ...(currentPassword === undefined ? {} : { currentPassword }),
        },
        { actor },
      );
    await expect(change()).rejects.toMatchObject({ status: 400, message: 'Current password is missing' });
    for (let i = 0; i < 4; i++)
      await expect(change('Not-The-Password-1')).rejects.toMatchObject({
        status: 400,
        message: 'Current password is incorrect',
      });
    // The fifth wrong one locks the account, as at sign-in: the right one is then refused too.
    await expect(change('Not-The-Password-1')).rejects.toMatchObject({ status: 429 });
    await expect(change(TEST_PASSWORD)).rejects.toMatchObject({ status: 429 });
    const [row] = await h.identity.query<{ method: string }>(
      'select preferred_sign_in_method as method from users where id = $1',
      [user('group').id],
    );
    expect(row?.method).toBe('password');
    await h.identity.query(
      'update users set failed_password_attempts = 0, locked_until = null where id = $1',
      [user('group').id],
    );
    await expect(change(TEST_PASSWORD)).resolves.toMatchObject({ preferredSignInMethod: 'sms' });
  });

  it('keeps a read-only account from changing its sign-in method or phone, and its entity, whatever its token says', async () => {
    // The token of before the firm made the account read-only.
    const stale = { ...h.actorOf(h.firm, 'readonly'), readonly_access: false };
    await expect(
      h.bus.request(Identity.setSignInMethod, { method: 'sms', phoneNumber: '4155550199' }, { actor: stale }),
    ).rejects.toMatchObject({ status: 403, message: expect.stringContaining('read-only') });
    await expect(
      h.bus.request(
        Identity.updateCompanyProfile,
        { id: h.firm.companies.rita?.id as string, city: 'Elsewhere' },
        { actor: stale },
      ),
    ).rejects.toMatchObject({ status: 403 });
    const company = await h.bus.request(
      Identity.getCompany,
      { id: h.firm.companies.rita?.id as string },
      { actor: h.actorOf(h.firm, 'partner') },
    );
    expect(company.city).not.toBe('Elsewhere');
  });
});
