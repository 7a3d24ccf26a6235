import { Inject, Injectable } from '@nestjs/common';
import { type Actor, AppError, badRequest, firmScope, inFirm, type Tx } from '@portico/platform';
import { eq } from 'drizzle-orm';
import type { IdentityConfig } from '../config.js';
import { hashPassword } from '../crypto/passwords.js';
import { ONE_TIME_CODE_LENGTH } from '../crypto/secrets.js';
import { FirmsRepository } from '../firms/firms.repository.js';
import { PreferencesCache } from '../firms/preferences.cache.js';
import { signInPageLink } from '../firms/sign-in-link.js';
import { Messages } from '../messages.js';
import { type IdentitySchema, type UserRow, users } from '../schema.js';
import { CONFIG, DB, type IdentityDb } from '../tokens.js';
import { AccountNotices } from '../users/account-notices.js';
import {
  isValidEmail,
  maskEmail,
  maskPhone,
  normaliseEmail,
  phoneDigits,
  SIGN_IN_METHODS,
  type SignInMethodName,
  validatePassword,
  validatePhone,
} from '../users/profile.rules.js';
import { lockUser, type UserChanges, UsersRepository } from '../users/users.repository.js';
import { OutboundMessages } from './outbound.js';
import { PasswordCheck } from './password-check.js';
import { Limits, RateLimiter } from './rate-limiter.js';
import { SecretPurpose, type SecretRow, SecretsRepository, SIGN_IN_SECRETS } from './secrets.repository.js';
import { SessionTokensService } from './session-tokens.service.js';

/** The result of a sign-in step: a grant, or a second factor to answer. */
export interface SignInStep {
  authToken?: string;
  twoFactorRequired?: boolean;
  challengeToken?: string;
  uid?: string;
  twoFactorMethods?: { name: string; value: string }[];
  setPasswordRequired?: boolean;
}

const err = {
  notFound: () => new AppError('not_found', 'user_not_found', Messages.userNotFound),
  wrongCode: () => new AppError('unauthorized', 'invalid_code', Messages.invalidOrExpiredCode),
  tooManyAttempts: (retryAfterSeconds?: number) =>
    new AppError(
      'too_many_requests',
      'too_many_attempts',
      Messages.tooManyIncorrectAttempts,
      retryAfterSeconds ? { retryAfterSeconds } : undefined,
    ),
  linkExpired: () => new AppError('gone', 'link_expired', Messages.linkExpired),
};

/** Only same-site paths are honoured as a redirect after sign-in. */
// A backslash is refused anywhere: browsers read '/\host' as '//host', another site.
export const safeRedirect = (redirect: string) => (/^\/(?![/\\])[^\s\\]*$/.test(redirect) ? redirect : '');

