import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  badRequest,
  firmScope,
  forbidden,
  hasHiddenCharacters,
  inFirm,
  isUniqueViolation,
  isUuid,
} from '@portico/platform';
import type { UpdateProfileRequest } from '@portico/proto';
import { and, eq, isNull } from 'drizzle-orm';
import { canEditUser, canSeeUser } from '../access/visibility.js';
import type { IdentityConfig } from '../config.js';
import { FirmsRepository } from '../firms/firms.repository.js';
import { PreferencesCache } from '../firms/preferences.cache.js';
import { portalLink, signInPageLink } from '../firms/sign-in-link.js';
import { Messages } from '../messages.js';
import { type UserRow, users } from '../schema.js';
import { OutboundMessages } from '../sessions/outbound.js';
import { PasswordCheck } from '../sessions/password-check.js';
import { Limits, RateLimiter } from '../sessions/rate-limiter.js';
import {
  type PreparedSecret,
  SecretPurpose,
  SecretsRepository,
  SIGN_IN_SECRETS,
} from '../sessions/secrets.repository.js';
import { CONFIG, DB, type IdentityDb } from '../tokens.js';
import { AccountNotices } from './account-notices.js';
import {
  CONTACT_METHODS,
  isValidEmail,
  normaliseEmail,
  phoneDigits,
  US_TIME_ZONES,
  validateOptionalPhone,
} from './profile.rules.js';
import { toUserMessage } from './user.mapper.js';
import { type UserChanges, UsersRepository } from './users.repository.js';

/** The longest name and out-of-office message kept (the gateway refuses longer ones first). */
const NAME_MAX = 100;
const OUT_OF_OFFICE_MESSAGE_MAX = 2_000;

/** What is wrong with a person's name, if anything (its absence is for the caller to judge). */
function nameProblem(value: string): string | undefined {
  if (value.trim().length > NAME_MAX) return Messages.nameTooLong;
  if (hasHiddenCharacters(value)) return Messages.nameHidden;
  return undefined;
}

/**
 * Whether a save would change the account's sign-in email, phone or two-factor as `row` has them. A form
 * sends every field: the same values sent back (any case, any phone formatting) change nothing.
 */
function changesSignIn(row: UserRow, request: UpdateProfileRequest): boolean {
  return (
    (request.email !== undefined && normaliseEmail(request.email) !== normaliseEmail(row.email)) ||
    (request.phoneNumber !== undefined && phoneDigits(request.phoneNumber) !== row.phoneNumber) ||
    (request.enabled2fa !== undefined && request.enabled2fa !== row.enabled2fa)
  );
}

/**
 * Whether a save by someone other than the user changes what is the user's alone: a firm user's sign-in
 * email, phone and two-factor (see changesSignIn), and a client's two-factor. Spec 1 s.2.8 puts the
 * two-factor toggle in the user's own profile editor; the firm's edit of a client (spec 3 s.7, PATCH
 * /users/{id}) has none, and an advisor who turned it off would take away the client's second factor.
 * A client's email and phone stay the firm's to correct (spec 3 s.7 lists the contact fields).
 */
function changesOwnSignIn(actor: Actor, row: UserRow, request: UpdateProfileRequest): boolean {
  if (actor.user_id === row.id) return false;
  if (row.isAdvisor) return changesSignIn(row, request);
  return request.enabled2fa !== undefined && request.enabled2fa !== row.enabled2fa;
}

const notFound = () => new AppError('not_found', 'user_not_found', Messages.notFound);
const accountReadOnly = () => new AppError('forbidden', 'account_read_only', Messages.accountReadOnly);
const ownSignInOnly = () => new AppError('forbidden', 'own_sign_in_only', Messages.ownSignInOnly);
const emailExists = () =>
  new AppError('conflict', 'email_exists', Messages.emailExists, { fields: { email: Messages.emailExists } });

