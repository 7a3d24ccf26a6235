import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Identity } from '@portico/proto';
import { decodeJwt } from 'jose';
import { hashSecret } from '../crypto/secrets.js';
import { TEST_PASSWORD } from '../testing/index.js';
import { type IdentityHarness, startIdentityHarness } from './harness.js';

describe('identity sessions and firm preferences, bounded work', () => {
  let h: IdentityHarness;
  const email = (key: string) => h.firm.users[key]?.email as string;
  const userId = (key: string) => h.firm.users[key]?.id as string;

  beforeAll(async () => {
    h = await startIdentityHarness('sessions-end');
  });
  afterAll(async () => {
    await h.stop();
  });

  /**
   * Ending sessions touches only the refresh tokens that still renew one (not rotated, not revoked, not
   * expired) and announces only the sessions that were live; a user's token history stays as it was.
   */
  describe('ending sessions', () => {
    const signIn = async (key: string, password = TEST_PASSWORD) => {
      const step = await h.bus.request(Identity.verifyPassword, { email: email(key), password });
      return h.bus.request(Identity.exchangeToken, { authToken: step.authToken });
    };
    const tokenRow = async (refreshToken: string) =>
      (
        await h.identity.query<{ revoked_at: Date | null; rotated_at: Date | null }>(
          'select revoked_at, rotated_at from refresh_tokens where token_hash = $1',
          [hashSecret(refreshToken)],
        )
      )[0];
    const revokedEventsOf = async (key: string) =>
      h.identity.query<{ reason: string; session_id: string }>(
        `select payload->>'reason' as reason, payload->>'session_id' as session_id from outbox_events
        where subject = 'events.identity.session.revoked.v1' and payload->>'user_id' = $1
          and coalesce(payload->>'session_id', '') <> ''`,
        [userId(key)],
      );

    it("signs out everywhere without rewriting the user's rotated, expired or revoked tokens", async () => {
      const renewed = await signIn('other');
      const next = await h.bus.request(Identity.refresh, { refreshToken: renewed.refreshToken });
      const expired = await signIn('other');
      const signedOut = await signIn('other');
      await h.bus.request(Identity.signOut, { refreshToken: signedOut.refreshToken });
      const revokedAt = (await tokenRow(signedOut.refreshToken))?.revoked_at;
      // Rotated a minute ago (past the two-tab grace), and a session whose token ran out.
      await h.identity.query(
        `update refresh_tokens set rotated_at = now() - interval '1 minute' where token_hash = $1`,
        [hashSecret(renewed.refreshToken)],
      );
      await h.identity.query(
        `update refresh_tokens set expires_at = now() - interval '1 day' where token_hash = $1`,
        [hashSecret(expired.refreshToken)],
      );

      const res = await h.bus.request(Identity.signOutEverywhere, {}, { actor: h.actorOf(h.firm, 'other') });

      // One session was live: the renewed one's newest token.
      expect(res.revokedSessions).toBe(1);
      expect((await tokenRow(next.refreshToken))?.revoked_at).toBeInstanceOf(Date);
      expect((await tokenRow(renewed.refreshToken))?.revoked_at).toBeNull();
      expect((await tokenRow(expired.refreshToken))?.revoked_at).toBeNull();
      expect((await tokenRow(signedOut.refreshToken))?.revoked_at).toEqual(revokedAt);
      // None of them renews anything, and the rotated one's reuse is still taken for one.
      for (const token of [next, expired, signedOut])
        await expect(
          h.bus.request(Identity.refresh, { refreshToken: token.refreshToken }),
        ).rejects.toMatchObject({
          status: 401,
        });
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: renewed.refreshToken }),
      ).rejects.toMatchObject({ status: 401, code: 'refresh_reused' });
    });

    it('announces only the sessions that were live when a new password ends the others', async () => {
      const here = await signIn('client');
      const live = await signIn('client');
      const lapsed = await signIn('client');
      await h.identity.query(
        `update refresh_tokens set expires_at = now() - interval '1 day' where token_hash = $1`,
        [hashSecret(lapsed.refreshToken)],
      );
      const sid = (tokens: { accessToken: string }) => decodeJwt(tokens.accessToken).sid as string;
      await h.bus.request(
        Identity.setSignInMethod,
        {
          method: 'password',
          password: 'Changed-Pass-42',
          passwordConfirmation: 'Changed-Pass-42',
          currentPassword: TEST_PASSWORD,
        },
        { actor: { ...h.actorOf(h.firm, 'client'), session_id: sid(here) } },
      );
      const announced = (await revokedEventsOf('client')).filter((e) => e.reason === 'password_changed');
      expect(announced.map((e) => e.session_id)).toEqual([sid(live)]);
      expect((await tokenRow(lapsed.refreshToken))?.revoked_at).toBeNull();
      expect((await tokenRow(live.refreshToken))?.revoked_at).toBeInstanceOf(Date);
    });

    it('answers a token rotated a moment before its session ended as a reuse, not as a renewal by another tab', async () => {
      const first = await signIn('readonly');
      await h.bus.request(Identity.refresh, { refreshToken: first.refreshToken });
      // Within the grace, while the session goes on: another tab renewed it.
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: first.refreshToken }),
      ).rejects.toMatchObject({
        status: 409,
        code: 'refresh_superseded',
      });
      await h.bus.request(Identity.signOutEverywhere, {}, { actor: h.actorOf(h.firm, 'readonly') });
      // Still within the grace, but the session has ended: nothing to take from another tab.
      await expect(
        h.bus.request(Identity.refresh, { refreshToken: first.refreshToken }),
      ).rejects.toMatchObject({
        status: 401,
        code: 'refresh_reused',
      });
    });
  });

  it('refuses an export platform list that is too long, or a name that is, with 400', async () => {
    const save = (platforms: string[]) =>
      h.bus.request(
        Identity.updatePreferences,
        { preferences: { export_to_platforms: platforms } },
        { actor: h.actorOf(h.firm, 'partner') },
      );
    await expect(save(Array.from({ length: 51 }, (_, i) => `platform ${i}`))).rejects.toMatchObject({
      status: 400,
      message: 'export_to_platforms: Must be at most 50 platforms',
    });
    await expect(save(['x'.repeat(101)])).rejects.toMatchObject({
      status: 400,
      message: 'export_to_platforms: Each platform must be at most 100 characters',
    });
    const saved = await save(['lacerte', 'ultratax']);
    expect(saved.preferences).toMatchObject({ export_to_platforms: ['lacerte', 'ultratax'] });
  });
});
