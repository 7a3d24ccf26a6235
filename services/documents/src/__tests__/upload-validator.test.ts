import { describe, expect, it } from '@jest/globals';
import type { ObjectStore } from '../storage/object-store.js';
import { UploadValidator } from '../uploads/upload-validator.js';

/** One stored object, and how many times it was read whole. */
function storeOf(bytes: Buffer) {
  const reads = { whole: 0 };
  const store = {
    inspect: async (_key: string, o: { firstBytes: number }) => ({
      size: bytes.length,
      bytes: bytes.subarray(0, o.firstBytes),
    }),
    readRange: async (_key: string, offset: number, length: number) =>
      bytes.subarray(offset, offset + length),
    read: async () => {
      reads.whole += 1;
      return bytes;
    },
  } as unknown as ObjectStore;
  return { store, reads };
}

describe('the upload check of a PDF whose trailer does not decide', () => {
  // A PDF by its first bytes, with no startxref: the trailer cannot say whether it is encrypted.
  const undecided = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20_000, 'x')]);
  const upload = { storageKey: 'k' };

  it('reads the file whole to decide, for the firm and its clients', async () => {
    const { store, reads } = storeOf(undecided);
    const checked = await new UploadValidator(store).check(upload, 'return.pdf');
    expect(checked).toMatchObject({ valid: true, isProtected: true });
    expect(reads.whole).toBe(1);
  });

  it('never reads it whole for an anonymous uploader, and takes it as not protected', async () => {
    const { store, reads } = storeOf(undecided);
    const checked = await new UploadValidator(store).check(upload, 'return.pdf', { neverWhole: true });
    expect(checked).toMatchObject({ valid: true, isProtected: false });
    expect(reads.whole).toBe(0);
  });
});
