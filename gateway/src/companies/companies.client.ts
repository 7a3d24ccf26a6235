import { Identity } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** Identity's company (entity) subjects. */
export class CompaniesClient {
  constructor(private readonly rpc: RpcForwarder) {}

  get = (id: string, caller: Caller) => this.rpc.call(Identity.getCompany, { id }, caller);
  update = (id: string, body: object, caller: Caller) =>
    this.rpc.call(Identity.updateCompany, { ...body, id }, caller);
  updateProfile = (id: string, body: object, caller: Caller) =>
    this.rpc.call(Identity.updateCompanyProfile, { ...body, id }, caller);
  list = (query: object, caller: Caller) => this.rpc.call(Identity.listCompanies, query, caller);
}
