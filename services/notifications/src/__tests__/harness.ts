import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BusClient } from '@portico/platform';
import {
  createServiceDatabase,
  natsServerBinary,
  type RunningNats,
  startNatsServer,
  uniqueDatabaseName,
  waitFor,
} from '@portico/platform/testing';
import pg from 'pg';
import { type StartedNotifications, startNotifications } from '../testing/index.js';

export interface MessageRow {
  id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  text: string;
  html: string | null;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
}

/**
 * A fresh database and a NATS server of this test file's own, so notifications instances started by
 * other files running in parallel cannot answer this file's requests (they share the subjects and
 * queue group). When no nats-server binary is at hand, the run's shared server is used.
 */
export class Harness {
  private readonly started: StartedNotifications[] = [];

  private constructor(
    readonly natsUrl: string,
    readonly databaseUrl: string,
    readonly pool: pg.Pool,
    readonly bus: BusClient,
    private readonly nc: NatsConnection,
    private readonly nats?: RunningNats,
  ) {}

  static async create(): Promise<Harness> {
    let nats: RunningNats | undefined;
    try {
      natsServerBinary();
      nats = await startNatsServer();
    } catch {
      nats = undefined;
    }
    const natsUrl = nats?.url ?? (process.env.TEST_NATS_SERVER_URL as string);
    const databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName('notifications'),
    );
    const nc = await connect({ servers: natsUrl });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
    return new Harness(natsUrl, databaseUrl, pool, new BusClient(nc), nc, nats);
  }

  /** Starts one more instance of the service (replicas share the database and the queue group). */
  async start(env: Record<string, string> = {}): Promise<StartedNotifications> {
    const service = await startNotifications({ natsUrl: this.natsUrl, databaseUrl: this.databaseUrl, env });
    this.started.push(service);
    return service;
  }

  async row(id: string): Promise<MessageRow> {
    const { rows } = await this.pool.query<MessageRow>('select * from outbound_messages where id = $1', [id]);
    if (!rows[0]) throw new Error(`No outbound message ${id}`);
    return rows[0];
  }

  /** Polls the message until it reaches `status`, and returns it. */
  async until(id: string, status: string, timeoutMs = 10_000): Promise<MessageRow> {
    await waitFor(
      async () => (await this.row(id)).status === status,
      timeoutMs,
      `message ${id} to be ${status}`,
    );
    return this.row(id);
  }

  async stop(): Promise<void> {
    await Promise.all(this.started.map((service) => service.stop()));
    await this.nc.drain();
    await this.pool.end();
    await this.nats?.stop();
  }
}
