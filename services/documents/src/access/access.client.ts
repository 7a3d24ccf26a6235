import { Inject, Injectable } from '@nestjs/common';
import type { Actor, BusClient } from '@portico/platform';
import { type CompanyAccess, Identity } from '@portico/proto';
import { BUS } from '../tokens.js';

/**
 * Identity owns companies, users and firm preferences; documents asks it on each call (one NATS round
 * trip, about a quarter of a millisecond) instead of keeping a copy that could lag behind a flag change.
 */
@Injectable()
export class AccessClient {
  constructor(@Inject(BUS) private readonly bus: BusClient) {}

  /** 404 when the actor may not see the company (another firm, not theirs, inactive for a client). */
  company(actor: Actor, companyId: string): Promise<CompanyAccess> {
    return this.bus.request(Identity.companyAccess, { companyId }, { actor });
  }

  firmContacts(request: { firmId?: string; slug?: string; userIds?: string[] }) {
    return this.bus.request(Identity.firmContacts, request);
  }

  /** The firm preference naming who is emailed of drop-offs; identity checks the actor and the users. */
  setDropLinkRecipients(actor: Actor, userIds: string[]) {
    return this.bus.request(Identity.setDropLinkRecipients, { userIds }, { actor });
  }
}
