import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import {
  type GetCompanyRequest,
  Identity,
  type ListCompaniesRequest,
  type UpdateCompanyRequest,
} from '@portico/proto';
import { CompaniesService } from './companies.service.js';

@Controller()
export class CompaniesHandler {
  constructor(private readonly companies: CompaniesService) {}

  @Rpc(Identity.getCompany)
  get(@Payload() req: GetCompanyRequest, @CurrentActor() actor: Actor) {
    return this.companies.get(actor, req.id);
  }

  @Rpc(Identity.updateCompany)
  update(@Payload() req: UpdateCompanyRequest, @CurrentActor() actor: Actor) {
    return this.companies.update(actor, req);
  }

  @Rpc(Identity.updateCompanyProfile)
  updateProfile(@Payload() req: UpdateCompanyRequest, @CurrentActor() actor: Actor) {
    return this.companies.updateProfile(actor, req);
  }

  @Rpc(Identity.listCompanies)
  list(@Payload() req: ListCompaniesRequest, @CurrentActor() actor: Actor) {
    return this.companies.list(actor, req);
  }
}
