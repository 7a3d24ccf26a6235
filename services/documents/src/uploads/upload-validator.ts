import { Inject, Injectable } from '@nestjs/common';
import { assertBeforeDeadline, Semaphore } from '@portico/platform';
import { PDFDocument } from 'pdf-lib';
import { type PageSize, pageSizesOf } from '../extracted/page-sizes.rules.js';
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
import { encryptionFromTrailer } from './pdf-trailer.rules.js';

/** What a PDF read whole tells: whether it opens without a password, its pages and their sizes. */
export interface PdfInfo {
  isProtected: boolean;
  pageCount: number;
  pageSizes: PageSize[];
}

export type Checked =
  | ({ valid: true; size: number; contentType: string } & PdfInfo)
  | { valid: false; reason: 'missing' | 'too_large' | 'type' };

const NOT_READ: PdfInfo = { isProtected: false, pageCount: 0, pageSizes: [] };

/** True when pdf-lib cannot open the bytes without a password (or at all): flagged protected. */
export async function pdfInfo(bytes: Buffer): Promise<PdfInfo> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return { isProtected: false, pageCount: pdf.getPageCount(), pageSizes: pageSizesOf(pdf) };
  } catch {
    return { isProtected: true, pageCount: 0, pageSizes: [] };
  }
}

/**
 * Whole files held in memory at once by one instance, across every upload being processed: a PDF read
 * whole can be 150 MB, so many uploads at once must not multiply that. Ranged reads are not held back.
 */
export const WHOLE_FILES_AT_ONCE = 4;

/**
 * The checks of spec 1 s.5.5 on an object the browser uploaded: size, first bytes, PDF encryption.
 * The first bytes come with the size in one ranged read. A PDF is opened whole with pdf-lib only when its
 * page count is wanted (extracted documents) or its trailer does not decide; otherwise its encryption is
 * read from the trailer (pdf-trailer.rules.ts) with one or two more ranged reads, as a reader would.
 */
@Injectable()
export class UploadValidator {
  private readonly wholeFiles = new Semaphore(WHOLE_FILES_AT_ONCE);

  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /**
   * `neverWhole`: a PDF whose trailer does not decide is taken as not protected instead of being read
   * whole; for anonymous uploaders (the drop link), who could otherwise send many such files, again and
   * again, and hold the instance's whole-file turns that the firm's own uploads wait for.
   */
  async check(
    upload: Pick<UploadRow, 'storageKey'>,
    name: string,
    options: { pageCount?: boolean; neverWhole?: boolean } = {},
  ): Promise<Checked> {
    // No file is read for a caller that has stopped waiting.
    assertBeforeDeadline();
    const pdf = checkedTypeOf(name) === 'pdf';
    const whole = pdf && !!options.pageCount && !options.neverWhole;
    return whole
      ? this.wholeFiles.run(() => this.checkObject(upload.storageKey, name, true))
      : this.checkObject(upload.storageKey, name, false, !!options.neverWhole);
  }

  private async checkObject(key: string, name: string, whole: boolean, neverWhole = false): Promise<Checked> {
    const object = await this.store.inspect(key, {
      firstBytes: SNIFF_BYTES,
      whole,
      maxBytes: MAX_FILE_BYTES,
    });
    if (!object) return { valid: false, reason: 'missing' };
    if (object.size > MAX_FILE_BYTES) return { valid: false, reason: 'too_large' };
    if (!isValidUpload(name, object.bytes.subarray(0, SNIFF_BYTES))) return { valid: false, reason: 'type' };
    const info =
      checkedTypeOf(name) !== 'pdf'
        ? NOT_READ
        : whole
          ? await pdfInfo(object.bytes)
          : await this.pdfEncryption(key, object.size, object.bytes, neverWhole);
    return { valid: true, size: object.size, contentType: contentTypeOf(name), ...info };
  }

  /** Encryption from the trailer; the whole file through pdf-lib when the trailer does not decide. */
  private async pdfEncryption(key: string, size: number, head: Buffer, neverWhole: boolean) {
    const encrypted = await encryptionFromTrailer(size, head, (offset, length) =>
      this.store.readRange(key, offset, length),
    );
    if (encrypted === undefined && neverWhole) return NOT_READ;
    return encrypted === undefined
      ? this.wholeFiles.run(async () => pdfInfo(await this.store.read(key, size)))
      : { ...NOT_READ, isProtected: encrypted };
  }
}
