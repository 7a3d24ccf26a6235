import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AnnotationsResponseSchema,
  Documents,
  ExtractedDocumentListSchema,
  ExtractedDocumentSchema,
  MessageResponseSchema,
} from '@portico/proto';
import type { z } from 'zod';
import { Authenticated, Roles } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { ValidBody, ValidId, ValidQuery } from '../validation/zod.pipe.js';
import { DocumentsClient } from './documents.client.js';
import * as s from './documents.schemas.js';

type Body<T extends z.ZodType> = z.output<T>;

/** Extracted documents (spec 1 s.7.6): /extracted_documents/{id}/... */
@ApiTags('documents')
@Controller('extracted_documents')
export class ExtractedDocumentsController {
  constructor(@Inject(DocumentsClient) private readonly documents: DocumentsClient) {}

  @Get(':id')
  @Authenticated()
  @Describe('An extracted document', ExtractedDocumentSchema)
  get(
    @ValidId() id: string,
    @ValidQuery(s.companyQuery) q: Body<typeof s.companyQuery>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.getExtractedDocument, { id, companyId: q.company_id }, c);
  }

  @PostAction(':id/get_annotations')
  @Authenticated()
  @Describe('Its annotations', AnnotationsResponseSchema)
  getAnnotations(
    @ValidId() id: string,
    @ValidBody(s.optionalCompany) b: Body<typeof s.optionalCompany>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.getAnnotations, { id, companyId: b.company_id }, c);
  }

  @PostAction(':id/save_annotations')
  @Roles('advisor')
  @Describe('Save the whole annotation list (annotation_enabled)', AnnotationsResponseSchema)
  saveAnnotations(
    @ValidId() id: string,
    @ValidBody(s.saveAnnotationsBody) b: Body<typeof s.saveAnnotationsBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(
      Documents.saveAnnotations,
      { id, companyId: b.company_id, annotations: b.annotations },
      c,
    );
  }

  @PostAction(':id/split_documents')
  @Roles('advisor')
  @Describe('Split a PDF by page ranges (bulk_upload_processor)', ExtractedDocumentListSchema)
  split(
    @ValidId() id: string,
    @ValidBody(s.splitBody) b: Body<typeof s.splitBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.splitDocuments, { ...b, id }, c);
  }

  @PostAction(':id/update_description')
  @Roles('advisor')
  @Describe('Edit the description', ExtractedDocumentSchema)
  updateDescription(
    @ValidId() id: string,
    @ValidBody(s.updateDescriptionBody) b: Body<typeof s.updateDescriptionBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.updateDescription, { ...b, extractedDocumentId: id }, c);
  }

  @PostAction(':id/update_tags')
  @Roles('advisor')
  @Describe('Edit the tags (document_tags_enabled)', ExtractedDocumentSchema)
  updateTags(
    @ValidId() id: string,
    @ValidBody(s.updateTagsBody) b: Body<typeof s.updateTagsBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.updateTags, { ...b, extractedDocumentId: id }, c);
  }

  @PostAction(':id/update_marked_as_others')
  @Authenticated()
  @Describe('Mark or unmark as Additional Attachments', ExtractedDocumentSchema)
  updateMarkedAsOthers(
    @ValidId() id: string,
    @ValidBody(s.updateMarkedAsOthersBody) b: Body<typeof s.updateMarkedAsOthersBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.updateMarkedAsOthers, { ...b, extractedDocumentId: id }, c);
  }

  @Get(':id/delete_extracted_document')
  @Authenticated()
  @Describe('Remove the extracted document and its file', MessageResponseSchema)
  delete(
    @ValidId() id: string,
    @ValidQuery(s.optionalCompany) q: Body<typeof s.optionalCompany>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.deleteExtractedDocument, { id, companyId: q.company_id }, c);
  }
}
