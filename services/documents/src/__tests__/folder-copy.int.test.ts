import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';

jest.setTimeout(60_000);

/** More files than the copies kept in flight at once, in a folder and a folder inside it. */
const OUTER_FILES = 30;
const INNER_FILES = 6;

describe('copying a folder: many objects at once, and nothing left of a copy that failed', () => {
  let h: DocumentsHarness;
  let s3: S3Client;
  /** The objects of the original folder's files. */
  let originalKeys: string[];
  const actor = () => h.actorOf(h.firm, 'partner');
  const companyId = () => h.firm.companies.individual?.id as string;
  const filesPrefix = () => `firms/${h.firm.firmId}/companies/${companyId()}/files/`;
  const objectKeys = async () =>
    (
      (await s3.send(new ListObjectsV2Command({ Bucket: h.s3.bucket, Prefix: filesPrefix() }))).Contents ?? []
    ).map((o) => o.Key as string);
  const names = async (path: string) =>
    (await h.list(actor(), companyId(), path)).documents.map((d) => d.name).sort();
  const copyToRoot = (oldPath: string) =>
    h.bus.request(
      Documents.moveItem,
      { companyId: companyId(), oldPath, newPath: '', deleteOldPath: false, isFolder: true },
      { actor: actor() },
    );
  const bytesOf = async (link: string) => {
    const answer = await h.bus.request(
      Documents.downloadDocument,
      { companyId: companyId(), link, isDownload: true },
      { actor: actor() },
    );
    return Buffer.from(await (await fetch(answer.document?.data?.link as string)).arrayBuffer()).toString();
  };

  beforeAll(async () => {
    h = await startDocumentsHarness('folder_copy');
    s3 = new S3Client({
      endpoint: h.s3.endpoint,
      region: h.s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: h.s3.accessKeyId, secretAccessKey: h.s3.secretAccessKey },
    });
    const note = (folder: string, n: number) => ({
      name: `note ${n}.txt`,
      body: Buffer.from(`${folder} note ${n}\n`.repeat(n + 1)),
    });
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '', name: 'Ledgers' },
      { actor: actor() },
    );
    await h.upload(
      actor(),
      companyId(),
      Array.from({ length: OUTER_FILES }, (_, n) => note('outer', n)),
      { path: '/Ledgers' },
    );
    await h.bus.request(
      Documents.createFolder,
      { companyId: companyId(), path: '/Ledgers', name: 'Inner' },
      { actor: actor() },
    );
    await h.upload(
      actor(),
      companyId(),
      Array.from({ length: INNER_FILES }, (_, n) => note('inner', n)),
      { path: '/Ledgers/Inner' },
    );
    originalKeys = await objectKeys();
  });

  afterAll(async () => {
    s3.destroy();
    await h.stop();
  });

  it('copies every file of the folder and of the folder inside it, each with its own bytes', async () => {
    const before = (await objectKeys()).length;
    const copied = await copyToRoot('/Ledgers');
    expect(copied.document?.name).toBe('Ledgers (1)');
    expect(await names('/Ledgers (1)')).toEqual(await names('/Ledgers'));
    expect(await names('/Ledgers (1)/Inner')).toEqual(await names('/Ledgers/Inner'));
    expect((await objectKeys()).length).toBe(before + OUTER_FILES + INNER_FILES);
    for (const n of [0, 17, OUTER_FILES - 1])
      expect(await bytesOf(`/Ledgers (1)/note ${n}.txt`)).toBe(`outer note ${n}\n`.repeat(n + 1));
    expect(await bytesOf(`/Ledgers (1)/Inner/note 5.txt`)).toBe('inner note 5\n'.repeat(6));
  });

  it('fails a copy whose source lost an object, leaving neither rows nor copied objects', async () => {
    // One object of the original folder gone from the store; the others copy before that one fails.
    const victim = originalKeys[OUTER_FILES] as string;
    await s3.send(new DeleteObjectCommand({ Bucket: h.s3.bucket, Key: victim }));
    const keysLeft = (await objectKeys()).sort();
    const rootBefore = await names('');

    // The store's refusal is not the user's to read: a 500 with a trace id, logged.
    await expect(copyToRoot('/Ledgers')).rejects.toMatchObject({ status: 500 });

    expect(await names('')).toEqual(rootBefore);
    expect((await objectKeys()).sort()).toEqual(keysLeft);
  });
});
