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

  it('sends again a message whose worker died mid-send once its lease runs out', async () => {
    const { rows } = await h.pool.query(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status, attempts, next_attempt_at)
       values ('email', 'orphan@example.com', 'Orphaned', 'Body', 'test', 'sending', 1, now() - interval '1 second')
       returning id`,
    );
    const row = await h.until(rows[0].id, 'sent');
    expect(row.attempts).toBe(2);
    expect(subjects.filter((s) => s === 'Orphaned')).toHaveLength(1);
  });

  it('gives up a message whose every attempt was claimed and never recorded, instead of sending it again', async () => {
    const { rows } = await h.pool.query(
      `insert into outbound_messages (channel, recipient, subject, text, kind, status, attempts, next_attempt_at)
       values ('email', 'stuck@example.com', 'Stuck', 'Body', 'test', 'sending', 5, now() - interval '1 second')
       returning id`,
    );
    const row = await h.until(rows[0].id, 'failed');
    expect(row.attempts).toBe(5);
    expect(subjects.filter((s) => s === 'Stuck')).toHaveLength(0);
  });

  it('writes a sent message down despite a database blip at that moment, and does not send it again', async () => {
    // The first write of 'sent' for this recipient fails (a sequence is not rolled back with it).
    await h.pool.query(`
      create sequence blip_once;
      create function blip_once() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and new.recipient = 'blip@example.com' and nextval('blip_once') = 1 then
          raise exception 'connection lost';
        end if;
        return new;
      end $$;
      create trigger blip_once before update on outbound_messages for each row execute function blip_once();`);
    try {
      const sent = await h.bus.request(Notifications.sendEmail, {
        to: 'blip@example.com',
        subject: 'Blip',
        text: 'Body',
        kind: 'test',
      });
      const row = await h.until(sent.id, 'sent');
      expect(row.attempts).toBe(1);
      expect(subjects.filter((s) => s === 'Blip')).toHaveLength(1);
    } finally {
      await h.pool.query(
        'drop trigger blip_once on outbound_messages; drop function blip_once; drop sequence blip_once',
      );
    }
  });

  it('keeps writing a sent message down through an outage longer than a blip (a failover), and sends it once', async () => {
    // The first four writes of 'sent' for this recipient fail: about fourteen seconds of tries, where
    // four tries over four seconds gave up.
    await h.pool.query(`
      create sequence outage_five;
      create function outage_five() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and new.recipient = 'outage@example.com' and nextval('outage_five') <= 4 then
          raise exception 'the database is failing over';
        end if;
        return new;
      end $$;
      create trigger outage_five before update on outbound_messages for each row execute function outage_five();`);
    try {
      const sent = await h.bus.request(Notifications.sendEmail, {
        to: 'outage@example.com',
        subject: 'Outage',
        text: 'Body',
        kind: 'test',
      });
      const row = await h.until(sent.id, 'sent', 30_000);
      expect(row.attempts).toBe(1);
      expect(subjects.filter((s) => s === 'Outage')).toHaveLength(1);
    } finally {
      await h.pool.query(
        'drop trigger outage_five on outbound_messages; drop function outage_five; drop sequence outage_five',
      );
    }
  }, 40_000);
});
