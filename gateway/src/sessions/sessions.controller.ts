import { Controller, Inject } from '@nestjs/common';
import { ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import {
  LookupEmailResponseSchema,
  SendAuthLinkResponseSchema,
  SendCodeResponseSchema,
  SessionTokensSchema,
  SignInStepResponseSchema,
  SignOutResponseSchema,
  VerifyAuthLinkResponseSchema,
} from '@portico/proto';
import type { z } from 'zod';
import { Authenticated, Public } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { ValidBody } from '../validation/zod.pipe.js';
import { SessionsClient } from './sessions.client.js';
import * as s from './sessions.schemas.js';

@ApiTags('sessions')
@ApiTooManyRequestsResponse({ description: 'Rate limited per address and per account; see Retry-After' })
@Controller('sessions')
export class SessionsController {
  constructor(@Inject(SessionsClient) private readonly sessions: SessionsClient) {}

  @PostAction('get_preferred_sign_in_method')
  @Public()
  @Describe('Look up an email: the preferred sign-in method and masked methods', LookupEmailResponseSchema)
  lookupEmail(
    @ValidBody(s.lookupEmailBody) body: z.output<typeof s.lookupEmailBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.lookupEmail(body, caller);
  }

  @PostAction('verify_password')
  @Public()
  @Describe('Sign in with email and password', SignInStepResponseSchema)
  verifyPassword(
    @ValidBody(s.verifyPasswordBody) body: z.output<typeof s.verifyPasswordBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.verifyPassword(body, caller);
  }

  @PostAction('send_email_verification_code')
  @Public()
  @Describe('Send a six-digit sign-in code by email', SendCodeResponseSchema)
  sendEmailCode(
    @ValidBody(s.sendEmailCodeBody) body: z.output<typeof s.sendEmailCodeBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.sendEmailCode(body, caller);
  }

  @PostAction('send_sms_verification_code')
  @Public()
  @Describe('Send a six-digit sign-in code by text message', SendCodeResponseSchema)
  sendSmsCode(
    @ValidBody(s.sendSmsCodeBody) body: z.output<typeof s.sendSmsCodeBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.sendSmsCode(body, caller);
  }

  @PostAction('verify_verification_code')
  @Public()
  @Describe('Verify a sign-in code by uid and code', SignInStepResponseSchema)
  verifyCode(
    @ValidBody(s.verifyCodeBody) body: z.output<typeof s.verifyCodeBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.verifyCode(body, caller);
  }

  @PostAction('send_auth_link')
  @Public()
  @Describe('Send a magic sign-in link', SendAuthLinkResponseSchema)
  sendAuthLink(
    @ValidBody(s.sendAuthLinkBody) body: z.output<typeof s.sendAuthLinkBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.sendAuthLink(body, caller);
  }

  @PostAction('verify_auth_link')
  @Public()
  @Describe('Verify a sign-in or password-reset link token', VerifyAuthLinkResponseSchema)
  verifyAuthLink(
    @ValidBody(s.verifyAuthLinkBody) body: z.output<typeof s.verifyAuthLinkBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.verifyAuthLink(body, caller);
  }

  @PostAction('forgot_password')
  @Public()
  @Describe('Send a password-reset link', SendAuthLinkResponseSchema)
  forgotPassword(
    @ValidBody(s.forgotPasswordBody) body: z.output<typeof s.forgotPasswordBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.forgotPassword(body, caller);
  }

  @PostAction('reset_password')
  @Public()
  @Describe('Set a new password with a reset link token', SignInStepResponseSchema)
  resetPassword(
    @ValidBody(s.resetPasswordBody) body: z.output<typeof s.resetPasswordBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.resetPassword(body, caller);
  }

  @PostAction('send_2fa_code')
  @Public()
  @Describe('Send the two-factor code by email', SendCodeResponseSchema)
  sendTwoFactorCode(
    @ValidBody(s.challengeBody) body: z.output<typeof s.challengeBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.sendTwoFactor(body, 'code', caller);
  }

  @PostAction('send_2fa_link')
  @Public()
  @Describe('Send the two-factor link by email', SendCodeResponseSchema)
  sendTwoFactorLink(
    @ValidBody(s.twoFactorLinkBody) body: z.output<typeof s.twoFactorLinkBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.sendTwoFactor(body, 'link', caller);
  }

  @PostAction('verify_2fa_code')
  @Public()
  @Describe('Answer the two-factor challenge', SignInStepResponseSchema)
  verifyTwoFactor(
    @ValidBody(s.verifyTwoFactorBody) body: z.output<typeof s.verifyTwoFactorBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.verifyTwoFactor(body, caller);
  }

  @PostAction('exchange_token')
  @Public()
  @Describe('Exchange a sign-in grant (auth_token) for access and refresh tokens', SessionTokensSchema)
  exchangeToken(
    @ValidBody(s.exchangeTokenBody) body: z.output<typeof s.exchangeTokenBody>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.sessions.exchangeToken(body, caller);
  }

  @PostAction('refresh')
  @Public()
  @Describe('Rotate the refresh token and get a new access token', SessionTokensSchema)
  refresh(@ValidBody(s.refreshBody) body: z.output<typeof s.refreshBody>, @CurrentCaller() caller: Caller) {
    return this.sessions.refresh(body, caller);
  }

  @PostAction('sign_out')
  @Public()
  @Describe('Revoke this session (by its refresh token)', SignOutResponseSchema)
  signOut(@ValidBody(s.signOutBody) body: z.output<typeof s.signOutBody>, @CurrentCaller() caller: Caller) {
    return this.sessions.signOut(body, caller);
  }

  @PostAction('sign_out_everywhere')
  @Authenticated()
  @Describe('Revoke every session of the signed-in user', SignOutResponseSchema)
  signOutEverywhere(@CurrentCaller() caller: Caller) {
    return this.sessions.signOutEverywhere(caller);
  }
}
