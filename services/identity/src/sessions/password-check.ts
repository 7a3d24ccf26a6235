import { Injectable } from '@nestjs/common';
import { AppError, badRequest } from '@portico/platform';
import { verifyPassword } from '../crypto/passwords.js';
import { Messages } from '../messages.js';
import type { UserRow } from '../schema.js';
import { UsersRepository } from '../users/users.repository.js';
import { Limits, secondsUntil } from './rate-limiter.js';

const accountRestricted = (retryAfterSeconds: number) =>
  new AppError('too_many_requests', 'account_restricted', Messages.accountRestricted, {
    retryAfterSeconds,
  });

/** Password comparisons, at sign-in and wherever a signed-in user proves who they are again. */
@Injectable()
export class PasswordCheck {
  constructor(private readonly users: UsersRepository) {}

  /**
   * Compares a password after taking one of the account's attempts (UsersRepository.takePasswordAttempt):
   * 429 while the account is locked, and for the wrong password that locks it. A right one starts the count
   * again and lifts a lock that this attempt set as the last one allowed.
   */
  async matches(user: UserRow, hash: string, password: string): Promise<boolean> {
    const taken = await this.users.takePasswordAttempt(
      user.id,
      Limits.passwordFailuresBeforeLock,
      Limits.lockSeconds,
    );
    if ('lockedUntil' in taken) throw accountRestricted(secondsUntil(taken.lockedUntil.getTime()));
    if (!(await verifyPassword(hash, password))) {
      if (taken.locked) throw accountRestricted(Limits.lockSeconds);
      return false;
    }
    await this.users.updateSignInState(user, { failedPasswordAttempts: 0, lockedUntil: null });
    return true;
  }

  /**
   * A signed-in user who signs in with a password proves it again before changing how the account is
   * reached (sign-in method, password, email, phone, two-factor off): an access token alone (15 minutes,
   * perhaps taken from a browser) must not become the account. Each try takes one of the password's
   * attempts, as at sign-in, so it cannot be guessed here instead. Users without a password (codes,
   * links) and those still choosing one at sign-in have nothing to prove it with.
   */
  async confirmCurrent(user: UserRow, currentPassword: string): Promise<void> {
    if (user.preferredSignInMethod !== 'password' || !user.passwordHash || user.setPasswordRequired) return;
    if (!currentPassword)
      throw badRequest(Messages.currentPasswordMissing, {
        current_password: Messages.currentPasswordMissing,
      });
    if (!(await this.matches(user, user.passwordHash, currentPassword)))
      throw badRequest(Messages.currentPasswordWrong, { current_password: Messages.currentPasswordWrong });
  }
}
