import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@portico/platform';
import { type RunningS3, startS3Server } from '@portico/platform/testing';
import { startExportsExpiry } from '../exports/exports-expiry.js';
import { EXPORTS_PREFIX, StorageKeys } from '../storage/object-store.js';
import { S3ObjectStore } from '../storage/s3.object-store.js';

// Zip exports expire after a day: by a bucket lifecycle rule where the store takes one, otherwise by
// the service's own sweep. s3rver takes no lifecycle rule, so the sweep is what runs here.
describe('zip exports expiry', () => {
  let s3: RunningS3;
  let store: S3ObjectStore;
  const firm = '0e3f7a52-0000-4000-8000-000000000001';
  const company = '0e3f7a52-0000-4000-8000-000000000002';

  beforeAll(async () => {
    s3 = await startS3Server();
    store = new S3ObjectStore({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
  });
  afterAll(async () => {
    store.destroy();
    await s3.stop();
  });

  it('keeps zips under the one exports/ prefix a lifecycle rule can name', () => {
    expect(StorageKeys.zip(firm, company, 'z1')).toBe(`exports/firms/${firm}/companies/${company}/z1.zip`);
  });

  it('reports that s3rver refuses the lifecycle rule instead of failing', async () => {
    const rule = await store.expireAfter(EXPORTS_PREFIX, 1);
    expect(rule.applied).toBe(false);
    expect(rule.reason).toMatch(/NotImplemented/);
  });

  it('falls back to sweeping: deletes exports older than their lifetime and nothing else', async () => {
    const zip = StorageKeys.zip(firm, company, 'old');
    const file = StorageKeys.file(firm, company, 'kept');
    await store.put(zip, Buffer.from('zip'), 'application/zip');
    await store.put(file, Buffer.from('file'), 'application/pdf');
    const notices: string[] = [];
    const log = createLogger('documents-test', 'info');
    const info = log.info.bind(log);
    log.info = ((...args: Parameters<typeof info>) => {
      notices.push(String(args.find((a) => typeof a === 'string')));
      return info(...args);
    }) as typeof log.info;

    // A fresh export survives a sweep with the real lifetime.
    const running = await startExportsExpiry(store, log, { ttlHours: 24 });
    expect(running.mode).toBe('sweeper');
    await running.stop();
    expect(notices.some((n) => /did not take a lifecycle rule/.test(n))).toBe(true);
    expect(await store.head(zip)).toBeDefined();

    // Once older than the cutoff, the sweep deletes it and leaves the company's files alone.
    expect(await store.deleteOlderThan(EXPORTS_PREFIX, new Date(Date.now() + 60_000))).toBe(1);
    expect(await store.head(zip)).toBeUndefined();
    expect(await store.head(file)).toBeDefined();
  });
});
