import { Identity } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** Identity's firm subjects. */
export class FirmsClient {
  constructor(private readonly rpc: RpcForwarder) {}

  current = (caller: Caller) => this.rpc.call(Identity.currentFirm, {}, caller);
  themeBySlug = (query: object, caller: Caller) => this.rpc.call(Identity.firmThemeBySlug, query, caller);
  updatePreferences = (body: object, caller: Caller) =>
    this.rpc.call(Identity.updatePreferences, body, caller);
}