@Injectable()
export class UsersService {
  constructor(
    @Inject(DB) private readonly db: IdentityDb,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    private readonly users: UsersRepository,
    private readonly preferences: PreferencesCache,
    private readonly firms: FirmsRepository,
    private readonly secrets: SecretsRepository,
    private readonly outbound: OutboundMessages,
    private readonly limiter: RateLimiter,
    private readonly passwords: PasswordCheck,
    private readonly notices: AccountNotices,
  ) {}

  async current(actor: Actor) {
    const user = await this.users.get(firmScope(actor.firm_id), actor.user_id);
    if (!user) throw new AppError('unauthorized', 'unauthenticated', Messages.sessionExpired);
    return this.present(user);
  }

  async get(actor: Actor, id: string) {
    const { user } = await this.visible(actor, id);
    return this.present(user);
  }

  /** The client profile editor's save (spec 1 s.2.8, 5.3, 7.4). */
  async updateProfile(actor: Actor, request: UpdateProfileRequest) {
    const { user, prefs } = await this.visible(actor, request.id);
    if (!canEditUser(actor, user, prefs)) throw forbidden();
    if (actor.user_id === user.id && (actor.readonly_access || user.readonlyAccess)) throw accountReadOnly();
    // A firm user's sign-in email and two-factor are theirs alone: a partner or admin who could change
    // them would confirm an address of their own and reset the password, taking the account over.
    // A client's profile (spec 1 s.2.8) has no name: names are the firm's record of them, and an
    // Individual entity and its signers are named from them.
    const nameFields =
      request.fname !== undefined || request.lname !== undefined || request.preferredName !== undefined;
    if (actor.role === 'client' && nameFields)
      throw new AppError('forbidden', 'name_by_firm', Messages.nameByFirm);
    // The phone is a sign-in credential too: a texted code signs in (without two-factor), so a partner or
    // admin who set a firm user's phone to their own could sign in as them. Only a change is refused: the
    // form sends them with every save. A client's two-factor is theirs alone too (changesOwnSignIn).
    // Checked again against the row the save holds (see below).
    if (changesOwnSignIn(actor, user, request)) throw ownSignInOnly();
    const forced = user.isAdvisor ? prefs.force_2fa_on_firm_users : prefs.force_2fa_on_users;

    const askedEmail = request.email === undefined ? '' : normaliseEmail(request.email);
    const asksNewEmail = isValidEmail(askedEmail) && askedEmail !== user.email.toLowerCase();
    // The user's own email and phone are where codes and reset links go, and two-factor guards the
    // password: changing them is proved with the password, as a sign-in method change is. A profile saved
    // with them unchanged (the client's form sends every field) needs no password.
    const newPhone = phoneDigits(request.phoneNumber ?? '');
    const reachesAccountElsewhere =
      asksNewEmail ||
      (!!newPhone && newPhone !== user.phoneNumber) ||
      (request.enabled2fa === false && user.enabled2fa);
    if (actor.user_id === user.id && reachesAccountElsewhere)
      await this.passwords.confirmCurrent(user, request.currentPassword ?? '');

    // Whether another account has the address, asked before the row is locked: the question is about
    // other users, and it takes a connection of its own (across firms) that a locked save should not wait for.
    const emailTaken = asksNewEmail && (await this.users.emailTaken(askedEmail, user.id));
    const scope = firmScope(user.firmId);
    // The set-email step (spec 1 s.2.3): a user with a temporary email who still has to choose how to
    // sign in picked email passcode. The method switches to email when the new address is confirmed.
    const setsSignInEmail = actor.user_id === user.id && user.hasTempEmail && user.setPasswordRequired;
    // The confirmation link is sent before anything is written and before the row is locked, as every link
    // and code of this service is: one that cannot be sent answers 503 with the spec's message and nothing
    // is saved (the form can simply be saved again), and no lock or connection waits on notifications.
    // The save is checked first, so a save refused for another field sends no link; should the save
    // fail after the link went, the link answers as an expired one (its secret is stored with the save).
    let confirmation: (PreparedSecret & { email: string }) | undefined;
    if (asksNewEmail && !emailTaken) {
      const { fields } = this.profileChanges(user, request, forced, emailTaken);
      const problems = Object.values(fields);
      if (problems.length) throw badRequest(problems[0] as string, fields);
      // Each new address is mailed a confirmation link: a bound on them, counted before the link goes
      // (saves sent at once each count) and given back when it could not be sent.
      const confirmationsKey = `email_confirmation:${user.id}`;
      const counted = await this.limiter.hit(confirmationsKey, Limits.emailConfirmations);
      if (!counted.allowed)
        throw new AppError('too_many_requests', 'too_many_confirmations', Messages.tooManyConfirmations, {
          retryAfterSeconds: counted.retryAfterSeconds,
        });
      const firm = await this.firms.forMessages(scope);
      confirmation = { ...this.secrets.prepare(SecretPurpose.emailConfirmation), email: askedEmail };
      await this.sendEmailConfirmation(user, confirmation, setsSignInEmail, firm).catch(async (err) => {
        await this.limiter.giveBack(confirmationsKey);
        throw err;
      });
    }
    const { updated, newEmail } = await inFirm(this.db, scope, async (tx) => {
      // The rules are checked against the row as it is now, held until this save commits: two saves at
      // once (one removing the phone, one choosing text messages) each passed against the old row and
      // together left what neither allowed.
      const [current] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
        .for('update');
      if (!current) throw notFound();
      // The user may have changed their phone or two-factor since it was read: the form's old value sent
      // back would be a change now, and is refused rather than written over theirs.
      if (changesOwnSignIn(actor, current, request)) throw ownSignInOnly();
      const { changes, fields, newEmail } = this.profileChanges(current, request, forced, emailTaken);
      const problems = Object.values(fields);
      if (problems.length) throw badRequest(problems[0] as string, fields);
      // The user withdraws their change waiting for confirmation (a mistyped address, say), and its link
      // stops working: otherwise only another address replaced it, and whoever held the mistyped one could
      // still take the account's sign-in email. Asked for explicitly: a save that sends the address the
      // account has (the spec's form sends every field) leaves the change waiting.
      const withdrawsPending =
        actor.user_id === user.id && !newEmail && !!request.cancelEmailChange && !!current.pendingEmail;
      const pendingEmail = newEmail
        ? { pendingEmail: newEmail }
        : withdrawsPending
          ? { pendingEmail: null }
          : {};
      const updated = await this.users.updateAnnounced(tx, user, { ...changes, ...pendingEmail }, [
        ...Object.keys(changes),
        ...('pendingEmail' in pendingEmail ? ['pending_email'] : []),
      ]);
      if (withdrawsPending) await this.secrets.retire(user.id, [SecretPurpose.emailConfirmation], tx);
      if (newEmail) {
        // The account's email changed since it was read (another save): the link went to an address
        // asked for against the old one. Nothing is saved; the form is read again.
        if (confirmation?.email !== newEmail)
          throw new AppError('conflict', 'profile_changed', Messages.preferencesChangedElsewhere);
        await this.secrets.issue(
          user,
          SecretPurpose.emailConfirmation,
          setsSignInEmail ? { email: newEmail, sign_in_method: 'email' } : { email: newEmail },
          tx,
          confirmation,
        );
      }
      if (current.enabled2fa && !updated.enabled2fa) await this.notices.twoFactorOff(tx, updated);
      if (updated.phoneNumber !== current.phoneNumber) {
        // A code texted to the number replaced no longer signs in.
        await this.secrets.retire(user.id, [SecretPurpose.signInCode], tx);
        // A client's phone changed by someone else (an advisor may, spec 3): the client hears of it, as
        // of an email change, since a texted code signs them in.
        if (actor.user_id !== user.id && updated.phoneNumber) await this.notices.phoneChanged(tx, updated);
      }
      return { updated, newEmail };
    });
    return { user: await this.present(updated), emailConfirmationSent: !!newEmail };
  }

