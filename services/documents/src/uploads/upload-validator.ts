import { Inject, Injectable } from '@nestjs/common';
import { PDFDocument } from 'pdf-lib';
import type { UploadRow } from '../schema.js';
import type { ObjectStore } from '../storage/object-store.js';
import { OBJECT_STORE } from '../tokens.js';
import {
  checkedTypeOf,
  contentTypeOf,
  isValidUpload,
  MAX_FILE_BYTES,
  SNIFF_BYTES,
} from './file-type.rules.js';

export type Checked =
  | { valid: true; size: number; contentType: string; isProtected: boolean; pageCount: number }
  | { valid: false; reason: 'missing' | 'too_large' | 'type' };

/** True when pdf-lib cannot open the bytes without a password (or at all): flagged protected. */
export async function pdfInfo(bytes: Buffer): Promise<{ isProtected: boolean; pageCount: number }> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return { isProtected: false, pageCount: pdf.getPageCount() };
  } catch {
    return { isProtected: true, pageCount: 0 };
  }
}

/**
 * The checks of spec 1 s.5.5 on an object the browser uploaded: size, first bytes, PDF encryption.
 * One read per file: the whole object for a PDF (it is opened), the first bytes otherwise.
 */
@Injectable()
export class UploadValidator {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  async check(upload: Pick<UploadRow, 'storageKey'>, name: string): Promise<Checked> {
    const pdf = checkedTypeOf(name) === 'pdf';
    const object = await this.store.inspect(upload.storageKey, {
      firstBytes: SNIFF_BYTES,
      whole: pdf,
      maxBytes: MAX_FILE_BYTES,
    });
    if (!object) return { valid: false, reason: 'missing' };
    if (object.size > MAX_FILE_BYTES) return { valid: false, reason: 'too_large' };
    if (!isValidUpload(name, object.bytes.subarray(0, SNIFF_BYTES))) return { valid: false, reason: 'type' };
    const info = pdf ? await pdfInfo(object.bytes) : { isProtected: false, pageCount: 0 };
    return { valid: true, size: object.size, contentType: contentTypeOf(name), ...info };
  }
}
