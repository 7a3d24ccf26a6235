import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@portico/platform/testing';
import { Notifications } from '@portico/proto';
import { SMTPServer } from 'smtp-server';
import { Harness } from './harness.js';

describe('several replicas delivering from one outbox', () => {
  let h: Harness;
  let server: SMTPServer;
  const subjects: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const subject = /^Subject: (.*?)\r?$/m.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
          subjects.push(subject ?? '');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    h = await Harness.create();
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      // The server offers no STARTTLS: a local mail catcher's setting.
      SMTP_ALLOW_PLAINTEXT: 'true',
      DELIVERY_POLL_MS: '10',
      DELIVERY_RETRY_BASE_MS: '25',
    };
    await Promise.all([h.start(env), h.start(env), h.start(env)]);
  });

  afterAll(async () => {
    await h.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends each message exactly once while three workers compete for them', async () => {
    // Rows written straight into the table become due together, so every worker races for them.
    await h.pool.query(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status)
       select 'email', 'race' || n || '@example.com', 'Race ' || n, 'Body', 'test', 'queued'
       from generate_series(1, 60) as n`,
    );
    // And more through the bus, answered by whichever replica the queue group picks.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.bus.request(Notifications.sendEmail, {
          to: `bus${i}@example.com`,
          subject: `Bus ${i}`,
          text: 'Body',
          kind: 'test',
        }),
      ),
    );
    await waitFor(
      async () => {
        const { rows } = await h.pool.query(
          "select count(*)::int as n from outbound_messages where status = 'sent'",
        );
        return rows[0].n === 80;
      },
      20_000,
      'all 80 messages to be sent',
    );
    expect(subjects).toHaveLength(80);
    expect(new Set(subjects).size).toBe(80);
    const { rows } = await h.pool.query('select max(attempts) as most from outbound_messages');
    expect(rows[0].most).toBe(1);
  });

  /** An email claimed `attempts` times whose last worker never recorded the outcome; its lease has run out. */
  async function claimedAndLeft(recipient: string, subject: string, attempts: number): Promise<string> {
    const { rows } = await h.pool.query(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status, attempts, next_attempt_at)
       values ('email', $1, $2, 'Body', 'test', 'sending', $3, now() - interval '1 second')
       returning id`,
      [recipient, subject, attempts],
    );
    return rows[0].id;
  }

  it('sends again a message whose worker died mid-send once its lease runs out', async () => {
    const row = await h.until(await claimedAndLeft('orphan@example.com', 'Orphaned', 1), 'sent');
    expect(row.attempts).toBe(2);
    expect(subjects.filter((s) => s === 'Orphaned')).toHaveLength(1);
  });

  it('gives up a message whose every attempt was claimed and never recorded, instead of sending it again', async () => {
    const row = await h.until(await claimedAndLeft('stuck@example.com', 'Stuck', 5), 'failed');
    expect(row.attempts).toBe(5);
    expect(subjects.filter((s) => s === 'Stuck')).toHaveLength(0);
  });

  it('gives up a message left waiting with no attempt left (the limit was lowered), keeping its last error', async () => {
    const { rows } = await h.pool.query(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status, attempts, last_error)
       values ('email', 'spent@example.com', 'Spent', 'Body', 'test', 'queued', 5, 'Mailbox busy (SMTP 451)')
       returning id`,
    );
    const row = await h.until(rows[0].id, 'failed');
    expect(row).toMatchObject({ attempts: 5, last_error: 'Mailbox busy (SMTP 451)' });
    expect(subjects.filter((s) => s === 'Spent')).toHaveLength(0);
  });

  /**
   * Sends an email to `to` while the first `failures` writes of its 'sent' outcome fail (a sequence is not
   * rolled back with them), and answers its row once sent.
   */
  async function sentDespite(to: string, subject: string, failures: number, timeoutMs?: number) {
    const name = `fail_${subject.toLowerCase()}`;
    await h.pool.query(`
      create sequence ${name};
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and new.recipient = '${to}' and nextval('${name}') <= ${failures} then
          raise exception 'the database is away';
        end if;
        return new;
      end $$;
      create trigger ${name} before update on outbound_messages for each row execute function ${name}();`);
    try {
      const sent = await h.bus.request(Notifications.sendEmail, { to, subject, text: 'Body', kind: 'test' });
      return await h.until(sent.id, 'sent', timeoutMs);
    } finally {
      await h.pool.query(
        `drop trigger ${name} on outbound_messages; drop function ${name}; drop sequence ${name}`,
      );
    }
  }

  it('writes a sent message down despite a database blip at that moment, and does not send it again', async () => {
    const row = await sentDespite('blip@example.com', 'Blip', 1);
    expect(row.attempts).toBe(1);
    expect(subjects.filter((s) => s === 'Blip')).toHaveLength(1);
  });

  it('keeps writing a sent message down through an outage longer than a blip (a failover), and sends it once', async () => {
    // Four failed writes: about fourteen seconds of tries, where four tries over four seconds gave up.
    const row = await sentDespite('outage@example.com', 'Outage', 4, 30_000);
    expect(row.attempts).toBe(1);
    expect(subjects.filter((s) => s === 'Outage')).toHaveLength(1);
  }, 40_000);
});
