import { defineEvent, defineRpc } from '../contract.js';
import * as access from '../gen/portico/identity/v1/access_pb.js';
import * as company from '../gen/portico/identity/v1/company_pb.js';
import * as firm from '../gen/portico/identity/v1/firm_pb.js';
import * as session from '../gen/portico/identity/v1/session_pb.js';
import * as user from '../gen/portico/identity/v1/user_pb.js';

/** Every request/reply subject the identity service answers. */
export const Identity = {
  lookupEmail: defineRpc({
    subject: 'identity.session.lookup_email.v1',
    request: session.LookupEmailRequestSchema,
    response: session.LookupEmailResponseSchema,
  }),
  verifyPassword: defineRpc({
    subject: 'identity.session.verify_password.v1',
    request: session.VerifyPasswordRequestSchema,
    response: session.SignInStepResponseSchema,
  }),
  sendEmailCode: defineRpc({
    subject: 'identity.session.send_email_code.v1',
    request: session.SendCodeRequestSchema,
    response: session.SendCodeResponseSchema,
  }),
  sendSmsCode: defineRpc({
    subject: 'identity.session.send_sms_code.v1',
    request: session.SendCodeRequestSchema,
    response: session.SendCodeResponseSchema,
  }),
  verifyCode: defineRpc({
    subject: 'identity.session.verify_code.v1',
    request: session.VerifyCodeRequestSchema,
    response: session.SignInStepResponseSchema,
  }),
  sendAuthLink: defineRpc({
    subject: 'identity.session.send_auth_link.v1',
    request: session.SendAuthLinkRequestSchema,
    response: session.SendAuthLinkResponseSchema,
  }),
  verifyAuthLink: defineRpc({
    subject: 'identity.session.verify_auth_link.v1',
    request: session.VerifyAuthLinkRequestSchema,
    response: session.VerifyAuthLinkResponseSchema,
  }),
  forgotPassword: defineRpc({
    subject: 'identity.session.forgot_password.v1',
    request: session.ForgotPasswordRequestSchema,
    response: session.SendAuthLinkResponseSchema,
  }),
  resetPassword: defineRpc({
    subject: 'identity.session.reset_password.v1',
    request: session.ResetPasswordRequestSchema,
    response: session.SignInStepResponseSchema,
  }),
  sendTwoFactor: defineRpc({
    subject: 'identity.session.send_two_factor.v1',
    request: session.SendTwoFactorRequestSchema,
    response: session.SendCodeResponseSchema,
  }),
  verifyTwoFactor: defineRpc({
    subject: 'identity.session.verify_two_factor.v1',
    request: session.VerifyTwoFactorRequestSchema,
    response: session.SignInStepResponseSchema,
  }),
  exchangeToken: defineRpc({
    subject: 'identity.session.exchange_token.v1',
    request: session.ExchangeTokenRequestSchema,
    response: session.SessionTokensSchema,
  }),
  refresh: defineRpc({
    subject: 'identity.session.refresh.v1',
    request: session.RefreshRequestSchema,
    response: session.SessionTokensSchema,
  }),
  signOut: defineRpc({
    subject: 'identity.session.sign_out.v1',
    request: session.SignOutRequestSchema,
    response: session.SignOutResponseSchema,
  }),
  signOutEverywhere: defineRpc({
    subject: 'identity.session.sign_out_everywhere.v1',
    request: session.SignOutEverywhereRequestSchema,
    response: session.SignOutResponseSchema,
  }),
  setSignInMethod: defineRpc({
    subject: 'identity.user.set_sign_in_method.v1',
    request: session.SetSignInMethodRequestSchema,
    response: session.SetSignInMethodResponseSchema,
  }),
  jwks: defineRpc({
    subject: 'identity.keys.jwks.v1',
    request: session.JwksRequestSchema,
    response: session.JwksResponseSchema,
  }),
  currentUser: defineRpc({
    subject: 'identity.user.current.v1',
    request: user.CurrentUserRequestSchema,
    response: user.UserSchema,
  }),
  getUser: defineRpc({
    subject: 'identity.user.get.v1',
    request: user.GetUserRequestSchema,
    response: user.UserSchema,
  }),
  updateProfile: defineRpc({
    subject: 'identity.user.update_profile.v1',
    request: user.UpdateProfileRequestSchema,
    response: user.UpdateProfileResponseSchema,
  }),
  confirmEmail: defineRpc({
    subject: 'identity.user.confirm_email.v1',
    request: user.ConfirmEmailRequestSchema,
    response: user.UserSchema,
  }),
  setDefaultCompany: defineRpc({
    subject: 'identity.user.set_default_company.v1',
    request: user.SetDefaultCompanyRequestSchema,
    response: user.UserSchema,
  }),
  getCompany: defineRpc({
    subject: 'identity.company.get.v1',
    request: company.GetCompanyRequestSchema,
    response: company.CompanySchema,
  }),
  updateCompany: defineRpc({
    subject: 'identity.company.update.v1',
    request: company.UpdateCompanyRequestSchema,
    response: company.CompanySchema,
  }),
  updateCompanyProfile: defineRpc({
    subject: 'identity.company.update_profile.v1',
    request: company.UpdateCompanyRequestSchema,
    response: company.CompanySchema,
  }),
  listCompanies: defineRpc({
    subject: 'identity.company.list.v1',
    request: company.ListCompaniesRequestSchema,
    response: company.ListCompaniesResponseSchema,
  }),
  /** What another service needs to enforce an actor's rights on a company's records. */
  companyAccess: defineRpc({
    subject: 'identity.company.access.v1',
    request: access.CompanyAccessRequestSchema,
    response: access.CompanyAccessSchema,
  }),
  /** A firm's name and advisors' addresses, for notifications sent by other services. */
  firmContacts: defineRpc({
    subject: 'identity.firm.contacts.v1',
    request: access.FirmContactsRequestSchema,
    response: access.FirmContactsSchema,
  }),
  currentFirm: defineRpc({
    subject: 'identity.firm.current.v1',
    request: firm.CurrentFirmRequestSchema,
    response: firm.FirmSchema,
  }),
  firmThemeBySlug: defineRpc({
    subject: 'identity.firm.theme_by_slug.v1',
    request: firm.FirmThemeBySlugRequestSchema,
    response: firm.FirmThemeSchema,
  }),
  updatePreferences: defineRpc({
    subject: 'identity.firm.update_preferences.v1',
    request: firm.UpdatePreferencesRequestSchema,
    response: firm.FirmSchema,
  }),
  setDropLinkRecipients: defineRpc({
    subject: 'identity.firm.set_drop_link_recipients.v1',
    request: access.SetDropLinkRecipientsRequestSchema,
    response: access.DocumentPreferencesSchema,
  }),
} as const;

/** Domain events identity publishes on JetStream. */
export const IdentityEvents = {
  sessionsRevoked: defineEvent({
    subject: 'events.identity.session.revoked.v1',
    message: session.SessionsRevokedSchema,
  }),
  userUpdated: defineEvent({ subject: 'events.identity.user.updated.v1', message: user.UserUpdatedSchema }),
  accountNoticeDue: defineEvent({
    subject: 'events.identity.user.account_notice_due.v1',
    message: user.AccountNoticeDueSchema,
  }),
  companyUpdated: defineEvent({
    subject: 'events.identity.company.updated.v1',
    message: company.CompanyUpdatedSchema,
  }),
  preferencesUpdated: defineEvent({
    subject: 'events.identity.firm.preferences_updated.v1',
    message: firm.PreferencesUpdatedSchema,
  }),
} as const;
