import { extensionOf } from '../items/paths.rules.js';

/** 150 MB per file, up to 999 files per upload (spec 1 s.9). */
export const MAX_FILE_BYTES = 150 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 999;
/** How many leading bytes the type check reads. */
export const SNIFF_BYTES = 1024;

/** The types whose first bytes are checked (spec 1 s.5.5), by extension. */
export type CheckedType = 'pdf' | 'png' | 'gif' | 'jpeg' | 'heic';
const CHECKED: Record<string, CheckedType> = {
  pdf: 'pdf',
  png: 'png',
  gif: 'gif',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  heic: 'heic',
  heif: 'heic',
};

export const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  heic: 'image/heic',
  heif: 'image/heif',
  avif: 'image/avif',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  csv: 'text/csv',
  txt: 'text/plain',
  zip: 'application/zip',
};

export const contentTypeOf = (name: string) => CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';

export const checkedTypeOf = (name: string): CheckedType | undefined => CHECKED[extensionOf(name)];

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** The real type from the first bytes, among the checked ones. */
export function sniffType(bytes: Uint8Array): CheckedType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('ftyp'), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (HEIF_BRANDS.has(brand)) return 'heic';
  }
  // Readers accept a PDF header anywhere in the first kilobyte.
  const head = Buffer.from(bytes.subarray(0, SNIFF_BYTES)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  return undefined;
}

/**
 * The upload type check of spec 1 s.5.5: the extension comes from the name; for pdf, png, gif, jpeg
 * and heic the first bytes must agree. Other extensions are accepted as they are. An empty file is invalid.
 */
export function isValidUpload(name: string, firstBytes: Uint8Array): boolean {
  if (firstBytes.length === 0) return false;
  const expected = checkedTypeOf(name);
  if (!expected) return true;
  return sniffType(firstBytes) === expected;
}

/** The upload types of spec 1 s.9 and spec 2 s.9, plus the prior-year folder upload. */
export const UPLOAD_TYPES = [
  '',
  'signature_request',
  'tax_return_delivery',
  'dropped_off_document',
  'bulk_document',
  'prior_year_document',
] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const isUploadType = (value: string): value is UploadType =>
  (UPLOAD_TYPES as readonly string[]).includes(value);
