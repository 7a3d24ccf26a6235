import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, OptionalActor, Rpc } from '@portico/platform';
import {
  type ExchangeTokenRequest,
  type ForgotPasswordRequest,
  Identity,
  type LookupEmailRequest,
  type RefreshRequest,
  type ResetPasswordRequest,
  type SendAuthLinkRequest,
  type SendCodeRequest,
  type SendTwoFactorRequest,
  type SetSignInMethodRequest,
  type SignOutRequest,
  type VerifyAuthLinkRequest,
  type VerifyCodeRequest,
  type VerifyPasswordRequest,
  type VerifyTwoFactorRequest,
} from '@portico/proto';
import type { KeyRing } from '../keys/signing-keys.js';
import { KEYS } from '../tokens.js';
import { SessionTokensService } from './session-tokens.service.js';
import { SignInService } from './sign-in.service.js';

/** The sign-in subjects (spec 1 s.4.4, 7.5). Each handler hands validated input to one service call. */
@Controller()
export class SessionsHandler {
  constructor(
    private readonly signIn: SignInService,
    private readonly sessions: SessionTokensService,
    @Inject(KEYS) private readonly keys: KeyRing,
  ) {}

  @Rpc(Identity.lookupEmail)
  lookupEmail(@Payload() req: LookupEmailRequest) {
    return this.signIn.lookup(req.email);
  }

  @Rpc(Identity.verifyPassword)
  verifyPassword(@Payload() req: VerifyPasswordRequest) {
    return this.signIn.verifyPassword(req.email, req.password);
  }

  @Rpc(Identity.sendEmailCode)
  sendEmailCode(@Payload() req: SendCodeRequest) {
    return this.signIn.sendEmailCode(req);
  }

  @Rpc(Identity.sendSmsCode)
  sendSmsCode(@Payload() req: SendCodeRequest) {
    return this.signIn.sendSmsCode(req);
  }

  @Rpc(Identity.verifyCode)
  verifyCode(@Payload() req: VerifyCodeRequest) {
    return this.signIn.verifyCode(req.uid, req.code);
  }

  @Rpc(Identity.sendAuthLink)
  sendAuthLink(@Payload() req: SendAuthLinkRequest) {
    return this.signIn.sendAuthLink(req);
  }

  @Rpc(Identity.verifyAuthLink)
  verifyAuthLink(@Payload() req: VerifyAuthLinkRequest) {
    return this.signIn.verifyAuthLink(req.token);
  }

  @Rpc(Identity.forgotPassword)
  forgotPassword(@Payload() req: ForgotPasswordRequest) {
    return this.signIn.forgotPassword(req.email);
  }

  @Rpc(Identity.resetPassword)
  resetPassword(@Payload() req: ResetPasswordRequest) {
    return this.signIn.resetPassword(req.token, req.password, req.passwordConfirmation);
  }

  @Rpc(Identity.sendTwoFactor)
  sendTwoFactor(@Payload() req: SendTwoFactorRequest) {
    return this.signIn.sendTwoFactor(req.challengeToken, req.delivery, req.redirect);
  }

  @Rpc(Identity.verifyTwoFactor)
  verifyTwoFactor(@Payload() req: VerifyTwoFactorRequest) {
    return this.signIn.verifyTwoFactor(req.challengeToken, req.code);
  }

  @Rpc(Identity.setSignInMethod)
  setSignInMethod(@Payload() req: SetSignInMethodRequest, @OptionalActor() actor?: Actor) {
    return this.signIn.setSignInMethod({ actor, grantToken: req.grantToken }, req);
  }

  @Rpc(Identity.exchangeToken)
  exchangeToken(@Payload() req: ExchangeTokenRequest) {
    return this.sessions.exchange(req.authToken, { userAgent: req.userAgent, ip: req.ip });
  }

  @Rpc(Identity.refresh)
  refresh(@Payload() req: RefreshRequest) {
    return this.sessions.refresh(req.refreshToken);
  }

  @Rpc(Identity.signOut)
  async signOut(@Payload() req: SignOutRequest) {
    return { revokedSessions: await this.sessions.signOut(req.refreshToken) };
  }

  @Rpc(Identity.signOutEverywhere)
  async signOutEverywhere(@CurrentActor() actor: Actor) {
    return { revokedSessions: await this.sessions.signOutEverywhere(actor) };
  }

  @Rpc(Identity.jwks)
  async jwks() {
    return { keys: await this.keys.jwks() };
  }
}
