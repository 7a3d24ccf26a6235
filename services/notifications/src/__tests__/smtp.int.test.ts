import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notifications } from '@portico/proto';
import { SMTPServer } from 'smtp-server';
import { DeliveryError } from '../delivery/delivery.error.js';
import { SmtpMailAdapter } from '../delivery/smtp.adapter.js';
import { EXPIRED } from '../delivery.worker.js';
import { Harness } from './harness.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
  /** Whether the session had upgraded to TLS. */
  secure: boolean;
}

/**
 * A real SMTP server on a free loopback port, offering STARTTLS with its own self-signed certificate
 * (unless `plaintextOnly`). It accepts everyone except busy@ (451, try later) and nobody@ (550, no such
 * user), and remembers every recipient it was offered and every login. While `refusing` is above 0, it
 * greets the next connections with a 554 and closes them.
 */
async function startSmtpServer(options: { plaintextOnly?: boolean } = {}) {
  const received: Received[] = [];
  const offered: string[] = [];
  const logins: string[] = [];
  const state = { refusing: 0 };
  const server = new SMTPServer({
    authOptional: true,
    onConnect(_session, callback) {
      if (state.refusing <= 0) return callback();
      state.refusing--;
      callback(Object.assign(new Error('No service for you now'), { responseCode: 554 }));
    },
    // As a server whose STARTTLS offer an attacker on the path has removed: it takes a login regardless.
    ...(options.plaintextOnly ? { disabledCommands: ['STARTTLS'], allowInsecureAuth: true } : {}),
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      offered.push(address.address);
      const refuse = (code: number, text: string) =>
        callback(Object.assign(new Error(text), { responseCode: code }));
      if (address.address.startsWith('busy@')) return refuse(451, 'Mailbox busy, try again later');
      if (address.address.startsWith('nobody@')) return refuse(550, 'No such user here');
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    received,
    offered,
    logins,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('email delivery through SMTP', () => {
  let h: Harness;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await Harness.create();
    await h.start({
      // The test server's certificate is its own, self-signed: not checked, which only a mail catcher's
      // setting allows. The server offers STARTTLS, and it is taken.
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}?tls.rejectUnauthorized=false`,
      SMTP_ALLOW_PLAINTEXT: 'true',
      MAIL_FROM: 'Demo CPA <no-reply@democpa.example>',
      DELIVERY_POLL_MS: '20',
      DELIVERY_RETRY_BASE_MS: '25',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
  });

  afterAll(async () => {
    await h.stop();
    await smtp.close();
  });

  it('queues the message and delivers it to the SMTP server once', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'client@example.com',
      subject: 'Your sign-in link',
      text: 'Open this link to sign in: https://portal.example/magic/abc',
      html: '<p><a href="https://portal.example/magic/abc">Sign in</a></p>',
      kind: 'sign_in_link',
    });
    expect(reply.status).toBe('queued');

    const row = await h.until(reply.id, 'sent');
    expect(row.attempts).toBe(1);
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(row.last_error).toBeNull();

    const mail = smtp.received.filter((m) => m.to.includes('client@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.from).toBe('no-reply@democpa.example');
    expect(mail[0]?.secure).toBe(true);
    expect(mail[0]?.raw).toMatch(/^Subject: Your sign-in link\r?$/m);
    expect(mail[0]?.raw).toMatch(/^From: Demo CPA <no-reply@democpa\.example>\r?$/m);
    expect(mail[0]?.raw).toContain('Open this link to sign in: https://portal.example/magic/abc');
    expect(mail[0]?.raw).toContain('Content-Type: text/html');
    expect(mail[0]?.raw.toLowerCase()).toContain(`x-portico-message-id: ${reply.id}`);
    expect(mail[0]?.raw).toMatch(new RegExp(`^Message-ID: <${reply.id}@democpa\\.example>\r?$`, 'm'));

    const { messages } = await h.bus.request(Notifications.listOutbox, { to: 'client@example.com' });
    expect(messages[0]).toMatchObject({ id: reply.id, status: 'sent', attempts: 1 });
    expect(messages[0]?.sentAt).not.toBe('');
  });

  it("sends in the firm's name from the deployment's address", async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'named@example.com',
      subject: 'Your sign-in code',
      text: 'Your code is 123456',
      kind: 'sign_in_code',
      senderName: ' Anders   Tax Partners ',
    });
    await h.until(reply.id, 'sent');
    const mail = smtp.received.find((m) => m.to.includes('named@example.com'));
    expect(mail?.from).toBe('no-reply@democpa.example');
    expect(mail?.raw).toMatch(/^From: Anders Tax Partners <no-reply@democpa\.example>\r?$/m);
    const { messages } = await h.bus.request(Notifications.listOutbox, { to: 'named@example.com' });
    expect(messages[0]?.senderName).toBe('Anders Tax Partners');
  });

  it('retries a temporary refusal with backoff, then marks the message failed with the error', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'busy@example.com',
      subject: 'Try me',
      text: 'Hello',
      kind: 'test',
    });
    const row = await h.until(reply.id, 'failed');
    expect(row.attempts).toBe(3);
    expect(row.last_error).toMatch(/451/);
    expect(smtp.offered.filter((a) => a === 'busy@example.com')).toHaveLength(3);
    expect(row.sent_at).toBeNull();
  });

  it('gives up at once when the server refuses the recipient for good', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'nobody@example.com',
      subject: 'Hello',
      text: 'Hello',
      kind: 'test',
    });
    const row = await h.until(reply.id, 'failed');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/550/);
    expect(smtp.offered.filter((a) => a === 'nobody@example.com')).toHaveLength(1);
  });

  it('does not send a message whose time ran out before an attempt could send it', async () => {
    const reply = await h.bus.request(Notifications.sendEmail, {
      to: 'ontime@example.com',
      subject: 'Your code',
      text: 'Your code is 123456',
      kind: 'sign_in_code',
      validForSeconds: 600,
    });
    await h.until(reply.id, 'sent');
    const { rows } = await h.pool.query<{ seconds: number }>(
      'select extract(epoch from expires_at - created_at)::int as seconds from outbound_messages where id = $1',
      [reply.id],
    );
    expect(Math.abs((rows[0]?.seconds ?? 0) - 600)).toBeLessThanOrEqual(1);

    // Its code expired while it waited (a provider away for longer than the code lives).
    const late = await h.pool.query<{ id: string }>(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status, expires_at)
       values ('email', 'late@example.com', 'Your code', 'Your code is 654321', 'sign_in_code', 'queued',
               now() - interval '1 second')
       returning id`,
    );
    const row = await h.until(late.rows[0]?.id as string, 'failed');
    expect(row.last_error).toBe(EXPIRED);
    expect(smtp.offered).not.toContain('late@example.com');
  });
});

describe('email to a server that does not offer STARTTLS', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const email = {
    id: '00000000-0000-4000-8000-000000000001',
    to: 'client@example.com',
    subject: 'Reset your password',
    text: 'Open https://portal.example/reset/abc',
  };

  beforeAll(async () => {
    smtp = await startSmtpServer({ plaintextOnly: true });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('sends neither the login nor the message unencrypted, and retries later', async () => {
    const adapter = new SmtpMailAdapter(
      `smtp://portico:secret@127.0.0.1:${smtp.port}`,
      'Portico <a@b.example>',
    );
    try {
      const failure = await adapter.send(email).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(DeliveryError);
      expect(failure).toMatchObject({ permanent: false });
    } finally {
      await adapter.close();
    }
    expect(smtp.logins).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('retries a message whose connection the server refused with a 5xx greeting', async () => {
    smtp.received.length = 0;
    smtp.state.refusing = 1;
    const adapter = new SmtpMailAdapter(`smtp://127.0.0.1:${smtp.port}`, 'Portico <a@b.example>', {
      allowPlaintext: true,
    });
    try {
      const failure = await adapter.send(email).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(DeliveryError);
      expect(failure).toMatchObject({ permanent: false, message: expect.stringMatching(/554/) });
      await adapter.send(email);
    } finally {
      await adapter.close();
    }
    expect(smtp.received).toHaveLength(1);
  });

  it('gives every attempt at a message the same Message-ID, so a second copy reads as the same email', async () => {
    smtp.received.length = 0;
    const adapter = new SmtpMailAdapter(`smtp://127.0.0.1:${smtp.port}`, 'Portico <no-reply@b.example>', {
      allowPlaintext: true,
    });
    try {
      await adapter.send(email);
      await adapter.send(email);
    } finally {
      await adapter.close();
    }
    const ids = smtp.received.map((m) => /^Message-ID: (.*?)\r?$/m.exec(m.raw)?.[1]);
    expect(ids).toEqual([`<${email.id}@b.example>`, `<${email.id}@b.example>`]);
  });

  it('sends unencrypted only when allowed (SMTP_ALLOW_PLAINTEXT, for a local mail catcher)', async () => {
    smtp.received.length = 0;
    const adapter = new SmtpMailAdapter(
      `smtp://portico:secret@127.0.0.1:${smtp.port}`,
      'Portico <a@b.example>',
      {
        allowPlaintext: true,
      },
    );
    try {
      await adapter.send(email);
    } finally {
      await adapter.close();
    }
    expect(smtp.logins).toEqual(['portico:secret']);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.secure).toBe(false);
  });
});
