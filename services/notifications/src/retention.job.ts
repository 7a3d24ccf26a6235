import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Logger, loggedStep, type Repeating, startRepeating } from '@portico/platform';
import { LOGGER } from './delivery.worker.js';
import { OutboxRepository } from './outbox.repository.js';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** The kinds whose text carries a one-time code or link (identity's sign-in and account messages). */
export const SECRET_KINDS = [
  'sign_in_code',
  'sign_in_link',
  'two_factor_code',
  'two_factor_link',
  'password_reset',
  'email_confirmation',
] as const;

/** How long the text of a message with a code or link is kept once it is done: longer than any expiry. */
export const SECRET_KEPT_MS = DAY_MS;
/** How long a message that is done is kept at all (what was sent to whom, for support). */
export const MESSAGE_KEPT_MS = 90 * DAY_MS;

/**
 * Keeps the outbox from holding personal data longer than it serves: a day after it was asked for, a
 * message with a sign-in code or link loses its text (the code has long expired, and the table would
 * otherwise hold every code and reset link ever sent); after 90 days a message that is done is
 * deleted. Runs at start and every hour; every replica may run it, the statements are idempotent.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private repeating?: Repeating;

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.repeating = startRepeating(async () => {
      const done = await this.run();
      if (done.secretsRemoved || done.deleted) this.log.info(done, 'Old messages trimmed');
    }, HOUR_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.repeating?.stop();
  }

  /**
   * One pass, as of `now`. The two steps run whatever became of the other, each failure logged: a
   * removal timing out must not keep 90-day-old messages for ever, nor a deletion the codes. A step
   * that failed counts 0; the next pass, an hour later, takes it up again.
   */
  async run(now = new Date()): Promise<{ secretsRemoved: number; deleted: number }> {
    const secretsRemoved = await loggedStep(
      this.log,
      'Removing spent codes and links failed; will retry',
      () => this.outbox.removeSecrets(SECRET_KINDS, new Date(now.getTime() - SECRET_KEPT_MS)),
    );
    const deleted = await loggedStep(this.log, 'Deleting old messages failed; will retry', () =>
      this.outbox.deleteDone(new Date(now.getTime() - MESSAGE_KEPT_MS)),
    );
    return { secretsRemoved, deleted };
  }
}