  /**
   * Applies a confirmed email change; the new address becomes the sign-in email, and the sign-in method
   * becomes email passcode when the change came from the set-email step.
   */
  async confirmEmail(token: string) {
    const { row, expired } = await this.secrets.findToken(token, [SecretPurpose.emailConfirmation]);
    if (!row) throw new AppError(expired ? 'gone' : 'not_found', 'link_expired', Messages.linkExpired);
    const newEmail = row.data.email ?? '';
    if (await this.users.emailTaken(newEmail, row.userId)) throw emailExists();
    const scope = firmScope(row.firmId);
    const updated = await inFirm(this.db, scope, async (tx) => {
      // The user's row first, held as lockUser holds it (the order every sign-in change takes), and read.
      const [current] = await tx
        .select({
          setPasswordRequired: users.setPasswordRequired,
          pendingEmail: users.pendingEmail,
          email: users.email,
          hasTempEmail: users.hasTempEmail,
        })
        .from(users)
        .where(eq(users.id, row.userId))
        .for('update');
      // Used up with the change, not before it: a change that fails leaves the link to follow again.
      if (!(await this.secrets.consume(row.id, tx)))
        throw new AppError('gone', 'link_expired', Messages.linkExpired);
      // From the set-email step, unless the user has chosen another method since (setPasswordRequired).
      /** The address the account signed in with until now, to be told of the change (not a temporary one). */
      const previous = current && !current.hasTempEmail ? current.email : undefined;
      // Only the address waiting for confirmation: a link sent for an address asked for before it (a
      // typo corrected, say) no longer changes anything.
      if (current?.pendingEmail?.toLowerCase() !== newEmail.toLowerCase())
        throw new AppError('gone', 'link_expired', Messages.linkExpired);
      const signInMethod: UserChanges =
        row.data.sign_in_method === 'email' && current?.setPasswordRequired
          ? { preferredSignInMethod: 'email', setPasswordRequired: false }
          : {};
      const saved = await this.users
        .updateAnnounced(
          tx,
          { id: row.userId, firmId: row.firmId },
          { email: newEmail, pendingEmail: null, hasTempEmail: false, ...signInMethod },
          ['email', ...(signInMethod.preferredSignInMethod ? ['preferred_sign_in_method'] : [])],
        )
        .catch((err) => {
          // Another account took the address between the check above and this write.
          if (isUniqueViolation(err)) throw emailExists();
          throw err;
        });
      // Links sent to the old address (a password reset, a sign-in link) no longer open the account,
      // with the change and not after it: the new address never stands beside live links of the old.
      await this.secrets.retire(row.userId, SIGN_IN_SECRETS, tx);
      if (previous && previous.toLowerCase() !== newEmail.toLowerCase())
        await this.notices.emailChanged(tx, saved, previous);
      return saved;
    });
    return this.present(updated);
  }

