import { defineEvent, defineRpc, defineSignal } from '../contract.js';
import * as drop from '../gen/portico/documents/v1/drop_links_pb.js';
import * as events from '../gen/portico/documents/v1/events_pb.js';
import * as extracted from '../gen/portico/documents/v1/extracted_pb.js';
import * as items from '../gen/portico/documents/v1/items_pb.js';
import * as uploads from '../gen/portico/documents/v1/uploads_pb.js';

/** Validation of uploads and building zips read whole objects: these answer within a minute. */
const SLOW_MS = 60_000;

/** Every request/reply subject the documents service answers. */
export const Documents = {
  getDocuments: defineRpc({
    subject: 'documents.item.list.v1',
    request: items.GetDocumentsRequestSchema,
    response: items.DocumentListSchema,
    // A lean page is JSON text of up to several megabytes.
    bodyField: 'lean_items',
  }),
  searchDocuments: defineRpc({
    subject: 'documents.item.search.v1',
    request: items.SearchDocumentsRequestSchema,
    response: items.DocumentListSchema,
  }),
  createFolder: defineRpc({
    subject: 'documents.folder.create.v1',
    request: items.CreateFolderRequestSchema,
    response: items.ItemResponseSchema,
  }),
  renameItem: defineRpc({
    subject: 'documents.item.rename.v1',
    request: items.RenameItemRequestSchema,
    response: items.ItemResponseSchema,
  }),
  moveItem: defineRpc({
    subject: 'documents.item.move.v1',
    request: items.MoveItemRequestSchema,
    response: items.ItemResponseSchema,
    timeoutMs: SLOW_MS,
  }),
  updateItem: defineRpc({
    subject: 'documents.item.update.v1',
    request: items.UpdateItemRequestSchema,
    response: items.ItemResponseSchema,
  }),
  deleteDocument: defineRpc({
    subject: 'documents.item.delete.v1',
    request: items.DeleteDocumentRequestSchema,
    response: items.MessageResponseSchema,
  }),
  deletePath: defineRpc({
    subject: 'documents.path.delete.v1',
    request: items.DeletePathRequestSchema,
    response: items.MessageResponseSchema,
  }),
  restoreDeletedDocument: defineRpc({
    subject: 'documents.item.restore.v1',
    request: items.RestoreDocumentRequestSchema,
    response: items.ItemResponseSchema,
  }),
  downloadDocument: defineRpc({
    subject: 'documents.file.download_link.v1',
    request: items.DownloadDocumentRequestSchema,
    response: items.DownloadLinkResponseSchema,
  }),
  downloadFolder: defineRpc({
    subject: 'documents.folder.download.v1',
    request: items.DownloadFolderRequestSchema,
    response: items.ZipResponseSchema,
    timeoutMs: SLOW_MS,
  }),
  downloadMultipleDocuments: defineRpc({
    subject: 'documents.file.download_multiple.v1',
    request: items.DownloadMultipleRequestSchema,
    response: items.ZipResponseSchema,
    timeoutMs: SLOW_MS,
  }),
  createUploadLinks: defineRpc({
    subject: 'documents.upload.create_links.v1',
    request: uploads.CreateUploadLinksRequestSchema,
    response: uploads.UploadLinksResponseSchema,
  }),
  processDocument: defineRpc({
    subject: 'documents.upload.process.v1',
    request: uploads.ProcessDocumentRequestSchema,
    response: uploads.ProcessDocumentResponseSchema,
    timeoutMs: SLOW_MS,
  }),
  getExtractedDocument: defineRpc({
    subject: 'documents.extracted.get.v1',
    request: extracted.ExtractedDocumentRequestSchema,
    response: extracted.ExtractedDocumentSchema,
  }),
  getAnnotations: defineRpc({
    subject: 'documents.extracted.get_annotations.v1',
    request: extracted.ExtractedDocumentRequestSchema,
    response: extracted.AnnotationsResponseSchema,
  }),
  saveAnnotations: defineRpc({
    subject: 'documents.extracted.save_annotations.v1',
    request: extracted.SaveAnnotationsRequestSchema,
    response: extracted.AnnotationsResponseSchema,
  }),
  splitDocuments: defineRpc({
    subject: 'documents.extracted.split.v1',
    request: extracted.SplitDocumentsRequestSchema,
    response: extracted.ExtractedDocumentListSchema,
    timeoutMs: SLOW_MS,
  }),
  updateDescription: defineRpc({
    subject: 'documents.extracted.update_description.v1',
    request: extracted.UpdateDescriptionRequestSchema,
    response: extracted.ExtractedDocumentSchema,
  }),
  updateTags: defineRpc({
    subject: 'documents.extracted.update_tags.v1',
    request: extracted.UpdateTagsRequestSchema,
    response: extracted.ExtractedDocumentSchema,
  }),
  updateMarkedAsOthers: defineRpc({
    subject: 'documents.extracted.update_marked_as_others.v1',
    request: extracted.UpdateMarkedAsOthersRequestSchema,
    response: extracted.ExtractedDocumentSchema,
  }),
  deleteExtractedDocument: defineRpc({
    subject: 'documents.extracted.delete.v1',
    request: extracted.ExtractedDocumentRequestSchema,
    response: items.MessageResponseSchema,
  }),
  attachToQuestionnaire: defineRpc({
    subject: 'documents.extracted.attach.v1',
    request: extracted.AttachToQuestionnaireRequestSchema,
    response: extracted.ExtractedDocumentListSchema,
  }),
  getDropLink: defineRpc({
    subject: 'documents.drop_link.get.v1',
    request: drop.GetDropLinkRequestSchema,
    response: drop.DropLinkSchema,
  }),
  saveDropLink: defineRpc({
    subject: 'documents.drop_link.save.v1',
    request: drop.SaveDropLinkRequestSchema,
    response: drop.DropLinkSchema,
  }),
  dropLinkInfo: defineRpc({
    subject: 'documents.drop_link.info.v1',
    request: drop.DropLinkInfoRequestSchema,
    response: drop.DropLinkInfoSchema,
  }),
  createDropOffLinks: defineRpc({
    subject: 'documents.drop_off.create_links.v1',
    request: drop.DropOffLinksRequestSchema,
    response: uploads.UploadLinksResponseSchema,
  }),
  processDropOff: defineRpc({
    subject: 'documents.drop_off.process.v1',
    request: drop.DropOffProcessRequestSchema,
    response: drop.DropOffProcessResponseSchema,
    timeoutMs: SLOW_MS,
  }),
  listDropOffs: defineRpc({
    subject: 'documents.drop_off.list.v1',
    request: drop.ListDropOffsRequestSchema,
    response: drop.DropOffListSchema,
  }),
  downloadDropOff: defineRpc({
    subject: 'documents.drop_off.download_link.v1',
    request: drop.DownloadDropOffRequestSchema,
    response: items.DownloadLinkResponseSchema,
  }),
  deleteDropOffs: defineRpc({
    subject: 'documents.drop_off.delete.v1',
    request: drop.DeleteDropOffsRequestSchema,
    response: drop.DeleteDropOffsResponseSchema,
  }),
} as const;

