import { describe, expect, it } from '@jest/globals';
import { AppError } from '@portico/platform';
import { capturedLog } from '@portico/platform/testing';
import type { FirmsRepository } from '../firms/firms.repository.js';
import type { UserRow } from '../schema.js';
import type { OutboundMessages } from '../sessions/outbound.js';
import { AccountNotices } from '../users/account-notices.js';

const user = {
  id: '7d3c1c9e-5a43-4f4e-9a55-3f1d2f6a0b11',
  firmId: '0f7b2a10-8d7e-4c43-b2a4-9a1b6f1e2c3d',
  email: 'cleo@example.com',
  phoneNumber: '4155550123',
  updatedAt: new Date('2026-01-15T12:00:00Z'),
} as UserRow;

const firms = {
  forMessages: async () => ({ name: 'Demo CPA', slug: 'demo-cpa' }),
} as unknown as FirmsRepository;

/** Notices over an outbound port that answers `send`, with what was sent and what was logged. */
function notices(send: () => Promise<void>) {
  const sent: Record<string, unknown>[] = [];
  const outbound = {
    email: async (message: Record<string, unknown>) => {
      sent.push(message);
      await send();
    },
  } as unknown as OutboundMessages;
  const { lines, logger: log } = capturedLog('identity');
  return { sent, lines, notices: new AccountNotices(firms, outbound, log) };
}

describe('notices about an account', () => {
  it("tell the old address of a changed sign-in email, in the firm's name, once per change", async () => {
    const { sent, lines, notices: n } = notices(async () => undefined);
    await n.emailChanged({ ...user, email: 'new.address@example.com' }, 'cleo@example.com', 'change-1');
    expect(sent).toEqual([
      expect.objectContaining({
        to: 'cleo@example.com',
        senderName: 'Demo CPA',
        kind: 'email_changed',
        idempotencyKey: `email_changed:${user.id}:change-1`,
        subject: 'Your Demo CPA sign-in email was changed',
      }),
    ]);
    expect(String(sent[0]?.text)).not.toContain('new.address@');
    expect(lines).toEqual([]);
  });

  it('that cannot be sent leave the change standing and are logged at error, naming the notice', async () => {
    const { lines, notices: n } = notices(async () => {
      throw new AppError('unavailable', 'send_failed', 'Sorry, there was a problem');
    });
    await expect(n.phoneChanged(user)).resolves.toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        kind: 'phone_changed',
        user_id: user.id,
        firm_id: user.firmId,
        idempotency_key: `phone_changed:${user.id}:${user.updatedAt.getTime()}`,
        msg: 'An account notice was not sent; the change it tells of is saved',
      }),
    ]);
  });
});
