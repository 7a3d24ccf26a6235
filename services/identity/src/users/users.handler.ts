import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import {
  type ConfirmEmailRequest,
  type GetUserRequest,
  Identity,
  type SetDefaultCompanyRequest,
  type UpdateProfileRequest,
} from '@portico/proto';
import { UsersService } from './users.service.js';

@Controller()
export class UsersHandler {
  constructor(private readonly users: UsersService) {}

  @Rpc(Identity.currentUser)
  current(@CurrentActor() actor: Actor) {
    return this.users.current(actor);
  }

  @Rpc(Identity.getUser)
  get(@Payload() req: GetUserRequest, @CurrentActor() actor: Actor) {
    return this.users.get(actor, req.id);
  }

  @Rpc(Identity.updateProfile)
  updateProfile(@Payload() req: UpdateProfileRequest, @CurrentActor() actor: Actor) {
    return this.users.updateProfile(actor, req);
  }

  @Rpc(Identity.confirmEmail)
  confirmEmail(@Payload() req: ConfirmEmailRequest) {
    return this.users.confirmEmail(req.token);
  }

  @Rpc(Identity.setDefaultCompany)
  setDefaultCompany(@Payload() req: SetDefaultCompanyRequest, @CurrentActor() actor: Actor) {
    return this.users.setDefaultCompany(actor, req.companyId);
  }
}
