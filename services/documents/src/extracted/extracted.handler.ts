import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import {
  type AttachToQuestionnaireRequest,
  Documents,
  type ExtractedDocumentRequest,
  type SaveAnnotationsRequest,
  type SplitDocumentsRequest,
  type UpdateDescriptionRequest,
  type UpdateMarkedAsOthersRequest,
  type UpdateTagsRequest,
} from '@portico/proto';
import { ExtractedService } from './extracted.service.js';

@Controller()
export class ExtractedHandler {
  constructor(private readonly extracted: ExtractedService) {}

  @Rpc(Documents.getExtractedDocument)
  get(@Payload() req: ExtractedDocumentRequest, @CurrentActor() actor: Actor) {
    return this.extracted.get(actor, req);
  }

  @Rpc(Documents.getAnnotations)
  getAnnotations(@Payload() req: ExtractedDocumentRequest, @CurrentActor() actor: Actor) {
    return this.extracted.getAnnotations(actor, req);
  }

  @Rpc(Documents.saveAnnotations)
  saveAnnotations(@Payload() req: SaveAnnotationsRequest, @CurrentActor() actor: Actor) {
    return this.extracted.saveAnnotations(actor, req);
  }

  @Rpc(Documents.splitDocuments)
  split(@Payload() req: SplitDocumentsRequest, @CurrentActor() actor: Actor) {
    return this.extracted.split(actor, req);
  }

  @Rpc(Documents.updateDescription)
  updateDescription(@Payload() req: UpdateDescriptionRequest, @CurrentActor() actor: Actor) {
    return this.extracted.updateDescription(actor, req);
  }

  @Rpc(Documents.updateTags)
  updateTags(@Payload() req: UpdateTagsRequest, @CurrentActor() actor: Actor) {
    return this.extracted.updateTags(actor, req);
  }

  @Rpc(Documents.updateMarkedAsOthers)
  updateMarkedAsOthers(@Payload() req: UpdateMarkedAsOthersRequest, @CurrentActor() actor: Actor) {
    return this.extracted.updateMarkedAsOthers(actor, req);
  }

  @Rpc(Documents.deleteExtractedDocument)
  delete(@Payload() req: ExtractedDocumentRequest, @CurrentActor() actor: Actor) {
    return this.extracted.delete(actor, req);
  }

  @Rpc(Documents.attachToQuestionnaire)
  attach(@Payload() req: AttachToQuestionnaireRequest, @CurrentActor() actor: Actor) {
    return this.extracted.attach(actor, req);
  }
}
