import { describe, expect, it } from '@jest/globals';
import { AppError, type BusClient } from '@portico/platform';
import { capturedLog } from '@portico/platform/testing';
import type { AccountNoticeDue } from '@portico/proto';
import type { FirmsRepository } from '../firms/firms.repository.js';
import { AccountNotices } from '../users/account-notices.js';

const event = {
  eventId: '5e0c2a4e-1a4f-4c61-9d0e-2b8f3c7d9a10',
  userId: '7d3c1c9e-5a43-4f4e-9a55-3f1d2f6a0b11',
  firmId: '0f7b2a10-8d7e-4c43-b2a4-9a1b6f1e2c3d',
  kind: 'email_changed',
  to: 'cleo@example.com',
  maskedValue: 'n**************@example.com',
  occurredAt: '2026-01-15T12:00:00.000Z',
} as AccountNoticeDue;

const firms = {
  forMessages: async () => ({ name: 'Demo CPA', slug: 'demo-cpa' }),
} as unknown as FirmsRepository;

/** Notices over a bus whose requests answer `answer`, with what was asked and what was logged. */
function notices(answer: () => Promise<unknown>) {
  const sent: Record<string, unknown>[] = [];
  const bus = {
    request: async (_contract: unknown, message: Record<string, unknown>) => {
      sent.push(message);
      return answer();
    },
  } as unknown as BusClient;
  const { lines, logger: log } = capturedLog('identity');
  return { sent, lines, notices: new AccountNotices(firms, bus, log) };
}

describe('notices about an account', () => {
  it("are emailed in the firm's name, with the new value masked, once per event", async () => {
    const { sent, lines, notices: n } = notices(async () => ({ id: 'm1', status: 'queued' }));
    await n.send(event, event.eventId);
    expect(sent).toEqual([
      expect.objectContaining({
        to: 'cleo@example.com',
        senderName: 'Demo CPA',
        kind: 'email_changed',
        firmId: event.firmId,
        idempotencyKey: `account_notice:${event.eventId}`,
        subject: 'Your Demo CPA sign-in email was changed',
        text: expect.stringContaining('is now n**************@example.com'),
      }),
    ]);
    expect(lines).toEqual([]);
  });

  it('tell of a phone change with the masked number', async () => {
    const { sent, notices: n } = notices(async () => ({ id: 'm1', status: 'queued' }));
    await n.send({ ...event, kind: 'phone_changed', maskedValue: '(***) ***-0142' }, event.eventId);
    expect(sent[0]).toMatchObject({
      subject: 'Your Demo CPA phone number was changed',
      text: expect.stringContaining('is now (***) ***-0142; sign-in codes'),
    });
  });

  it.each([
    ['password_changed', 'Your Demo CPA password was changed'],
    ['two_factor_off', 'Two-factor authentication was turned off for your Demo CPA account'],
  ])('tell of %s to the account', async (kind, subject) => {
    const { sent, notices: n } = notices(async () => ({ id: 'm1', status: 'queued' }));
    await n.send({ ...event, kind, maskedValue: '' }, event.eventId);
    expect(sent[0]).toMatchObject({
      kind,
      subject,
      text: expect.stringContaining('contact Demo CPA at once'),
    });
  });

  it('fail while notifications is away, so the event comes again', async () => {
    const { lines, notices: n } = notices(async () => {
      throw new AppError('unavailable', 'no_responders', 'Service unavailable');
    });
    await expect(n.send(event, event.eventId)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(lines).toEqual([]);
  });

  it('refused for good are logged at error with the user, and done', async () => {
    const { lines, notices: n } = notices(async () => {
      throw new AppError('bad_request', 'invalid_email', 'Please enter a valid email address');
    });
    await expect(n.send(event, event.eventId)).resolves.toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        kind: 'email_changed',
        user_id: event.userId,
        firm_id: event.firmId,
        event_id: event.eventId,
        msg: 'An account notice was refused for good; the change it tells of is saved',
      }),
    ]);
  });

  it('of a kind this version does not know are dropped and logged, not sent', async () => {
    const { sent, lines, notices: n } = notices(async () => ({ id: 'm1', status: 'queued' }));
    await n.send({ ...event, kind: 'password_rotated' }, event.eventId);
    expect(sent).toEqual([]);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', msg: 'An account notice of an unknown kind was dropped' }),
    ]);
  });
});
