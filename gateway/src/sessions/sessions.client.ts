import { Identity } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** The sign-in subjects of identity, called with the caller's address for identity's own limits. */
export class SessionsClient {
  constructor(private readonly rpc: RpcForwarder) {}

  lookupEmail = (body: object, caller: Caller) => this.rpc.call(Identity.lookupEmail, body, caller);
  verifyPassword = (body: object, caller: Caller) => this.rpc.call(Identity.verifyPassword, body, caller);
  sendEmailCode = (body: object, caller: Caller) => this.rpc.call(Identity.sendEmailCode, body, caller);
  sendSmsCode = (body: object, caller: Caller) => this.rpc.call(Identity.sendSmsCode, body, caller);
  verifyCode = (body: object, caller: Caller) => this.rpc.call(Identity.verifyCode, body, caller);
  sendAuthLink = (body: object, caller: Caller) => this.rpc.call(Identity.sendAuthLink, body, caller);
  verifyAuthLink = (body: object, caller: Caller) => this.rpc.call(Identity.verifyAuthLink, body, caller);
  forgotPassword = (body: object, caller: Caller) => this.rpc.call(Identity.forgotPassword, body, caller);
  resetPassword = (body: object, caller: Caller) => this.rpc.call(Identity.resetPassword, body, caller);
  sendTwoFactor = (body: object, delivery: 'code' | 'link', caller: Caller) =>
    this.rpc.call(Identity.sendTwoFactor, { ...body, delivery }, caller);
  verifyTwoFactor = (body: object, caller: Caller) => this.rpc.call(Identity.verifyTwoFactor, body, caller);
  exchangeToken = (body: object, caller: Caller) =>
    this.rpc.call(Identity.exchangeToken, { ...body, ip: caller.ip, user_agent: caller.userAgent }, caller);
  refresh = (body: object, caller: Caller) => this.rpc.call(Identity.refresh, body, caller);
  signOut = (body: object, caller: Caller) => this.rpc.call(Identity.signOut, body, caller);
  signOutEverywhere = (caller: Caller) => this.rpc.call(Identity.signOutEverywhere, {}, caller);
}
