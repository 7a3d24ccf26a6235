import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DB, type IdentityDb } from '../tokens.js';

export interface Limit {
  /** How many hits a window allows. */
  max: number;
  windowSeconds: number;
}

/** Limits named once; each key is per user (or per email) so one account cannot be flooded. */
export const Limits = {
  codeSends: { max: 5, windowSeconds: 15 * 60 },
  linkSends: { max: 5, windowSeconds: 15 * 60 },
  passwordFailuresBeforeLock: 5,
  lockSeconds: 15 * 60,
  codeAttempts: 5,
  /**
   * Wrong codes per account, whichever code they were for: each new code brings five attempts, so without
   * this a script asking for codes within the send limit could guess about 2,400 times a day.
   */
  codeFailures: { max: 10, windowSeconds: 60 * 60 },
  /** Confirmation links mailed to new addresses, per account: each goes to an address the user typed. */
  emailConfirmations: { max: 5, windowSeconds: 60 * 60 },
} as const;

/** Whole seconds (at least one) until `epochMs`: a Retry-After. */
export const secondsUntil = (epochMs: number) => Math.max(1, Math.ceil((epochMs - Date.now()) / 1000));

/**
 * A fixed-window counter in PostgreSQL, so every replica shares it. Returns whether this hit is
 * allowed and, when not, how long until the window resets.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(DB) private readonly db: IdentityDb) {}

  /** Seconds until `key` may be hit again, when its window is full; undefined when it may be now. */
  async waitFor(key: string, limit: Limit): Promise<number | undefined> {
    const result = await this.db.execute<{ count: number; window_start: Date | string }>(sql`
      select count, window_start from rate_limits
       where key = ${key} and window_start >= now() - make_interval(secs => ${limit.windowSeconds})`);
    const row = result.rows[0];
    if (!row || row.count < limit.max) return undefined;
    const windowEnds = new Date(row.window_start).getTime() + limit.windowSeconds * 1000;
    return secondsUntil(windowEnds);
  }

  /** Takes back one hit of `key`: what it counted did not happen after all (a link that was not sent). */
  async giveBack(key: string): Promise<void> {
    await this.db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
  }

  async hit(key: string, limit: Limit): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const result = await this.db.execute<{ count: number; window_start: Date }>(sql`
      insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
      on conflict (key) do update set
        count = case when rate_limits.window_start < now() - make_interval(secs => ${limit.windowSeconds})
                     then 1 else rate_limits.count + 1 end,
        window_start = case when rate_limits.window_start < now() - make_interval(secs => ${limit.windowSeconds})
                     then now() else rate_limits.window_start end
      returning count, window_start`);
    const row = result.rows[0] as { count: number; window_start: Date | string };
    const windowEnds = new Date(row.window_start).getTime() + limit.windowSeconds * 1000;
    return {
      allowed: row.count <= limit.max,
      retryAfterSeconds: secondsUntil(windowEnds),
    };
  }
}