@Injectable()
export class SignInService {
  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(DB) private readonly db: IdentityDb,
    private readonly users: UsersRepository,
    private readonly preferences: PreferencesCache,
    private readonly firms: FirmsRepository,
    private readonly secrets: SecretsRepository,
    private readonly tokens: SessionTokensService,
    private readonly limiter: RateLimiter,
    private readonly outbound: OutboundMessages,
    private readonly passwords: PasswordCheck,
    private readonly notices: AccountNotices,
  ) {}

  /** Step 1 of spec 1 s.4.4: the preferred method and the masked ways to reach the user. */
  async lookup(rawEmail: string) {
    const user = await this.userByEmail(rawEmail);
    return {
      accountantId: user.firmId,
      uid: user.uid,
      preferredSignInMethod: user.preferredSignInMethod,
      methods: this.maskedMethods(user),
      setPasswordRequired: user.setPasswordRequired,
    };
  }

  async verifyPassword(rawEmail: string, password: string): Promise<SignInStep> {
    const email = requireEmail(rawEmail);
    if (!password) throw badRequest(Messages.passwordMissing, { password: Messages.passwordMissing });
    const user = await this.users.findLiveByEmail(email);
    // Only an account that signs in with a password has one: a password left from before a switch to
    // codes (or to a reset link's new method) no longer opens it.
    if (!user?.passwordHash || user.preferredSignInMethod !== 'password') {
      throw new AppError('unauthorized', 'email_or_password_incorrect', Messages.emailOrPasswordIncorrect);
    }
    this.assertCanSignIn(user);
    if (!(await this.passwords.matches(user, user.passwordHash, password)))
      throw new AppError('unauthorized', 'invalid_password', Messages.invalidPassword);
    // What the password opens (a grant, or the two-factor challenge) is issued only if the password
    // compared is still the account's: a reset that committed during the comparison has retired every
    // grant and challenge before it, and must not be followed by one.
    const provenWith = { passwordHash: user.passwordHash };
    if (await this.twoFactorRequired(user)) return this.startTwoFactor(user, provenWith);
    return this.completed(user, provenWith);
  }

  async sendEmailCode(input: { uid: string; email: string }) {
    const user = input.uid ? await this.userByUid(input.uid) : await this.userByEmail(input.email);
    await this.throttle(`code:${user.id}`, Limits.codeSends);
    const firm = await this.firms.forMessages(firmScope(user.firmId));
    await this.issueCodeAndSend(user, SecretPurpose.signInCode, { channel: 'email' }, (secret, issued) =>
      this.outbound.email(
        {
          to: user.email,
          subject: `Your ${firm.name} sign-in code is ${secret}`,
          text: `Your sign-in code for ${firm.name} is ${secret}. It expires in 10 minutes. If you did not try to sign in, you can ignore this email.`,
          kind: 'sign_in_code',
          firmId: user.firmId,
          senderName: firm.name,
          idempotencyKey: `sign_in_code:${issued.id}`,
        },
        Messages.codeSendFailed,
      ),
    );
    return { uid: user.uid, sentTo: maskEmail(user.email) };
  }

  async sendSmsCode(input: { uid: string; email: string }) {
    const user = input.uid ? await this.userByUid(input.uid) : await this.userByEmail(input.email);
    if (validatePhone(user.phoneNumber)) throw badRequest(Messages.smsFailed, undefined, 'sms_failed');
    await this.throttle(`code:${user.id}`, Limits.codeSends);
    const firm = await this.firms.forMessages(firmScope(user.firmId));
    await this.issueCodeAndSend(user, SecretPurpose.signInCode, { channel: 'sms' }, (secret, issued) =>
      this.outbound.sms(
        {
          to: phoneDigits(user.phoneNumber),
          text: `Your ${firm.name} sign-in code is ${secret}. It expires in 10 minutes.`,
          kind: 'sign_in_code',
          firmId: user.firmId,
          idempotencyKey: `sign_in_code:${issued.id}`,
        },
        Messages.smsFailed,
      ),
    );
    return { uid: user.uid, sentTo: maskPhone(user.phoneNumber) };
  }

  async verifyCode(uid: string, code: string): Promise<SignInStep> {
    if (!uid) throw badRequest(Messages.somethingWentWrong, undefined, 'uid_missing');
    assertCodeShape(code);
    const user = await this.userByUid(uid);
    const row = await this.secrets.latestLive(user.id, SecretPurpose.signInCode);
    const proven = await this.checkCode(row, user, code);
    // A texted code proves the phone; the second factor goes to the mailbox, so it is still asked for.
    // An emailed code proves that mailbox already, and counts as both (as a sign-in link does). A user
    // with a temporary email has no mailbox to send it to: the texted code is all they can answer.
    if (proven.data.channel === 'sms' && !user.hasTempEmail && (await this.twoFactorRequired(user))) {
      if (!(await this.secrets.consume(proven.id))) throw err.wrongCode();
      return this.startTwoFactor(user);
    }
    return this.redeem(user, [proven.id], err.wrongCode, (tx) => this.completed(user, undefined, tx));
  }

  async sendAuthLink(input: { email: string; uid: string; accountantId: string; redirect: string }) {
    let user: UserRow;
    if (input.uid) {
      if (!input.accountantId)
        throw badRequest(Messages.somethingWentWrong, undefined, 'accountant_id_missing');
      user = await this.userByUid(input.uid);
      if (user.firmId !== input.accountantId)
        throw badRequest(Messages.somethingWentWrong, undefined, 'accountant_mismatch');
    } else {
      user = await this.userByEmail(input.email);
    }
    await this.throttle(`link:${user.id}`, Limits.linkSends);
    const { secret, row: issued } = await this.secrets.issue(user, SecretPurpose.signInLink, {
      redirect: safeRedirect(input.redirect),
    });
    const firm = await this.firms.forMessages(firmScope(user.firmId));
    const link = this.link(secret, firm.slug);
    await this.outbound.email(
      {
        to: user.email,
        subject: `Your ${firm.name} sign-in link`,
        text: `Sign in to ${firm.name} with this link: ${link}\n\nIt works once and expires in 15 minutes.`,
        kind: 'sign_in_link',
        firmId: user.firmId,
        senderName: firm.name,
        idempotencyKey: `sign_in_link:${issued.id}`,
      },
      Messages.linkSendFailed,
    );
    return { sentTo: maskEmail(user.email) };
  }

  /** Follows any emailed link: sign-in, password reset or the two-factor link. */
  async verifyAuthLink(token: string) {
    const { row, expired } = await this.secrets.findToken(token, [
      SecretPurpose.signInLink,
      SecretPurpose.passwordReset,
      SecretPurpose.twoFactorLink,
    ]);
    if (!row)
      throw expired ? err.linkExpired() : new AppError('unauthorized', 'invalid_link', Messages.linkExpired);
    const user = await this.activeById(row.userId);
    if (row.purpose === SecretPurpose.passwordReset) {
      const grant = await this.redeem(user, [row.id], err.linkExpired, (tx) =>
        this.secrets.issue(user, SecretPurpose.setSignInMethod, {}, tx),
      );
      return { authToken: grant.secret, uid: user.uid, purpose: 'set_password' };
    }
    // A two-factor link also uses up the challenge it answers. A sign-in link proves the mailbox, which is
    // where the second factor would go too: it counts as both.
    const used =
      row.purpose === SecretPurpose.twoFactorLink ? [row.id, row.data.challenge_id ?? ''] : [row.id];
    const step = await this.redeem(user, used, err.linkExpired, (tx) => this.completed(user, undefined, tx));
    return { ...step, redirect: row.data.redirect ?? '', purpose: 'sign_in' };
  }

  /**
   * Uses up the secrets a step proved (a link, a code, a challenge) and issues what the step yields in one
   * transaction holding the user's row, as a reset holds it: when the issue fails, the link or code still
   * works for another try, where it used to be spent with nothing to show for it.
   */
  private async redeem<T>(
    user: UserRow,
    secretIds: string[],
    spent: () => AppError,
    issue: (tx: Tx<IdentitySchema>) => Promise<T>,
  ): Promise<T> {
    return inFirm(this.db, firmScope(user.firmId), async (tx) => {
      await lockUser(tx, user.id);
      for (const id of secretIds) if (!(await this.secrets.consume(id, tx))) throw spent();
      return issue(tx);
    });
  }

  async forgotPassword(rawEmail: string) {
    const user = await this.userByEmail(rawEmail);
    await this.throttle(`link:${user.id}`, Limits.linkSends);
    const { secret, row: issued } = await this.secrets.issue(user, SecretPurpose.passwordReset);
    const firm = await this.firms.forMessages(firmScope(user.firmId));
    const link = this.link(secret, firm.slug);
    await this.outbound.email(
      {
        to: user.email,
        subject: `Reset your ${firm.name} password`,
        text: `Choose a new password with this link: ${link}\n\nIt works once and expires in one hour. If you did not ask for this, ignore this email.`,
        kind: 'password_reset',
        firmId: user.firmId,
        senderName: firm.name,
        idempotencyKey: `password_reset:${issued.id}`,
      },
      Messages.linkSendFailed,
    );
    return { sentTo: maskEmail(user.email) };
  }

  /** Sets a new password from a reset link (or its set-password grant) and signs the user in. */
  async resetPassword(token: string, password: string, confirmation: string): Promise<SignInStep> {
    const problem = validatePassword(password, confirmation);
    if (problem) throw badRequest(problem, { password: problem });
    const { row, expired } = await this.secrets.findToken(token, [
      SecretPurpose.setSignInMethod,
      SecretPurpose.passwordReset,
    ]);
    if (!row)
      throw expired ? err.linkExpired() : new AppError('unauthorized', 'invalid_link', Messages.linkExpired);
    const user = await this.activeById(row.userId);
    const passwordHash = await hashPassword(password);
    const updated = await this.applyCredentials(
      user,
      {
        passwordHash,
        preferredSignInMethod: 'password',
        setPasswordRequired: false,
        failedPasswordAttempts: 0,
        lockedUntil: null,
      },
      { grantId: row.id, credentialsChanged: true },
    );
    return this.completed(updated);
  }

  async sendTwoFactor(challengeToken: string, delivery: string, redirect = '') {
    const { user, challenge } = await this.challengeOf(challengeToken);
    await this.throttle(`code:${user.id}`, Limits.codeSends);
    if (delivery === 'link') {
      const { secret, row: issued } = await this.secrets.issue(user, SecretPurpose.twoFactorLink, {
        challenge_id: challenge.id,
        redirect: safeRedirect(redirect),
      });
      const firm = await this.firms.forMessages(firmScope(user.firmId));
      const link = this.link(secret, firm.slug);
      await this.outbound.email(
        {
          to: user.email,
          subject: `Finish signing in to ${firm.name}`,
          text: `Finish signing in with this link: ${link}\n\nIt works once and expires in 15 minutes.`,
          kind: 'two_factor_link',
          firmId: user.firmId,
          senderName: firm.name,
          idempotencyKey: `two_factor_link:${issued.id}`,
        },
        Messages.twoFactorLinkSendFailed,
      );
    } else {
      await this.sendTwoFactorCode(user);
    }
    return { uid: user.uid, sentTo: maskEmail(user.email) };
  }

  async verifyTwoFactor(challengeToken: string, code: string): Promise<SignInStep> {
    assertCodeShape(code);
    const { user, challenge } = await this.challengeOf(challengeToken);
    const row = await this.secrets.latestLive(user.id, SecretPurpose.twoFactorCode);
    const proven = await this.checkCode(row, user, code);
    return this.redeem(user, [proven.id, challenge.id], err.wrongCode, (tx) =>
      this.completed(user, undefined, tx),
    );
  }

  /**
   * Chooses how to sign in next time (spec 1 s.4.4 step 8): by the signed-in user, or with a set-password
   * grant from a reset link. Returns a fresh grant so the browser can sign in with it.
   */
  async setSignInMethod(
    who: { actor?: Actor; grantToken: string },
    input: {
      method: string;
      password: string;
      passwordConfirmation: string;
      phoneNumber: string;
      currentPassword?: string;
    },
  ) {
    // Everything is checked before a grant is used up: a refused password leaves the reset link's grant
    // to try again with.
    const { user, grantId } = await this.userForMethodChange(who);
    if (who.actor) await this.passwords.confirmCurrent(user, input.currentPassword ?? '');
    if (!(SIGN_IN_METHODS as readonly string[]).includes(input.method)) {
      throw badRequest(Messages.unknownSignInMethod, { method: Messages.unknownSignInMethod });
    }
    const method = input.method as SignInMethodName;
    const changes: UserChanges = {
      preferredSignInMethod: method,
      setPasswordRequired: false,
    };
    if (method === 'sms') {
      const phone = input.phoneNumber || user.phoneNumber;
      const problem = validatePhone(phone);
      if (problem) throw badRequest(problem, { phone_number: problem });
      changes.phoneNumber = phoneDigits(phone);
    }
    if (method === 'password') {
      const problem = validatePassword(input.password, input.passwordConfirmation);
      if (problem) throw badRequest(problem, { password: problem });
      changes.passwordHash = await hashPassword(input.password);
      changes.failedPasswordAttempts = 0;
      changes.lockedUntil = null;
    } else {
      // A password is kept only while it is the way in: sign-in refuses it for other methods, and one
      // left behind (leaked, say, which is why the method was changed) is dropped with the switch.
      changes.passwordHash = null;
      changes.failedPasswordAttempts = 0;
      changes.lockedUntil = null;
    }
    const updated = await this.applyCredentials(user, changes, {
      grantId,
      // A new password, or any change through a reset link's grant (whoever asked for the reset lost the
      // old way in), ends the account's other sessions, links and codes.
      credentialsChanged: method === 'password' || !!grantId,
      keepSession: who.actor?.session_id,
    });
    // A grant to sign in with only for the sign-in step that asked for a method (set_password_required,
    // or a reset link's grant): a signed-in change from Profile Settings needs none, and a fresh grant
    // there would turn any access token into a new month-long session.
    const signingIn = !who.actor || user.setPasswordRequired;
    return { authToken: signingIn ? await this.tokens.grant(updated) : '', preferredSignInMethod: method };
  }

  /**
   * The user who changes a method: the signed-in one, or the holder of a set-password grant, which the
   * caller uses up once the change is known to be valid.
   */
  private async userForMethodChange(who: {
    actor?: Actor;
    grantToken: string;
  }): Promise<{ user: UserRow; grantId?: string }> {
    if (who.actor) {
      const user = await this.users.get(firmScope(who.actor.firm_id), who.actor.user_id);
      if (!user) throw new AppError('unauthorized', 'unauthenticated', Messages.sessionExpired);
      // A read-only account changes nothing of its own (its phone number neither), except the method
      // the firm requires it to choose.
      if ((who.actor.readonly_access || user.readonlyAccess) && !user.setPasswordRequired)
        throw new AppError('forbidden', 'account_read_only', Messages.accountReadOnly);
      return { user };
    }
    const { row, expired } = await this.secrets.findToken(who.grantToken, [SecretPurpose.setSignInMethod]);
    if (!row)
      throw expired
        ? err.linkExpired()
        : new AppError('unauthorized', 'unauthenticated', Messages.sessionExpired);
    return { user: await this.activeById(row.userId), grantId: row.id };
  }

  /**
   * Writes a change of how the account signs in, in one transaction holding the user's row, with what
   * it brings: the reset link or grant it uses up (`grantId`; not used up if the change fails), and when
   * `credentialsChanged` (a new password, or a reset) the links, codes and sign-in steps issued before,
   * a second reset link among them, and every other session (`keepSession`, the one making the change,
   * stays). A sign-in with the old password at that moment either finished first (and its grant or
   * session ends here) or finds the new password when it asks for its grant, and is refused.
   */
  private async applyCredentials(
    user: UserRow,
    changes: UserChanges,
    options: { grantId?: string; credentialsChanged: boolean; keepSession?: string },
  ): Promise<UserRow> {
    return inFirm(this.db, firmScope(user.firmId), async (tx) => {
      await lockUser(tx, user.id);
      if (options.grantId && !(await this.secrets.consume(options.grantId, tx))) throw err.linkExpired();
      const updated = await this.users.update(firmScope(user.firmId), user.id, changes, tx);
      if (options.credentialsChanged) {
        await this.secrets.retire(user.id, SIGN_IN_SECRETS, tx);
        await this.tokens.endOtherSessions(user, options.keepSession, 'password_changed', tx);
      } else if (changes.phoneNumber !== undefined && changes.phoneNumber !== user.phoneNumber) {
        // A code texted to the number replaced no longer signs in.
        await this.secrets.retire(user.id, [SecretPurpose.signInCode], tx);
      }
      // A new password is told to the account's address: whoever set it may not be its owner. Not the
      // first one, chosen where the firm asked the user to choose how to sign in.
      if (changes.passwordHash && !user.setPasswordRequired) await this.notices.passwordChanged(tx, updated);
      return updated;
    });
  }

  private async startTwoFactor(user: UserRow, provenWith?: { passwordHash: string }): Promise<SignInStep> {
    // Each new code comes with five attempts: as many codes as the other sends allow, not one per
    // correct password (which let a holder of the password guess a hundred codes a minute).
    await this.throttle(`code:${user.id}`, Limits.codeSends);
    const secret = await this.tokens.issueProven(user, SecretPurpose.twoFactorChallenge, provenWith);
    await this.sendTwoFactorCode(user);
    return {
      twoFactorRequired: true,
      challengeToken: secret,
      uid: user.uid,
      twoFactorMethods: [{ name: 'email', value: maskEmail(user.email) }],
    };
  }

  private async sendTwoFactorCode(user: UserRow) {
    const firm = await this.firms.forMessages(firmScope(user.firmId));
    await this.issueCodeAndSend(user, SecretPurpose.twoFactorCode, {}, (secret, issued) =>
      this.outbound.email(
        {
          to: user.email,
          subject: `Your ${firm.name} verification code is ${secret}`,
          text: `Your two-factor verification code is ${secret}. It expires in 10 minutes.`,
          kind: 'two_factor_code',
          firmId: user.firmId,
          senderName: firm.name,
          idempotencyKey: `two_factor_code:${issued.id}`,
        },
        Messages.codeSendFailed,
      ),
    );
  }

  /**
   * Hands a new code to notifications, then stores it (retiring the one before): a send that fails
   * stores nothing, so the code the user already has goes on working, and no transaction or lock waits
   * on notifications meanwhile. The code's row id, chosen first, is the message's idempotency key.
   * Stored holding the user's row, as changes of the address and phone are: a code sent to an address or
   * phone replaced during the send is not stored (the change retired the codes sent there), and a code
   * made after this one and stored first stays the one that works, as its message is the newest.
   */
  private async issueCodeAndSend(
    user: UserRow,
    purpose: SecretPurpose,
    data: Record<string, string>,
    send: (secret: string, issued: { id: string }) => Promise<void>,
  ) {
    const prepared = this.secrets.prepare(purpose);
    await send(prepared.secret, prepared);
    await inFirm(this.db, firmScope(user.firmId), async (tx) => {
      // The row held (as lockUser holds it) and read in one statement.
      const [now] = await tx
        .select({ email: users.email, phoneNumber: users.phoneNumber })
        .from(users)
        .where(eq(users.id, user.id))
        .for('update');
      if (now?.email !== user.email || now?.phoneNumber !== user.phoneNumber)
        throw new AppError('conflict', 'contact_changed', Messages.codeSendFailed);
      if (await this.secrets.liveMadeAfter(tx, user.id, purpose, prepared.preparedAt)) return;
      await this.secrets.issue(user, purpose, data, tx, prepared);
    });
  }

  private async challengeOf(challengeToken: string) {
    const { row } = await this.secrets.findToken(challengeToken, [SecretPurpose.twoFactorChallenge]);
    if (!row) throw new AppError('unauthorized', 'challenge_expired', Messages.invalidOrExpiredCode);
    return { user: await this.activeById(row.userId), challenge: row };
  }

  /**
   * Checks a code against the live one. Each guess takes one of the code's attempts first, whether it is
   * right or not, so no number of guesses sent at once gets more than five; the fifth wrong one burns it.
   * Wrong guesses also count against the account across codes (Limits.codeFailures): past that, no code
   * is compared until the window ends.
   */
  private async checkCode(row: SecretRow | undefined, user: UserRow, code: string): Promise<SecretRow> {
    const failuresKey = `code_fail:${user.id}`;
    const wait = await this.limiter.waitFor(failuresKey, Limits.codeFailures);
    if (wait !== undefined) throw err.tooManyAttempts(wait);
    if (!row) throw err.wrongCode();
    const attempt = await this.secrets.takeAttempt(row.id, Limits.codeAttempts);
    if (attempt === 'exhausted') throw err.tooManyAttempts();
    if (attempt === 'spent') throw err.wrongCode();
    if (!this.secrets.codeMatches(row, user.id, code)) {
      const failures = await this.limiter.hit(failuresKey, Limits.codeFailures);
      if (attempt >= Limits.codeAttempts || !failures.allowed) {
        await this.secrets.consume(row.id);
        throw err.tooManyAttempts(failures.allowed ? undefined : failures.retryAfterSeconds);
      }
      throw err.wrongCode();
    }
    // A right code is used up by the caller, with what it yields (`redeem`).
    return row;
  }

  private async completed(
    user: UserRow,
    provenWith?: { passwordHash: string },
    within?: Tx<IdentitySchema>,
  ): Promise<SignInStep> {
    return {
      authToken: await this.tokens.grant(user, provenWith, within),
      uid: user.uid,
      setPasswordRequired: user.setPasswordRequired,
    };
  }

  /** Two-factor applies when the user turned it on or the firm forces it for firm users or for clients. */
  async twoFactorRequired(user: UserRow): Promise<boolean> {
    if (user.enabled2fa) return true;
    const prefs = await this.preferences.get(user.firmId);
    return user.isAdvisor ? prefs.force_2fa_on_firm_users : prefs.force_2fa_on_users;
  }

  private maskedMethods(user: UserRow) {
    const methods = [{ name: 'email', value: maskEmail(user.email) }];
    // Named as the sign-in methods are (password, email, sms; spec 1 s.4.4).
    if (phoneDigits(user.phoneNumber)) methods.push({ name: 'sms', value: maskPhone(user.phoneNumber) });
    return methods;
  }

  private async userByEmail(rawEmail: string): Promise<UserRow> {
    const user = await this.users.findLiveByEmail(requireEmail(rawEmail));
    if (!user) throw err.notFound();
    this.assertCanSignIn(user);
    return user;
  }

  private async userByUid(uid: string): Promise<UserRow> {
    const user = await this.users.findLiveByUid(uid);
    if (!user) throw err.notFound();
    this.assertCanSignIn(user);
    return user;
  }

  private async activeById(id: string): Promise<UserRow> {
    const user = await this.users.findLiveById(id);
    if (!user) throw err.notFound();
    this.assertCanSignIn(user);
    return user;
  }

  /** A deactivated user (paying off) cannot sign in. */
  private assertCanSignIn(user: UserRow) {
    if (!user.paying) throw new AppError('forbidden', 'user_deactivated', Messages.signInProblem);
  }

  private async throttle(key: string, limit: { max: number; windowSeconds: number }) {
    const { allowed, retryAfterSeconds } = await this.limiter.hit(key, limit);
    if (!allowed) {
      throw new AppError('too_many_requests', 'too_many_sends', Messages.tooManyCodesRequested, {
        retryAfterSeconds,
      });
    }
  }

  /**
   * An emailed link to /signin, its token in the fragment (`#token=`, out of the servers' logs). It names
   * the user's firm, so the page it opens shows that firm's branding.
   */
  private link(token: string, firmSlug: string) {
    return signInPageLink(this.config.PUBLIC_URL, firmSlug, { token });
  }
}

function requireEmail(raw: string): string {
  const email = normaliseEmail(raw ?? '');
  if (!email) throw badRequest(Messages.emailMissing, { email: Messages.emailMissing });
  if (!isValidEmail(email)) throw badRequest(Messages.invalidEmail, { email: Messages.invalidEmail });
  return email;
}

function assertCodeShape(code: string) {
  if (!new RegExp(`^\\d{${ONE_TIME_CODE_LENGTH}}$`).test(code ?? '')) {
    throw badRequest(Messages.codeLength, { code: Messages.codeLength });
  }
}
