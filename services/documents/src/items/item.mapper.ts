import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DocumentItem, DocumentItemSchema } from '@portico/proto';
import type { ItemRow } from '../schema.js';
import type { ListedRow } from './items.repository.js';
import { isStaffOnly, joinPath } from './paths.rules.js';

export type DocumentItemInit = MessageInitShape<typeof DocumentItemSchema>;

/** A stored item as the contract's DocumentItem. */
export function toDocumentItem(row: ItemRow, itemsCount = 0): DocumentItemInit {
  return listedToDocumentItem(
    row.companyId,
    {
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      deletedAt: row.deletedAt?.toISOString() ?? '',
    },
    itemsCount,
  );
}

export type { DocumentItem };

/** A row read by a listing (timestamps already ISO text) as the contract's DocumentItem. */
export function listedToDocumentItem(
  companyId: string,
  row: Omit<ListedRow, 'cursorCreatedAt'>,
  itemsCount: number,
): DocumentItemInit {
  const link = joinPath(row.folder, row.name);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    link,
    path: row.folder || '/',
    description: row.description,
    tags: row.tags,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    questionnaireId: row.questionnaireId,
    extractedDocumentId: row.extractedDocumentId ?? '',
    parentDocumentId: row.parentDocumentId ?? '',
    itemsCount,
    companyId,
    size: BigInt(row.size),
    contentType: row.contentType,
    isProtected: row.isProtected,
    staffOnly: isStaffOnly(link),
    isSystem: row.isSystem,
    previewStatus: row.previewStatus,
    uploadType: row.uploadType,
  };
}
