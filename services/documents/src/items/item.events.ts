import { randomUUID } from 'node:crypto';
import { create, toJson } from '@bufbuild/protobuf';
import type { Actor } from '@portico/platform';
import { injectTraceContext, outboxEvents, recordEvent, WIRE_JSON } from '@portico/platform';
import { DocumentsEvents } from '@portico/proto';
import type { ItemRow } from '../schema.js';
import type { DocTx } from './items.repository.js';
import { joinPath } from './paths.rules.js';

type Kind = Exclude<keyof typeof DocumentsEvents, 'dropOffReceived'>;

/** Records a tree change in the outbox, in the caller's transaction. */
type EventItem = Pick<ItemRow, 'firmId' | 'companyId' | 'type' | 'folder' | 'name' | 'uploadType'>;

const payloadOf = (
  actor: Actor | undefined,
  item: EventItem,
  extra: { newPath?: string; newCompanyId?: string; names?: string[] },
) => ({
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

/** One event per item of a batch, written to the outbox in one statement of the caller's transaction. */
export async function recordItemEvents(tx: DocTx, kind: Kind, actor: Actor | undefined, list: EventItem[]) {
  if (!list.length) return;
  const contract = DocumentsEvents[kind];
  const headers = injectTraceContext({});
  await tx.insert(outboxEvents).values(
    list.map((item) => {
      const id = randomUUID();
      const message = create(contract.message, { ...payloadOf(actor, item, {}), eventId: id });
      return {
        id,
        subject: contract.subject,
        payload: toJson(contract.message, message, WIRE_JSON),
        headers,
      };
    }),
  );
}

export function recordItemEvent(
  tx: DocTx,
  kind: Kind,
  actor: Actor | undefined,
  item: ItemRow,
  extra: { newPath?: string; newCompanyId?: string; names?: string[] } = {},
) {
  return recordEvent(tx, DocumentsEvents[kind], payloadOf(actor, item, extra));
}
