import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import { type CompanyAccessRequest, type FirmContactsRequest, Identity } from '@portico/proto';
import { AccessService } from './access.service.js';

@Controller()
export class AccessHandler {
  constructor(private readonly access: AccessService) {}

  @Rpc(Identity.companyAccess)
  companyAccess(@Payload() req: CompanyAccessRequest, @CurrentActor() actor: Actor) {
    return this.access.companyAccess(actor, req.companyId);
  }

  @Rpc(Identity.firmContacts)
  firmContacts(@Payload() req: FirmContactsRequest) {
    return this.access.firmContacts(req);
  }
}
