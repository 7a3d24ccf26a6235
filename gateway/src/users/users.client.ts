import { Identity } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** Identity's user subjects. */
export class UsersClient {
  constructor(private readonly rpc: RpcForwarder) {}

  currentUser = (caller: Caller) => this.rpc.call(Identity.currentUser, {}, caller);
  getUser = (id: string, caller: Caller) => this.rpc.call(Identity.getUser, { id }, caller);
  updateProfile = (id: string, body: object, caller: Caller) =>
    this.rpc.call(Identity.updateProfile, { ...body, id }, caller);
  confirmEmail = (body: object, caller: Caller) => this.rpc.call(Identity.confirmEmail, body, caller);
  setDefaultCompany = (body: object, caller: Caller) =>
    this.rpc.call(Identity.setDefaultCompany, body, caller);
  setSignInMethod = (body: object, caller: Caller) => this.rpc.call(Identity.setSignInMethod, body, caller);
}
