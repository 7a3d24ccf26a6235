import type { DescMessage } from '@bufbuild/protobuf';
import { withDeadline } from '@portico/platform';
import { type DocumentColumns, Documents, type RpcContract } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** A listing page as large as the documents service allows; it also stops early by size. */
const LIST_PAGE_SIZE = 5_000;

/** The documents service's subjects: each route maps its validated body onto one contract. */
export class DocumentsClient {
  constructor(private readonly rpc: RpcForwarder) {}

  call = <Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    body: object,
    caller: Caller,
  ) => this.rpc.call(contract, body, caller);

  /**
   * A whole folder for get_documents: the service answers it a page at a time in columns (a large
   * folder would not fit one bus message, and columns cost a fraction to decode); the items are
   * answered in the spec's Document item shape, in the service's order.
   */
  listFolder(body: { companyId: string; path: string; showWithDeleted: boolean }, caller: Caller) {
    return this.withinOneTimeout(() => this.readFolder(body, caller));
  }

  /**
   * A whole folder is read within one call's time, not one per page: each page's call is given what is
   * left, and the caller hears 504 once it has run out (a folder of many slow pages, or a service that
   * kept answering another page token, ran past the edge's own timeout, or for ever).
   */
  private withinOneTimeout<T>(work: () => Promise<T>): Promise<T> {
    return withDeadline(Date.now() + this.rpc.timeoutFor(Documents.getDocuments), work);
  }

  private async readFolder(
    body: { companyId: string; path: string; showWithDeleted: boolean },
    caller: Caller,
  ) {
    const documents: Record<string, unknown>[] = [];
    let path = '/';
    let pageToken = '';
    do {
      const page = await this.rpc.message(
        Documents.getDocuments,
        { ...body, pageSize: LIST_PAGE_SIZE, pageToken, columnar: true },
        caller,
      );
      path = page.path;
      if (page.columns) appendItems(documents, page.columns, path);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return { documents, path, count: documents.length };
  }

  /**
   * A whole folder in the file manager's lean shape, as the bytes of a JSON text: the service answers
   * each page's items already as JSON (built by PostgreSQL) in the reply's body, and they are joined here
   * without being decoded, parsed or encoded again. Access is checked by the service on every page.
   */
  listFolderLean(
    body: { companyId: string; path: string; showWithDeleted: boolean },
    caller: Caller,
  ): Promise<Buffer> {
    return this.withinOneTimeout(() => this.readFolderLean(body, caller));
  }

  private async readFolderLean(
    body: { companyId: string; path: string; showWithDeleted: boolean },
    caller: Caller,
  ): Promise<Buffer> {
    const parts: Uint8Array[] = [Buffer.from('{"documents":[')];
    let count = 0;
    let path = '/';
    let pageToken = '';
    do {
      const page = await this.rpc.messageWithBody(
        Documents.getDocuments,
        // No page size: each page as large as the bus carries (one page up to tens of thousands of items).
        { ...body, pageSize: 0, pageToken, lean: true },
        caller,
      );
      path = page.message.path;
      if (page.body.length) {
        if (count) parts.push(Buffer.from(','));
        parts.push(page.body);
      }
      count += page.message.count;
      pageToken = page.message.nextPageToken;
    } while (pageToken);
    parts.push(
      Buffer.from(
        `],"path":${JSON.stringify(path)},"count":${count},"company_id":${JSON.stringify(body.companyId)},"lean":true}`,
      ),
    );
    return Buffer.concat(parts);
  }
}

/** Columns back to Document items with every field, as the other documents routes answer them. */
function appendItems(out: Record<string, unknown>[], c: DocumentColumns, path: string) {
  const tags = new Map<number, string[]>();
  c.taggedIndex.forEach((index, k) => {
    tags.set(index, c.tagged[k]?.tags ?? []);
  });
  const folder = path === '/' ? '' : path;
  for (let i = 0; i < c.id.length; i++) {
    const name = c.name[i] as string;
    out.push({
      id: c.id[i],
      name,
      type: c.type[i],
      link: `${folder}/${name}`,
      description: c.description[i],
      tags: tags.get(i) ?? [],
      created_at: c.createdAt[i],
      updated_at: c.updatedAt[i],
      deleted_at: c.deletedAt[i],
      questionnaire_id: c.questionnaireId[i],
      extracted_document_id: c.extractedDocumentId[i],
      parent_document_id: c.parentDocumentId[i],
      items_count: c.itemsCount[i],
      company_id: c.companyId,
      size: String(c.size[i] ?? 0),
      content_type: c.contentType[i],
      is_protected: c.isProtected[i],
      staff_only: c.staffOnly[i],
      is_system: c.isSystem[i],
      path,
      preview_status: c.previewStatus[i],
      upload_type: c.uploadType[i],
    });
  }
}