  /**
   * The entity the client's portal opens with. A read-only account is refused (spec 1 s.6: read-only
   * disables profile edits), by its flag as stored, not as the access token said when it was issued. The
   * entity selector switches what is shown without it: the portal does not call this for such an account.
   */
  async setDefaultCompany(actor: Actor, companyId: string) {
    const scope = firmScope(actor.firm_id);
    const me = await this.users.get(scope, actor.user_id);
    if (!me) throw new AppError('unauthorized', 'unauthenticated', Messages.sessionExpired);
    if (actor.readonly_access || me.readonlyAccess) throw accountReadOnly();
    const owned = await this.users.companyIdsOf(scope, actor.user_id);
    if (!owned.includes(companyId)) throw new AppError('not_found', 'company_not_found', Messages.notFound);
    const updated = await inFirm(this.db, scope, (tx) =>
      this.users.updateAnnounced(
        tx,
        { id: actor.user_id, firmId: actor.firm_id },
        { defaultCompanyId: companyId },
        ['default_company_id'],
      ),
    );
    return this.present(updated);
  }

  private async visible(actor: Actor, id: string) {
    const scope = firmScope(actor.firm_id);
    const [user, prefs] = await Promise.all([
      isUuid(id) ? this.users.get(scope, id) : undefined,
      this.preferences.get(actor.firm_id),
    ]);
    if (!user || !canSeeUser(actor, user, prefs)) throw notFound();
    return { user, prefs };
  }

