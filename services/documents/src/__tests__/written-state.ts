import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { DocumentsHarness } from './harness.js';

/** What a firm (or one of its companies) holds: every row of the tree, extracted documents, uploads and objects. */
export interface WrittenState {
  items: unknown[];
  extracted: unknown[];
  uploads: unknown[];
  objects: string[];
}

/**
 * Reads everything a documents call could write for a firm, to prove a refused call wrote nothing:
 * the rows whole (timestamps included, so an update of the same value shows) and the objects' keys,
 * the files' and the zips'.
 */
export function writtenState(h: DocumentsHarness) {
  const s3 = new S3Client({
    endpoint: h.s3.endpoint,
    region: h.s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: h.s3.accessKeyId, secretAccessKey: h.s3.secretAccessKey },
  });
  const keys = async (prefix: string) => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: h.s3.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      found.push(...(page.Contents ?? []).map((o) => o.Key as string));
      token = page.NextContinuationToken;
    } while (token);
    return found.sort();
  };
  return {
    async of(firmId: string, companyId?: string): Promise<WrittenState> {
      const rows = (table: string) =>
        h.documents
          .query<{ rows: unknown[] }>(
            `select coalesce(json_agg(t order by t.id), '[]'::json) as rows from ${table} t
             where t.firm_id = $1 and ($2::uuid is null or t.company_id = $2::uuid)`,
            [firmId, companyId ?? null],
          )
          .then((r) => r[0]?.rows ?? []);
      const place = companyId ? `firms/${firmId}/companies/${companyId}/` : `firms/${firmId}/`;
      return {
        items: await rows('items'),
        extracted: await rows('extracted_documents'),
        uploads: await rows('uploads'),
        objects: [...(await keys(place)), ...(await keys(`exports/${place}`))],
      };
    },
    close: () => s3.destroy(),
  };
}

/** 'done', or a refusal's status and message. */
export const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'done' as const,
    (err: { status: number; message: string }) => [err.status, err.message] as const,
  );