/** Domain events the documents service publishes on JetStream. */
export const DocumentsEvents = {
  uploaded: defineEvent({
    subject: 'events.documents.item.uploaded.v1',
    message: events.DocumentChangedSchema,
  }),
  created: defineEvent({
    subject: 'events.documents.item.created.v1',
    message: events.DocumentChangedSchema,
  }),
  renamed: defineEvent({
    subject: 'events.documents.item.renamed.v1',
    message: events.DocumentChangedSchema,
  }),
  moved: defineEvent({ subject: 'events.documents.item.moved.v1', message: events.DocumentChangedSchema }),
  copied: defineEvent({ subject: 'events.documents.item.copied.v1', message: events.DocumentChangedSchema }),
  updated: defineEvent({
    subject: 'events.documents.item.updated.v1',
    message: events.DocumentChangedSchema,
  }),
  deleted: defineEvent({
    subject: 'events.documents.item.deleted.v1',
    message: events.DocumentChangedSchema,
  }),
  restored: defineEvent({
    subject: 'events.documents.item.restored.v1',
    message: events.DocumentChangedSchema,
  }),
  dropOffReceived: defineEvent({
    subject: 'events.documents.drop_off.received.v1',
    message: events.DropOffReceivedSchema,
  }),
} as const;

/** Core NATS signals the documents service sends while it works (best effort, see SignalContract). */
export const DocumentsSignals = {
  zipProgress: defineSignal({
    subject: 'signals.documents.zip.progress.v1',
    message: events.ZipProgressSchema,
  }),
} as const;
