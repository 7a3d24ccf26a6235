import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DocumentItem, DocumentItemSchema } from '@portico/proto';
import type { ItemRow } from '../schema.js';
import type { ListedRow } from './items.repository.js';
import { isStaffOnly, joinPath } from './paths.rules.js';

export type DocumentItemInit = MessageInitShape<typeof DocumentItemSchema>;

/** A stored item as the contract's DocumentItem; for a client, without the advisors' fields. */
export function toDocumentItem(row: ItemRow, forClient: boolean): DocumentItemInit {
  return listedToDocumentItem(
    row.companyId,
    {
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      deletedAt: row.deletedAt?.toISOString() ?? '',
    },
    0,
    forClient,
  );
}

export type { DocumentItem };

/**
 * A row read by a listing (timestamps already ISO text) as the contract's DocumentItem. Descriptions and
 * tags are advisor-only (spec 1 s.2.7): a client's answer leaves them out.
 */
export function listedToDocumentItem(
  companyId: string,
  row: Omit<ListedRow, 'cursorCreatedAt'>,
  itemsCount: number,
  forClient: boolean,
): DocumentItemInit {
  const link = joinPath(row.folder, row.name);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    link,
    path: row.folder || '/',
    description: forClient ? '' : row.description,
    tags: forClient ? [] : row.tags,
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
