import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CONTROL_CHARACTERS_MESSAGE } from '@portico/platform';
import {
  DeleteDropOffsResponseSchema,
  DocumentListSchema,
  Documents,
  DownloadLinkResponseSchema,
  DropLinkInfoSchema,
  DropLinkSchema,
  DropOffListSchema,
  DropOffProcessResponseSchema,
  ExtractedDocumentListSchema,
  ItemResponseSchema,
  MessageResponseSchema,
  ProcessDocumentResponseSchema,
  UploadLinksResponseSchema,
  ZipResponseSchema,
} from '@portico/proto';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Authenticated, Public, Roles } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../http/caller.js';
import { Describe, PostAction } from '../http/route.decorators.js';
import { noControl } from '../validation/fields.js';
import { ValidBody, ValidId, ValidQuery, ZodPipe } from '../validation/zod.pipe.js';
import { DocumentsClient } from './documents.client.js';
import * as s from './documents.schemas.js';

type Body<T extends z.ZodType> = z.output<T>;

/** Documents' answer for a drop link id or firm slug that names no firm. */
const DROP_LINK_INVALID = 'This drop link is not valid';

/** A drop link id in the path: opaque here, decoded and checked by documents. */
const DropLinkId = () =>
  Param(
    'id',
    new ZodPipe(
      z
        .string()
        .trim()
        .min(1, 'Drop link is missing')
        .max(2_000, DROP_LINK_INVALID)
        .refine(noControl(), CONTROL_CHARACTERS_MESSAGE),
    ),
  );

/** A firm's public slug in the path (the portal's firm on /secure-upload); documents asks identity. */
const FirmSlug = () =>
  Param(
    'slug',
    new ZodPipe(
      z
        .string()
        .trim()
        .min(1, 'Firm is missing')
        .max(100, DROP_LINK_INVALID)
        .refine(noControl(), CONTROL_CHARACTERS_MESSAGE),
    ),
  );

/** The file manager calls of spec 1 s.7.6. Uploads go straight to storage: bodies here stay small. */
@ApiTags('documents')
@Controller('integrations')
export class DocumentsController {
  constructor(@Inject(DocumentsClient) private readonly documents: DocumentsClient) {}

  @PostAction('get_documents')
  @Authenticated()
  @Describe(
    'The items of a folder (showWithDeleted: advisors). With lean: the items without link, path and ' +
      'company_id (given once) and without fields at their default (empty text, no tags, 0, false, ' +
      'preview_status none, updated_at equal to created_at)',
    DocumentListSchema,
  )
  async getDocuments(
    @ValidBody(s.getDocumentsBody) body: Body<typeof s.getDocumentsBody>,
    @CurrentCaller() c: Caller,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { lean, ...folder } = body;
    if (!lean) return this.documents.listFolder(folder, c);
    // Already JSON bytes: sent as they are.
    const json = await this.documents.listFolderLean(folder, c);
    reply.header('content-type', 'application/json; charset=utf-8');
    return json;
  }

