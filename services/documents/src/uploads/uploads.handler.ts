import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import { type CreateUploadLinksRequest, Documents, type ProcessDocumentRequest } from '@portico/proto';
import { UploadsService } from './uploads.service.js';

@Controller()
export class UploadsHandler {
  constructor(private readonly uploads: UploadsService) {}

  @Rpc(Documents.createUploadLinks)
  createLinks(@Payload() req: CreateUploadLinksRequest, @CurrentActor() actor: Actor) {
    return this.uploads.createLinks(actor, req);
  }

  @Rpc(Documents.processDocument)
  process(@Payload() req: ProcessDocumentRequest, @CurrentActor() actor: Actor) {
    return this.uploads.process(actor, req);
  }
}