  private async present(user: UserRow) {
    const scope = firmScope(user.firmId);
    const [prefs, companyIds, confirmation] = await Promise.all([
      this.preferences.get(user.firmId),
      user.isAdvisor ? Promise.resolve([]) : this.users.companyIdsOf(scope, user.id),
      user.pendingEmail ? this.secrets.latestLive(user.id, SecretPurpose.emailConfirmation) : undefined,
    ]);
    const twoFactorForced = user.isAdvisor ? prefs.force_2fa_on_firm_users : prefs.force_2fa_on_users;
    // A change is waiting for confirmation only while its link works: once it has expired, the
    // profile no longer says it is waiting (a new save of the address sends a new link).
    const waiting = confirmation?.data.email?.toLowerCase() === user.pendingEmail?.toLowerCase();
    return toUserMessage(waiting ? user : { ...user, pendingEmail: null }, { companyIds, twoFactorForced });
  }

  private profileChanges(
    user: UserRow,
    request: UpdateProfileRequest,
    twoFactorForced: boolean,
    emailTaken: boolean,
  ) {
    const changes: UserChanges = {};
    const fields: Record<string, string> = {};
    let newEmail: string | undefined;

    if (request.email !== undefined) {
      const email = normaliseEmail(request.email);
      if (!email) fields.email = Messages.emailRequired;
      else if (!isValidEmail(email)) fields.email = Messages.invalidEmail;
      else if (email !== user.email.toLowerCase()) {
        if (emailTaken) fields.email = Messages.emailExists;
        else newEmail = email;
      }
    }
    if (request.phoneNumber !== undefined) {
      const problem = validateOptionalPhone(request.phoneNumber);
      if (problem) fields.phone_number = problem;
      else if (!phoneDigits(request.phoneNumber) && user.preferredSignInMethod === 'sms') {
        fields.phone_number = Messages.phoneNeededForSmsSignIn;
      } else changes.phoneNumber = phoneDigits(request.phoneNumber);
    }
    if (request.workPhoneNumber !== undefined) {
      const problem = validateOptionalPhone(request.workPhoneNumber);
      if (problem) fields.work_phone_number = problem;
      else changes.workPhoneNumber = phoneDigits(request.workPhoneNumber);
    }
    if (request.workPhoneExtension !== undefined) {
      if (!/^\d{0,6}$/.test(request.workPhoneExtension))
        fields.work_phone_extension = Messages.extensionDigits;
      else changes.workPhoneExtension = request.workPhoneExtension;
    }
    if (request.timeZone !== undefined) {
      // Own keys only: `in` would take 'constructor' or 'toString' for a time zone.
      if (!Object.hasOwn(US_TIME_ZONES, request.timeZone)) fields.time_zone = Messages.invalidTimeZone;
      else changes.timeZone = request.timeZone;
    }
    if (request.preferredContactMethod !== undefined) {
      if (!(CONTACT_METHODS as readonly string[]).includes(request.preferredContactMethod)) {
        fields.preferred_contact_method = Messages.invalidContactMethod;
      } else changes.preferredContactMethod = request.preferredContactMethod;
    }
    const contact = changes.preferredContactMethod ?? user.preferredContactMethod;
    const phone = changes.phoneNumber ?? user.phoneNumber;
    if (contact === 'sms' && !phone && !fields.phone_number)
      fields.preferred_contact_method = Messages.smsNeedsPhone;
    if (request.enabled2fa !== undefined) {
      if (!request.enabled2fa && twoFactorForced) fields.enabled_2fa = Messages.twoFactorForced;
      else changes.enabled2fa = request.enabled2fa;
    }
    for (const key of ['fname', 'lname'] as const) {
      const value = request[key];
      if (value === undefined) continue;
      const problem = nameProblem(value);
      if (!value.trim()) fields[key] = Messages.namesRequired;
      else if (problem) fields[key] = problem;
      else changes[key] = value.trim().normalize('NFC');
    }
    if (request.preferredName !== undefined) {
      const problem = nameProblem(request.preferredName);
      if (problem) fields.preferred_name = problem;
      else changes.preferredName = request.preferredName.trim().normalize('NFC');
    }
    if (request.outOfOffice !== undefined || request.outOfOfficeMessage !== undefined) {
      if (!user.isAdvisor) fields.out_of_office = Messages.outOfOfficeFirmUsersOnly;
      else {
        if (request.outOfOffice !== undefined) changes.outOfOffice = request.outOfOffice;
        if (request.outOfOfficeMessage !== undefined) {
          const message = request.outOfOfficeMessage.trim();
          if (message.length > OUT_OF_OFFICE_MESSAGE_MAX)
            fields.out_of_office_message = Messages.outOfOfficeTooLong;
          else changes.outOfOfficeMessage = message;
        }
        // Clients see the message in their conversations: out of office says something or is off.
        const away = changes.outOfOffice ?? user.outOfOffice;
        if (away && !(changes.outOfOfficeMessage ?? user.outOfOfficeMessage))
          fields.out_of_office_message = Messages.outOfOfficeMessageRequired;
      }
    }
    return { changes, fields, newEmail };
  }

