import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, RequestHeader, Rpc } from '@portico/platform';
import {
  type DeleteDropOffsRequest,
  Documents,
  type DownloadDropOffRequest,
  type DropLinkInfoRequest,
  type DropOffLinksRequest,
  type DropOffProcessRequest,
  type ListDropOffsRequest,
  type SaveDropLinkRequest,
} from '@portico/proto';
import { CLIENT_IP_HEADER } from './caller-address.rules.js';
import { DropLinksService } from './drop-links.service.js';

@Controller()
export class DropLinksHandler {
  constructor(private readonly dropLinks: DropLinksService) {}

  @Rpc(Documents.getDropLink)
  get(@CurrentActor() actor: Actor) {
    return this.dropLinks.get(actor);
  }

  @Rpc(Documents.saveDropLink)
  save(@Payload() req: SaveDropLinkRequest, @CurrentActor() actor: Actor) {
    return this.dropLinks.save(actor, req.notifyUserIds);
  }

  /** Public: the drop-off page has no signed-in user. */
  @Rpc(Documents.dropLinkInfo)
  info(@Payload() req: DropLinkInfoRequest) {
    return this.dropLinks.info(req);
  }

  /** Public too; the caller's address (the gateway's header) counts its share of the drop link's day. */
  @Rpc(Documents.createDropOffLinks)
  createLinks(@Payload() req: DropOffLinksRequest, @RequestHeader(CLIENT_IP_HEADER) ip?: string) {
    return this.dropLinks.createLinks(req, ip);
  }

  @Rpc(Documents.processDropOff)
  process(@Payload() req: DropOffProcessRequest) {
    return this.dropLinks.process(req);
  }

  @Rpc(Documents.listDropOffs)
  list(@Payload() req: ListDropOffsRequest, @CurrentActor() actor: Actor) {
    return this.dropLinks.list(actor, req);
  }

  @Rpc(Documents.deleteDropOffs)
  delete(@Payload() req: DeleteDropOffsRequest, @CurrentActor() actor: Actor) {
    return this.dropLinks.delete(actor, req);
  }

  @Rpc(Documents.downloadDropOff)
  download(@Payload() req: DownloadDropOffRequest, @CurrentActor() actor: Actor) {
    return this.dropLinks.download(actor, req.id);
  }
}
