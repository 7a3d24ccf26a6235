import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type Actor, CurrentActor, Rpc } from '@portico/platform';
import {
  type CreateFolderRequest,
  type DeleteDocumentRequest,
  type DeletePathRequest,
  Documents,
  type DownloadDocumentRequest,
  type DownloadFolderRequest,
  type DownloadMultipleRequest,
  type GetDocumentsRequest,
  type MoveItemRequest,
  type RenameItemRequest,
  type RestoreDocumentRequest,
  type SearchDocumentsRequest,
  type UpdateItemRequest,
} from '@portico/proto';
import { DownloadsService } from '../downloads/downloads.service.js';
import { ItemsService } from './items.service.js';

@Controller()
export class ItemsHandler {
  constructor(
    private readonly items: ItemsService,
    private readonly downloads: DownloadsService,
  ) {}

  @Rpc(Documents.getDocuments)
  list(@Payload() req: GetDocumentsRequest, @CurrentActor() actor: Actor) {
    return this.items.list(actor, req);
  }

  @Rpc(Documents.searchDocuments)
  search(@Payload() req: SearchDocumentsRequest, @CurrentActor() actor: Actor) {
    return this.items.search(actor, req);
  }

  @Rpc(Documents.createFolder)
  createFolder(@Payload() req: CreateFolderRequest, @CurrentActor() actor: Actor) {
    return this.items.createFolder(actor, req);
  }

  @Rpc(Documents.renameItem)
  rename(@Payload() req: RenameItemRequest, @CurrentActor() actor: Actor) {
    return this.items.rename(actor, req);
  }

  @Rpc(Documents.moveItem)
  move(@Payload() req: MoveItemRequest, @CurrentActor() actor: Actor) {
    return this.items.move(actor, req);
  }

  @Rpc(Documents.updateItem)
  update(@Payload() req: UpdateItemRequest, @CurrentActor() actor: Actor) {
    return this.items.update(actor, req);
  }

  @Rpc(Documents.deleteDocument)
  deleteDocument(@Payload() req: DeleteDocumentRequest, @CurrentActor() actor: Actor) {
    return this.items.deleteDocument(actor, req);
  }

  @Rpc(Documents.deletePath)
  deletePath(@Payload() req: DeletePathRequest, @CurrentActor() actor: Actor) {
    return this.items.deletePath(actor, req.companyId, req.path);
  }

  @Rpc(Documents.restoreDeletedDocument)
  restore(@Payload() req: RestoreDocumentRequest, @CurrentActor() actor: Actor) {
    return this.items.restore(actor, req);
  }

  @Rpc(Documents.downloadDocument)
  download(@Payload() req: DownloadDocumentRequest, @CurrentActor() actor: Actor) {
    return this.downloads.link(actor, req);
  }

  @Rpc(Documents.downloadFolder)
  downloadFolder(@Payload() req: DownloadFolderRequest, @CurrentActor() actor: Actor) {
    return this.downloads.folder(actor, req);
  }

  @Rpc(Documents.downloadMultipleDocuments)
  downloadMultiple(@Payload() req: DownloadMultipleRequest, @CurrentActor() actor: Actor) {
    return this.downloads.multiple(actor, req);
  }
}