  @PostAction('search_documents')
  @Authenticated()
  @Describe('Search a company’s files and folders by name or description', DocumentListSchema)
  search(
    @ValidBody(s.searchDocumentsBody) body: Body<typeof s.searchDocumentsBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.searchDocuments, body, c);
  }

  @PostAction('create_folder')
  @Authenticated()
  @Describe('Create a folder', ItemResponseSchema)
  createFolder(
    @ValidBody(s.createFolderBody) body: Body<typeof s.createFolderBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.createFolder, body, c);
  }

  @PostAction('rename_item')
  @Authenticated()
  @Describe('Rename a file (its extension is kept) or a folder', ItemResponseSchema)
  rename(@ValidBody(s.renameItemBody) body: Body<typeof s.renameItemBody>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.renameItem, body, c);
  }

  @PostAction('move_item')
  @Authenticated()
  @Describe('Move (deleteOldPath) or copy an item, also to another company of the firm', ItemResponseSchema)
  move(@ValidBody(s.moveItemBody) body: Body<typeof s.moveItemBody>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.moveItem, body, c);
  }

  @PostAction('update_document')
  @Roles('advisor')
  @Describe('Edit a file’s description or tags (advisors)', ItemResponseSchema)
  update(
    @ValidBody(s.updateDocumentBody) body: Body<typeof s.updateDocumentBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.updateItem, { ...body, updateTags: body.tags !== undefined }, c);
  }

  @PostAction('download_document')
  @Authenticated()
  @Describe('A short-lived link to a file (document.data.link)', DownloadLinkResponseSchema)
  download(
    @ValidBody(s.downloadDocumentBody) body: Body<typeof s.downloadDocumentBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.downloadDocument, body, c);
  }

  @PostAction('download_folder')
  @Roles('advisor')
  @Describe('A folder as a zip (503 over 150MB, or 15MB when converting images)', ZipResponseSchema)
  downloadFolder(
    @ValidBody(s.downloadFolderBody) body: Body<typeof s.downloadFolderBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.downloadFolder, body, c);
  }

  @PostAction('download_multiple_documents')
  @Authenticated()
  @Describe('Chosen files as a zip; folders are refused', ZipResponseSchema)
  downloadMultiple(
    @ValidBody(s.downloadMultipleBody) body: Body<typeof s.downloadMultipleBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.downloadMultipleDocuments, body, c);
  }

  @PostAction('delete_document')
  @Authenticated()
  @Describe('Delete a file or folder by name in a folder (soft delete)', MessageResponseSchema)
  deleteDocument(
    @ValidBody(s.deleteDocumentBody) body: Body<typeof s.deleteDocumentBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.deleteDocument, body, c);
  }

  @PostAction('delete_path')
  @Authenticated()
  @Describe('Delete an item by its full path (soft delete)', MessageResponseSchema)
  deletePath(@ValidBody(s.removePathBody) body: Body<typeof s.removePathBody>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.deletePath, body, c);
  }

  @PostAction('restore_deleted_document')
  @Roles('advisor')
  @Describe('Restore a deleted item and what was deleted with it', ItemResponseSchema)
  restore(@ValidBody(s.restoreBody) body: Body<typeof s.restoreBody>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.restoreDeletedDocument, body, c);
  }

  @PostAction('upload_links')
  @Authenticated()
  @Describe(
    'Temporary upload links: PUT each file to its url, then call process_document',
    UploadLinksResponseSchema,
  )
  uploadLinks(
    @ValidBody(s.uploadLinksBody) body: Body<typeof s.uploadLinksBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.createUploadLinks, body, c);
  }

  @PostAction('process_document')
  @Authenticated()
  @Describe(
    'Validate and file uploaded files (document_location, is_duplicate)',
    ProcessDocumentResponseSchema,
  )
  process(
    @ValidBody(s.processDocumentBody) body: Body<typeof s.processDocumentBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.processDocument, body, c);
  }

  @PostAction('attach_to_questionnaire')
  @Roles('advisor')
  @Describe('Attach extracted documents to a questionnaire', ExtractedDocumentListSchema)
  attach(@ValidBody(s.attachBody) body: Body<typeof s.attachBody>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.attachToQuestionnaire, body, c);
  }

  @Get('drop_link')
  @Roles('advisor')
  @Describe('The firm drop link and who is notified (partner, admin, full)', DropLinkSchema)
  dropLink(@CurrentCaller() c: Caller) {
    return this.documents.call(Documents.getDropLink, {}, c);
  }

  @PostAction('drop_link')
  @Roles('advisor')
  @Describe('Choose the firm users notified of drop-offs (at least one)', DropLinkSchema)
  saveDropLink(
    @ValidBody(s.saveDropLinkBody) body: Body<typeof s.saveDropLinkBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.saveDropLink, body, c);
  }

  @Get('drop_offs')
  @Roles('advisor')
  @Describe('Files dropped off through the firm drop link, newest first, a page at a time', DropOffListSchema)
  dropOffs(@ValidQuery(s.dropOffsQuery) query: Body<typeof s.dropOffsQuery>, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.listDropOffs, query, c);
  }

  @PostAction('drop_offs/delete')
  @Roles('advisor')
  @Describe('Delete received files for good (partners, admins and full users)', DeleteDropOffsResponseSchema)
  deleteDropOffs(
    @ValidBody(s.deleteDropOffsBody) body: Body<typeof s.deleteDropOffsBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.deleteDropOffs, body, c);
  }

  @Get('drop_offs/:id/download')
  @Roles('advisor')
  @Describe('A short-lived link to a dropped-off file', DownloadLinkResponseSchema)
  downloadDropOff(@ValidId() id: string, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.downloadDropOff, { id }, c);
  }

  @Get('drop_link/:id')
  @Public()
  @Describe('Public drop-off page: the firm this link drops to', DropLinkInfoSchema)
  dropLinkInfo(@DropLinkId() id: string, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.dropLinkInfo, { dropLinkId: id }, c);
  }

  @Get('secure_upload/:slug')
  @Public()
  @Describe(
    "Public secure upload page (/secure-upload): the firm of that slug and its drop link's id",
    DropLinkInfoSchema,
  )
  secureUploadInfo(@FirmSlug() slug: string, @CurrentCaller() c: Caller) {
    return this.documents.call(Documents.dropLinkInfo, { firmSlug: slug }, c);
  }

  @PostAction('drop_link/:id/upload_links')
  @Public()
  @Describe('Public drop-off: temporary upload links', UploadLinksResponseSchema)
  dropOffLinks(
    @DropLinkId() id: string,
    @ValidBody(s.dropOffLinksBody) body: Body<typeof s.dropOffLinksBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.createDropOffLinks, { ...body, dropLinkId: id }, c);
  }

  @PostAction('drop_link/:id/process')
  @Public()
  @Describe('Public drop-off: validate the uploads and notify the firm', DropOffProcessResponseSchema)
  dropOffProcess(
    @DropLinkId() id: string,
    @ValidBody(s.dropOffProcessBody) body: Body<typeof s.dropOffProcessBody>,
    @CurrentCaller() c: Caller,
  ) {
    return this.documents.call(Documents.processDropOff, { ...body, dropLinkId: id }, c);
  }
}
