import type { Actor } from '@portico/platform';
import { recordEvent } from '@portico/platform';
import { DocumentsEvents } from '@portico/proto';
import type { ItemRow } from '../schema.js';
import type { DocTx } from './items.repository.js';
import { joinPath } from './paths.rules.js';

type Kind = Exclude<keyof typeof DocumentsEvents, 'dropOffReceived'>;

/** Records a tree change in the outbox, in the caller's transaction. */
export function recordItemEvent(
  tx: DocTx,
  kind: Kind,
  actor: Actor | undefined,
  item: ItemRow,
  extra: { newPath?: string; newCompanyId?: string; names?: string[] } = {},
) {
  return recordEvent(tx, DocumentsEvents[kind], {
    firmId: item.firmId,
    companyId: item.companyId,
    actorUserId: actor?.user_id ?? '',
    itemType: item.type,
    path: joinPath(item.folder, item.name),
    newPath: extra.newPath ?? '',
    newCompanyId: extra.newCompanyId ?? '',
    names: extra.names ?? [item.name],
    uploadType: item.uploadType,
    occurredAt: new Date().toISOString(),
  });
}
