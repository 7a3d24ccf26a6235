import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notifications } from '@portico/proto';
import { Harness } from './harness.js';

const INVALID_PHONE =
  'SMS code failed to send. Your phone number might be invalid. Please use the button below to reset your sign-in method.';

describe('notifications over NATS, outbox mode (the local default)', () => {
  let h: Harness;
  let healthPort: number;

  beforeAll(async () => {
    h = await Harness.create();
    ({ healthPort } = await h.start());
  });

  afterAll(async () => {
    await h.stop();
  });

  it('stores an email as kept and lists it in the outbox', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'Client.One@Example.com',
      subject: 'Your sign-in code',
      text: 'Your code is 123456',
      html: '<p>Your code is <b>123456</b></p>',
      kind: 'sign_in_code',
      firmId: '00000000-0000-4000-8000-000000000001',
    });
    expect(reply.status).toBe('kept');
    expect(reply.id).toMatch(/^[0-9a-f-]{36}$/);

    const { messages } = await h.bus.request(Notifications.listOutbox, { to: 'client.one@example.com' });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: reply.id,
      channel: 'email',
      to: 'client.one@example.com',
      subject: 'Your sign-in code',
      text: 'Your code is 123456',
      html: '<p>Your code is <b>123456</b></p>',
      kind: 'sign_in_code',
      status: 'kept',
      sentAt: '',
    });
    expect(Date.parse(messages[0]?.createdAt ?? '')).not.toBeNaN();
  });

  it('answers the stored message for a repeated idempotency key and never stores a second one', async () => {
    const request = {
      to: 'twice@example.com',
      subject: 'Reset your password',
      text: 'Use this link',
      kind: 'password_reset',
      idempotencyKey: 'reset:user-42:1',
    };
    const replies = await Promise.all(
      [1, 2, 3, 4, 5].map(() => h.bus.request(Notifications.sendEmail, request)),
    );
    const again = await h.bus.request(Notifications.sendEmail, { ...request, text: 'A different body' });
    expect(new Set([...replies, again].map((r) => r.id)).size).toBe(1);
    const { rows } = await h.pool.query('select text from outbound_messages where recipient = $1', [
      'twice@example.com',
    ]);
    expect(rows).toEqual([{ text: 'Use this link' }]);
  });

  it('refuses an address without a proper domain with 400 and stores nothing', async () => {
    for (const to of ['someone@example.c', 'someone@localhost', 'not-an-address']) {
      await expect(
        h.bus.request(Notifications.sendEmail, { to, subject: 'Hi', text: 'Hello', kind: 'test' }),
      ).rejects.toMatchObject({ status: 400, code: 'invalid_email' });
    }
    const { rows } = await h.pool.query("select 1 from outbound_messages where recipient like 'someone%'");
    expect(rows).toHaveLength(0);
  });

  it('refuses an email without a subject or a body', async () => {
    await expect(
      h.bus.request(Notifications.sendEmail, { to: 'a@example.com', subject: ' ', text: 'x', kind: 'test' }),
    ).rejects.toMatchObject({ status: 400, extra: { fields: { subject: expect.any(String) } } });
    await expect(
      h.bus.request(Notifications.sendEmail, { to: 'a@example.com', subject: 'Hi', kind: 'test' }),
    ).rejects.toMatchObject({ status: 400, extra: { fields: { text: expect.any(String) } } });
    await expect(
      h.bus.request(Notifications.sendEmail, {
        to: 'a@example.com',
        subject: 'Hi',
        text: 'x',
        kind: 'test',
        senderName: 'x'.repeat(201),
      }),
    ).rejects.toMatchObject({ status: 400, extra: { fields: { sender_name: expect.any(String) } } });
  });

  it('refuses an SMS to a number that is not 10 US digits with the spec message', async () => {
    for (const to of ['12345', '+44 20 7946 0958', '555-CALL-NOW', '']) {
      await expect(
        h.bus.request(Notifications.sendSms, { to, text: 'Your code is 123456', kind: 'sign_in_code' }),
      ).rejects.toMatchObject({
        status: 400,
        kind: 'bad_request',
        code: 'invalid_phone',
        message: INVALID_PHONE,
      });
    }
  });

  it('keeps an SMS under its 10 digits and filters the outbox by recipient and channel', async () => {
    const sms = await h.bus.request(Notifications.sendSms, {
      to: '+1 (555) 010-2030',
      text: 'Your code is 654321',
      kind: 'sign_in_code',
    });
    expect(sms.status).toBe('kept');
    await h.bus.request(Notifications.sendEmail, {
      to: 'mixed@example.com',
      subject: 'Hello',
      text: 'An email',
      kind: 'test',
    });

    const bySms = await h.bus.request(Notifications.listOutbox, { to: '5550102030', channel: 'sms' });
    expect(bySms.messages.map((m) => [m.id, m.to, m.text, m.subject])).toEqual([
      [sms.id, '5550102030', 'Your code is 654321', ''],
    ]);
    const formatted = await h.bus.request(Notifications.listOutbox, { to: '(555) 010-2030' });
    expect(formatted.messages.map((m) => m.id)).toEqual([sms.id]);
    const noEmail = await h.bus.request(Notifications.listOutbox, { to: '5550102030', channel: 'email' });
    expect(noEmail.messages).toEqual([]);
    await expect(h.bus.request(Notifications.listOutbox, { channel: 'fax' })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('lists newest first, 20 by default and at most 100', async () => {
    const to = 'busy.client@example.com';
    for (let i = 1; i <= 25; i++) {
      await h.bus.request(Notifications.sendEmail, { to, subject: `Message ${i}`, text: 'x', kind: 'test' });
    }
    const byDefault = await h.bus.request(Notifications.listOutbox, { to });
    expect(byDefault.messages).toHaveLength(20);
    expect(byDefault.messages[0]?.subject).toBe('Message 25');
    expect(byDefault.messages[19]?.subject).toBe('Message 6');
    expect((await h.bus.request(Notifications.listOutbox, { to, limit: 3 })).messages).toHaveLength(3);
    expect((await h.bus.request(Notifications.listOutbox, { to, limit: 1000 })).messages).toHaveLength(25);
    const all = await h.bus.request(Notifications.listOutbox, { limit: 1000 });
    expect(all.messages.length).toBeLessThanOrEqual(100);
    expect(all.messages.length).toBeGreaterThan(25);
  });

  it('stores nothing for a caller that stopped waiting before the message was written', async () => {
    // The table is held by another transaction until after the caller's timeout.
    const lock = await h.pool.connect();
    await lock.query('begin; lock table outbound_messages in access exclusive mode');
    const sent = h.bus.request(
      Notifications.sendEmail,
      { to: 'gave-up@example.com', subject: 'Your code', text: 'Your code is 111111', kind: 'sign_in_code' },
      { timeoutMs: 300 },
    );
    await expect(sent).rejects.toMatchObject({ status: 504 });
    await lock.query('commit');
    lock.release();
    // Give the handler its turn now that the table is free: it must roll back, not commit.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { rows } = await h.pool.query(
      "select 1 from outbound_messages where recipient = 'gave-up@example.com'",
    );
    expect(rows).toHaveLength(0);
  });

  it('is ready on its health port', async () => {
    const ready = await fetch(`http://127.0.0.1:${healthPort}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: 'ok', nats: 'ok' } });
  });
});

describe('notifications with the dev outbox disabled', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.create();
    await h.start({ DEV_OUTBOX_ENABLED: 'false' });
  });

  afterAll(async () => {
    await h.stop();
  });

  it('refuses to list the outbox with 403 but still accepts messages', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'prod@example.com',
      subject: 'Hi',
      text: 'Hello',
      kind: 'test',
    });
    expect(reply.status).toBe('kept');
    await expect(h.bus.request(Notifications.listOutbox, {})).rejects.toMatchObject({
      status: 403,
      code: 'outbox_disabled',
    });
  });
});
