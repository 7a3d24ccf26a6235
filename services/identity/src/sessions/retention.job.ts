import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { acrossFirms } from '@portico/platform';
import { type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { DB, type IdentityDb, LOG } from '../tokens.js';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long a refresh token is kept once it expired or was revoked. Presented within this time, a rotated
 * or revoked token is still known: its reuse ends the session it belonged to (`refresh_reused`). After it,
 * the token is unknown and answered as an expired session (401 either way); it renews nothing from the
 * moment it expires.
 */
export const REFRESH_TOKEN_KEPT_MS = 30 * DAY_MS;
/**
 * How long a one-time secret (code, link, grant, challenge) is kept once it expired: a link followed in
 * that time answers 410 (expired), after it 401/404 (unknown), which the portal shows alike.
 */
export const SECRET_KEPT_MS = DAY_MS;
/** Rows deleted per statement: each statement short, however many are due. */
export const RETENTION_BATCH = 1_000;

/**
 * Keeps refresh_tokens and one_time_secrets from growing with every sign-in and renewal for ever: deletes
 * the refresh tokens expired or revoked REFRESH_TOKEN_KEPT_MS ago and the one-time secrets expired
 * SECRET_KEPT_MS ago, a batch at a time, through their indexes. Runs at start and every hour; every
 * replica may run it: rows another replica is deleting are skipped, not waited for.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(DB) private readonly db: IdentityDb,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running = this.run().then((done) => {
        if (done.refreshTokens || done.secrets) this.log.info(done, 'Old sign-in records deleted');
      });
      this.timer = setTimeout(tick, HOUR_MS);
    };
    this.timer = setTimeout(tick, 0);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One pass, as of `now`. Each step runs whatever became of the others, its failure logged and counted
   * 0; the next pass, an hour later, takes it up again.
   */
  async run(now = new Date(), batch = RETENTION_BATCH): Promise<{ refreshTokens: number; secrets: number }> {
    const tokensBefore = new Date(now.getTime() - REFRESH_TOKEN_KEPT_MS).toISOString();
    const secretsBefore = new Date(now.getTime() - SECRET_KEPT_MS).toISOString();
    const expired = await this.step('Deleting expired refresh tokens failed; will retry', () =>
      this.deleteInBatches(
        batch,
        sql`delete from refresh_tokens where ctid = any(array(
          select ctid from refresh_tokens where expires_at < ${tokensBefore}::timestamptz
          limit ${batch} for update skip locked))`,
      ),
    );
    const revoked = await this.step('Deleting revoked refresh tokens failed; will retry', () =>
      this.deleteInBatches(
        batch,
        sql`delete from refresh_tokens where ctid = any(array(
          select ctid from refresh_tokens where revoked_at < ${tokensBefore}::timestamptz
          limit ${batch} for update skip locked))`,
      ),
    );
    const secrets = await this.step('Deleting expired one-time secrets failed; will retry', () =>
      this.deleteInBatches(
        batch,
        sql`delete from one_time_secrets where ctid = any(array(
          select ctid from one_time_secrets where expires_at < ${secretsBefore}::timestamptz
          limit ${batch} for update skip locked))`,
      ),
    );
    return { refreshTokens: expired + revoked, secrets };
  }

  /**
   * Runs `statement`, a delete of at most `batch` rows, each in a transaction of its own, until it deletes
   * fewer; answers how many in all. The rows are named by their ctid, locked by the same statement (as the
   * platform's prune of event records). Across firms by design: the job is about every firm's rows, and
   * both tables are under forced row-level security.
   */
  private async deleteInBatches(batch: number, statement: SQL): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await acrossFirms(this.db, (tx) => tx.execute(statement));
      const n = result.rowCount ?? 0;
      total += n;
      if (n < batch) return total;
    }
  }

  private async step(failure: string, work: () => Promise<number>): Promise<number> {
    try {
      return await work();
    } catch (err) {
      this.log.error({ err }, failure);
      return 0;
    }
  }
}
