import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import {
  type FirmThemeBySlugRequest,
  Identity,
  type SetDropLinkRecipientsRequest,
  type UpdatePreferencesRequest,
} from '@portico/proto';
import { FirmsService } from './firms.service.js';

@Controller()
export class FirmsHandler {
  constructor(private readonly firms: FirmsService) {}

  @Rpc(Identity.currentFirm)
  current(@CurrentActor() actor: Actor) {
    return this.firms.current(actor);
  }

  @Rpc(Identity.firmThemeBySlug)
  themeBySlug(@Payload() req: FirmThemeBySlugRequest) {
    return this.firms.themeBySlug(req.slug);
  }

  @Rpc(Identity.updatePreferences)
  updatePreferences(@Payload() req: UpdatePreferencesRequest, @CurrentActor() actor: Actor) {
    return this.firms.updatePreferences(actor, req.preferences ?? {}, req.preferencesVersion);
  }

  @Rpc(Identity.setDropLinkRecipients)
  setDropLinkRecipients(@Payload() req: SetDropLinkRecipientsRequest, @CurrentActor() actor: Actor) {
    return this.firms.setDropLinkRecipients(actor, req.userIds);
  }
}
