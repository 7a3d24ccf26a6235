import { extensionOf } from '../items/paths.rules.js';

/**
 * Formats whose bytes are compressed already: deflating them again costs the zip's whole build time (one
 * core at about 30 MB/s) and saves next to nothing, so they are stored as they are. PDFs are among
 * them: their page contents are deflated streams, and their images JPEG.
 */
const COMPRESSED_ALREADY = new Set([
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'heic',
  'heif',
  'avif',
  'webp',
  'zip',
  'gz',
  '7z',
  'rar',
  'xlsx',
  'xlsm',
  'docx',
  'pptx',
  'mp3',
  'mp4',
  'm4a',
  'mov',
]);

/** How a file goes into a download zip: stored as it is, or deflated (text, csv, old Office formats). */
export const zipCompression = (name: string): { compress: boolean } => ({
  compress: !COMPRESSED_ALREADY.has(extensionOf(name)),
});
