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

/** The checks of spec 1 s.5.5 on an object the browser uploaded: size, first bytes, PDF encryption. */
@Injectable()
export class UploadValidator {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  async check(upload: UploadRow, name: string): Promise<Checked> {
    const head = await this.store.head(upload.storageKey);
    if (!head) return { valid: false, reason: 'missing' };
    if (head.size > MAX_FILE_BYTES) return { valid: false, reason: 'too_large' };
    const first = head.size ? await this.store.readStart(upload.storageKey, SNIFF_BYTES) : new Uint8Array();
    if (!isValidUpload(name, first)) return { valid: false, reason: 'type' };
    let info = { isProtected: false, pageCount: 0 };
    if (checkedTypeOf(name) === 'pdf') info = await pdfInfo(await this.store.read(upload.storageKey));
    return { valid: true, size: head.size, contentType: contentTypeOf(name), ...info };
  }
}