  /** Issues the confirmation link in the save's transaction `tx` and sends it, or throws (503). */
  /** Mails the confirmation link of a new address (`confirmation`: its secret, prepared, not yet stored). */
  private async sendEmailConfirmation(
    user: UserRow,
    confirmation: { id: string; secret: string; email: string },
    setsSignInEmail: boolean,
    firm: { name: string; slug: string },
  ) {
    const newEmail = confirmation.email;
    const link = this.confirmationLink(user, confirmation.secret, setsSignInEmail, firm.slug);
    const afterwards = setsSignInEmail
      ? 'Once you confirm, you sign in with a code sent to this address.'
      : 'Until you confirm, you keep signing in with your current address.';
    await this.outbound.email(
      {
        to: newEmail,
        subject: `Confirm your new email address for ${firm.name}`,
        text: `Confirm that this is your new email address: ${link}\n\n${afterwards}`,
        kind: 'email_confirmation',
        firmId: user.firmId,
        senderName: firm.name,
        idempotencyKey: `email_confirmation:${confirmation.id}`,
      },
      Messages.codeSendFailed,
    );
  }

  /**
   * Where the confirmation link lands: the profile page of the user's role (/admin-profile for advisors,
   * /profile for clients), which confirms it. A user still choosing a sign-in method sees no other page
   * than that choice in the signed-in shell, so their link opens the sign-in page, with the firm's branding.
   * The token goes in the link's fragment (`#email_token=`), out of the servers' logs (see `portalLink`).
   */
  private confirmationLink(user: UserRow, token: string, setsSignInEmail: boolean, firmSlug: string) {
    if (setsSignInEmail) return signInPageLink(this.config.PUBLIC_URL, firmSlug, { email_token: token });
    return portalLink(this.config.PUBLIC_URL, user.isAdvisor ? '/admin-profile' : '/profile', {
      email_token: token,
    });
  }
}
