import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGateway } from '@portico/gateway/testing';
import { TEST_PASSWORD } from '@portico/identity/testing';
import WebSocket from 'ws';
import { type Stack, startStack } from '../stack.js';

// Tenant isolation, roles and read-only flags through the gateway, and what a browser sees when a
// service goes away.
describe('API: access rules through the gateway', () => {
  let s: Stack;
  const tokens: Record<string, string> = {};
  const as = (key: string) => tokens[key] as string;

  beforeAll(async () => {
    s = await startStack('e2e-access');
    for (const key of ['partner', 'full', 'group', 'nogroup', 'client', 'readonly', 'rocompany']) {
      tokens[key] = (await s.signIn(s.firm, key)).access_token;
    }
  });
  afterAll(async () => {
    await s.stop();
  });

  describe("another firm's records answer 404 on every route, with nothing leaked", () => {
    const foreignUser = () => s.other.users.client?.id as string;
    const foreignCompany = () => s.other.companies.llc?.id as string;
    const cases: [string, string, () => string, unknown?][] = [
      ['GET', '/users/:id', foreignUser],
      ['PATCH', '/users/:id', foreignUser, { time_zone: 'Hawaii' }],
      ['GET', '/companies/:id', foreignCompany],
      ['PATCH', '/companies/:id', foreignCompany, { name: 'Stolen LLC' }],
    ];
    for (const [method, route, id, body] of cases) {
      it(`${method} ${route} as a partner`, async () => {
        const res = await s.call(method, route.replace(':id', id()), { token: as('partner'), body });
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain(id());
        expect(JSON.stringify(res.body)).not.toMatch(/Cleo|Stolen/);
      });
    }

    it('PUT /companies/:id as a client', async () => {
      const res = await s.call('PUT', `/companies/${foreignCompany()}`, {
        token: as('client'),
        body: { city: 'Elsewhere' },
      });
      expect(res.status).toBe(404);
    });

    it('POST /set_default_company as a client', async () => {
      const res = await s.call('POST', '/set_default_company', {
        token: as('client'),
        body: { company_id: foreignCompany() },
      });
      expect(res.status).toBe(404);
    });

    it('GET /v2/entities lists only the own firm', async () => {
      const res = await s.call<{ companies: { firm_id: string }[] }>(
        'GET',
        '/v2/entities?rows_per_page=50&search_term=Cleo',
        { token: as('partner') },
      );
      expect(res.status).toBe(200);
      expect(res.body.companies.length).toBeGreaterThan(0);
      expect(res.body.companies.every((c) => c.firm_id === s.firm.firmId)).toBe(true);
    });

    it('GET /v2/entities takes the page sizes 10, 20 and 50 only, and filters by entity type', async () => {
      const bad = await s.call<{ fields: Record<string, string> }>('GET', '/v2/entities?rows_per_page=100', {
        token: as('partner'),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.rows_per_page).toBe('Rows per page must be 10, 20 or 50');
      // Past what the contract's int32 holds: a 400, not the 500 of a failed encoding.
      const far = await s.call<{ fields: Record<string, string> }>('GET', '/v2/entities?page=3000000000', {
        token: as('partner'),
      });
      expect(far).toMatchObject({ status: 400, body: { fields: { page: 'Page is out of range' } } });
      for (const query of ['?page=0', '?page=-1'])
        expect(await s.call('GET', `/v2/entities${query}`, { token: as('partner') })).toMatchObject({
          status: 400,
          body: { error: 'Page is out of range', fields: { page: 'Page is out of range' } },
        });
      // Left empty, as a form leaves them: the first page of 10.
      const empty = await s.call<{ companies: unknown[] }>('GET', '/v2/entities?page=&rows_per_page=', {
        token: as('partner'),
      });
      expect(empty.status).toBe(200);
      expect(empty.body.companies.length).toBeLessThanOrEqual(10);
      const llcs = await s.call<{ companies: { entity_type: string }[] }>(
        'GET',
        '/v2/entities?rows_per_page=20&entity_type=Partnership',
        { token: as('partner') },
      );
      expect(llcs.status).toBe(200);
      expect(llcs.body.companies.length).toBeGreaterThan(0);
      expect(llcs.body.companies.every((c) => c.entity_type === 'Partnership')).toBe(true);
    });

    it('GET /v2/entities sorts newest first, oldest first with descending=false', async () => {
      const ids = async (query: string) =>
        (
          await s.call<{ companies: { id: string }[] }>('GET', `/v2/entities?rows_per_page=50${query}`, {
            token: as('partner'),
          })
        ).body.companies.map((c) => c.id);
      const newest = await ids('');
      expect(await ids('&descending=true')).toEqual(newest);
      expect(await ids('&descending=false')).toEqual([...newest].reverse());
    });

    it("the current firm is always the caller's own", async () => {
      const res = await s.call<{ id: string }>('GET', '/firms/current_user_firm', { token: as('partner') });
      expect(res.body.id).toBe(s.firm.firmId);
      // The path shells built before the spec's still call.
      const older = await s.call<{ id: string }>('GET', '/current_user_firm', { token: as('partner') });
      expect(older).toMatchObject({ status: 200, body: res.body });
    });

    it('the firm preferences of another firm never change', async () => {
      const firmOf = (token: string) =>
        s.call<{ id: string; preferences: { tour_enabled: boolean } }>('GET', '/firms/current_user_firm', {
          token,
        });
      const otherPartner = (await s.signIn(s.other, 'partner')).access_token;
      const before = await firmOf(otherPartner);
      expect(before.body.preferences.tour_enabled).toBe(true);
      const saved = await s.call('POST', '/firms/update_preferences', {
        token: as('partner'),
        body: { preferences: { tour_enabled: false } },
      });
      try {
        expect(saved.status).toBe(200);
        // The save took in the partner's own firm, so the other firm's value is unchanged by it, not missed.
        expect((await firmOf(as('partner'))).body.preferences.tour_enabled).toBe(false);
        const after = await firmOf(otherPartner);
        expect(after.body.id).toBe(s.other.firmId);
        expect(after.body).toEqual(before.body);
      } finally {
        await s.call('POST', '/firms/update_preferences', {
          token: as('partner'),
          body: { preferences: { tour_enabled: true } },
        });
      }
    });
  });

  describe('roles', () => {
    it('only a partner saves firm preferences (403 otherwise)', async () => {
      for (const key of ['full', 'group', 'client']) {
        const res = await s.call('POST', '/firms/update_preferences', {
          token: as(key),
          body: { preferences: { tour_enabled: true } },
        });
        expect(res.status).toBe(403);
      }
      const ok = await s.call('POST', '/firms/update_preferences', {
        token: as('partner'),
        body: { preferences: { tour_enabled: true } },
      });
      expect(ok.status).toBe(200);
    });

    it('a client cannot use the firm entity edit, an advisor cannot use the client entity profile', async () => {
      const mine = s.firm.companies.llc?.id;
      expect(
        (await s.call('PATCH', `/companies/${mine}`, { token: as('client'), body: { name: 'Mine' } })).status,
      ).toBe(403);
      expect(
        (await s.call('PUT', `/companies/${mine}`, { token: as('partner'), body: { city: 'X' } })).status,
      ).toBe(403);
    });

    it('a client sees only their own user record', async () => {
      expect((await s.call('GET', `/users/${s.firm.users.other?.id}`, { token: as('client') })).status).toBe(
        404,
      );
      expect((await s.call('GET', `/users/${s.firm.users.client?.id}`, { token: as('client') })).status).toBe(
        200,
      );
    });

    it('a group advisor without a group sees no grouped client when firm groups are on', async () => {
      await s.call('POST', '/firms/update_preferences', {
        token: as('partner'),
        body: { preferences: { has_firm_groups: true } },
      });
      expect(
        (await s.call('GET', `/users/${s.firm.users.client?.id}`, { token: as('nogroup') })).status,
      ).toBe(404);
      expect((await s.call('GET', `/users/${s.firm.users.client?.id}`, { token: as('group') })).status).toBe(
        200,
      );
      await s.call('POST', '/firms/update_preferences', {
        token: as('partner'),
        body: { preferences: { has_firm_groups: false } },
      });
    });
  });

  describe('read-only flags', () => {
    it('a read-only user cannot edit the profile', async () => {
      const res = await s.call('PATCH', `/users/${s.firm.users.readonly?.id}`, {
        token: as('readonly'),
        body: { time_zone: 'Hawaii' },
      });
      expect(res).toMatchObject({
        status: 403,
        body: {
          error:
            'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
        },
      });
    });

    it('a read-only entity cannot be edited by its client', async () => {
      const res = await s.call('PUT', `/companies/${s.firm.companies.rex_ro?.id}`, {
        token: as('rocompany'),
        body: { city: 'X' },
      });
      expect(res).toMatchObject({
        status: 403,
        body: {
          error:
            'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
        },
      });
    });

    it('bad profile input is refused with field messages and nothing is saved', async () => {
      const id = s.firm.users.client?.id;
      const res = await s.call('PATCH', `/users/${id}`, {
        token: as('client'),
        body: { phone_number: '12', time_zone: 'Hawaii' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ fields: { phone_number: 'Phone number must be 10 digits' } });
      const me = await s.call<{ time_zone: string }>('GET', '/current_user', { token: as('client') });
      expect(me.body.time_zone).toBe('Pacific Time (US & Canada)');
    });

    it("saves a client's profile, and the change is there on the next read", async () => {
      const id = s.firm.users.client?.id;
      const change = { phone_number: '(646) 555-0142', preferred_contact_method: 'sms' };
      // A new phone of their own is confirmed with the password they sign in with.
      const unconfirmed = await s.call('PATCH', `/users/${id}`, { token: as('client'), body: change });
      expect(unconfirmed.status).toBe(400);
      expect(unconfirmed.body).toMatchObject({ fields: { current_password: 'Current password is missing' } });
      const res = await s.call('PATCH', `/users/${id}`, {
        token: as('client'),
        body: { ...change, current_password: TEST_PASSWORD },
      });
      expect(res.status).toBe(200);
      const me = await s.call<{ phone_number: string; preferred_contact_method: string }>(
        'GET',
        '/current_user',
        { token: as('client') },
      );
      expect(me.body).toMatchObject({ phone_number: '6465550142', preferred_contact_method: 'sms' });
    });
  });

  describe('realtime', () => {
    it('a forced sign-out reaches the open socket of that user', async () => {
      const session = await s.signIn(s.firm, 'other');
      const ws = new WebSocket(`${s.gateway.url.replace('http', 'ws')}/realtime`, [
        'portico.realtime',
        session.access_token,
      ]);
      const received: string[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.on('message', (data) => received.push(String(data)));
      await s.call('POST', '/sessions/sign_out_everywhere', { token: session.access_token });
      const deadline = Date.now() + 5_000;
      while (!received.some((m) => m.includes('forced_sign_out')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(received.some((m) => m.includes('forced_sign_out'))).toBe(true);
      ws.close();
    });
  });

  describe('revoked sessions', () => {
    it("refuses a signed-out session's access token at once, and a stolen session's once its refresh token is reused, not the user's other sessions", async () => {
      /** The status GET /current_user answers the token with, once it is 401 or after 5 s. */
      const statusOnceRefused = async (token: string) => {
        const deadline = Date.now() + 5_000;
        for (;;) {
          const { status } = await s.call('GET', '/current_user', { token });
          if (status === 401 || Date.now() > deadline) return status;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const kept = await s.signIn(s.firm, 'other');
      const left = await s.signIn(s.firm, 'other');
      expect((await s.call('GET', '/current_user', { token: left.access_token })).status).toBe(200);
      expect(
        (await s.call('POST', '/sessions/sign_out', { body: { refresh_token: left.refresh_token } })).status,
      ).toBe(200);
      expect(await statusOnceRefused(left.access_token)).toBe(401);

      const stolen = await s.signIn(s.firm, 'other');
      const rotated = await s.call('POST', '/sessions/refresh', {
        body: { refresh_token: stolen.refresh_token },
      });
      const thief = (rotated.body as { access_token: string }).access_token;
      // The first refresh token used again, later than a second tab of the owner's browser would: the
      // whole session ends, the new access token with it.
      await s.identity.query(
        `update refresh_tokens set rotated_at = now() - interval '1 minute' where rotated_at is not null`,
      );
      expect(
        (await s.call('POST', '/sessions/refresh', { body: { refresh_token: stolen.refresh_token } })).status,
      ).toBe(401);
      expect(await statusOnceRefused(thief)).toBe(401);

      expect((await s.call('GET', '/current_user', { token: kept.access_token })).status).toBe(200);
    });
  });

  describe('a gateway replica that starts after a revocation', () => {
    it('refuses the revoked tokens still within their lifetime, and takes the others', async () => {
      const kept = await s.signIn(s.firm, 'admin');
      const left = await s.signIn(s.firm, 'full');
      const everywhere = await s.signIn(s.firm, 'other');
      await s.call('POST', '/sessions/sign_out', { body: { refresh_token: left.refresh_token } });
      await s.call('POST', '/sessions/sign_out_everywhere', { token: everywhere.access_token });
      // Both revocations have reached the stream (the running replica acts on them) before the late one starts.
      const deadline = Date.now() + 5_000;
      for (const token of [left.access_token, everywhere.access_token])
        while ((await s.call('GET', '/current_user', { token })).status !== 401)
          if (Date.now() > deadline) throw new Error('the running replica still takes a signed-out token');

      // A replica started now (a rolling deploy, a restart) has heard none of it as it happened.
      const late = await startGateway({
        natsUrl: s.natsUrl,
        env: { LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: '3000' },
      });
      try {
        const statusAt = async (token: string) =>
          (await fetch(`${late.url}/current_user`, { headers: { authorization: `Bearer ${token}` } })).status;
        expect(await statusAt(left.access_token)).toBe(401);
        expect(await statusAt(everywhere.access_token)).toBe(401);
        expect(await statusAt(kept.access_token)).toBe(200);
        // The same user's other session (signed in before the test) goes on.
        expect(await statusAt(as('full'))).toBe(200);
      } finally {
        await late.stop();
      }
    });
  });

  describe('revoked users', () => {
    it('refuses after a sign-out everywhere the tokens issued before it, in the same second too, and not a sign-in right after', async () => {
      const before = await s.signIn(s.firm, 'admin');
      const out = await s.call('POST', '/sessions/sign_out_everywhere', { token: before.access_token });
      expect(out.status).toBe(200);
      const after = await s.signIn(s.firm, 'admin');
      const deadline = Date.now() + 5_000;
      while ((await s.call('GET', '/current_user', { token: before.access_token })).status !== 401)
        if (Date.now() > deadline) throw new Error('the token of before the sign-out everywhere still works');
      expect((await s.call('GET', '/current_user', { token: after.access_token })).status).toBe(200);
    });
  });

  describe('a service that goes away', () => {
    it('answers 503 at once, and the gateway stays up', async () => {
      await s.stopIdentity();
      const started = Date.now();
      const res = await s.call('GET', '/current_user', { token: as('partner') });
      // No one answers its subject now: NATS says so at once, well before the gateway's timeout (3 s).
      expect(res.status).toBe(503);
      expect(res.body).toHaveProperty('error');
      expect(Date.now() - started).toBeLessThan(2_500);
      expect((await s.call('GET', '/health/live')).status).toBe(200);
    });
  });
});
