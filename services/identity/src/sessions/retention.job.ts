import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { deleteDueRows, loggedStep, type Repeating, startRepeating } from '@portico/platform';
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
  private repeating?: Repeating;

  constructor(
    @Inject(DB) private readonly db: IdentityDb,
    @Inject(LOG) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.repeating = startRepeating(async () => {
      const done = await this.run();
      if (done.refreshTokens || done.secrets) this.log.info(done, 'Old sign-in records deleted');
    }, HOUR_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.repeating?.stop();
  }

  /**
   * One pass, as of `now`. Each step runs whatever became of the others, its failure logged and counted
   * 0; the next pass, an hour later, takes it up again.
   */
  async run(now = new Date(), batch = RETENTION_BATCH): Promise<{ refreshTokens: number; secrets: number }> {
    const tokensBefore = new Date(now.getTime() - REFRESH_TOKEN_KEPT_MS).toISOString();
    const secretsBefore = new Date(now.getTime() - SECRET_KEPT_MS).toISOString();
    // `batch` rows a statement, each in a transaction of its own (`deleteDueRows`). Across firms by
    // design: the job is about every firm's rows, and both tables are under forced row-level security.
    const deleteDue = (table: string, due: SQL) =>
      deleteDueRows(this.db, table, due, batch, { acrossFirms: true });
    const expired = await loggedStep(this.log, 'Deleting expired refresh tokens failed; will retry', () =>
      deleteDue('refresh_tokens', sql`expires_at < ${tokensBefore}::timestamptz`),
    );
    const revoked = await loggedStep(this.log, 'Deleting revoked refresh tokens failed; will retry', () =>
      deleteDue('refresh_tokens', sql`revoked_at < ${tokensBefore}::timestamptz`),
    );
    const secrets = await loggedStep(this.log, 'Deleting expired one-time secrets failed; will retry', () =>
      deleteDue('one_time_secrets', sql`expires_at < ${secretsBefore}::timestamptz`),
    );
    return { refreshTokens: expired + revoked, secrets };
  }
}
