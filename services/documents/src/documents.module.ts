import type { DynamicModule } from '@nestjs/common';
import type { ServiceResources } from '@portico/platform';
import { AccessClient } from './access/access.client.js';
import type { DocumentsConfig } from './config.js';
import { DownloadsService } from './downloads/downloads.service.js';
import { DropLinksHandler } from './drop-links/drop-links.handler.js';
import { DropLinksRepository } from './drop-links/drop-links.repository.js';
import { DropLinksService } from './drop-links/drop-links.service.js';
import { DropOffNotifier } from './drop-links/drop-off-notifier.js';
import { ExtractedHandler } from './extracted/extracted.handler.js';
import { ExtractedRepository } from './extracted/extracted.repository.js';
import { ExtractedService } from './extracted/extracted.service.js';
import { ItemsHandler } from './items/items.handler.js';
import { ItemsRepository } from './items/items.repository.js';
import { ItemsService } from './items/items.service.js';
import { HeicConverter } from './previews/heic.converter.js';
import type { DocumentsSchema } from './schema.js';
import type { ObjectStore } from './storage/object-store.js';
import { BUS, CONFIG, DB, LOG, OBJECT_STORE } from './tokens.js';
import { UploadValidator } from './uploads/upload-validator.js';
import { UploadsHandler } from './uploads/uploads.handler.js';
import { UploadsRepository } from './uploads/uploads.repository.js';
import { UploadsService } from './uploads/uploads.service.js';

export class DocumentsModule {
  static create(
    resources: ServiceResources<DocumentsSchema>,
    config: DocumentsConfig,
    store: ObjectStore,
  ): DynamicModule {
    return {
      module: DocumentsModule,
      controllers: [ItemsHandler, UploadsHandler, ExtractedHandler, DropLinksHandler],
      providers: [
        { provide: DB, useValue: resources.database.db },
        { provide: BUS, useValue: resources.bus },
        { provide: LOG, useValue: resources.log },
        { provide: CONFIG, useValue: config },
        { provide: OBJECT_STORE, useValue: store },
        AccessClient,
        ItemsRepository,
        UploadsRepository,
        ExtractedRepository,
        DropLinksRepository,
        HeicConverter,
        UploadValidator,
        ItemsService,
        DownloadsService,
        UploadsService,
        ExtractedService,
        DropLinksService,
        DropOffNotifier,
      ],
    };
  }
}
