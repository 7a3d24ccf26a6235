import { Semaphore } from '@portico/platform';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { extensionOf } from '../items/paths.rules.js';
import { heicPixels } from '../previews/heic.converter.js';
import { ImageNotConvertible, MAX_IMAGE_PIXELS } from '../previews/image-limits.js';

const IMAGE_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'heic',
  'heif',
  'avif',
  'webp',
  'tif',
  'tiff',
]);
export const isImageName = (name: string) => IMAGE_EXTENSIONS.has(extensionOf(name));

/** Conversions at once in one process, across all zips: each holds an image's pixels while it runs. */
const CONVERSIONS_AT_ONCE = 2;
const conversions = new Semaphore(CONVERSIONS_AT_ONCE);

/**
 * One image as a one-page PDF the size of the image (convert-and-download). Every format becomes a
 * JPEG in sharp (its work runs on libvips' threads, not the event loop), which pdf-lib embeds without
 * decoding it; transparency is laid on white. Rejects with ImageNotConvertible.
 */
export async function imageToPdf(name: string, bytes: Buffer): Promise<Buffer> {
  return conversions.run(async () => {
    const jpeg = await asJpeg(name, bytes).catch((err) => {
      throw err instanceof ImageNotConvertible ? err : new ImageNotConvertible(String(err?.message ?? err));
    });
    const pdf = await PDFDocument.create();
    const image = await pdf.embedJpg(jpeg);
    const page = pdf.addPage([image.width, image.height]);
    page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
    return Buffer.from(await pdf.save());
  });
}

async function asJpeg(name: string, bytes: Buffer): Promise<Buffer> {
  const ext = extensionOf(name);
  // A HEIC's declared size is checked before libheif decodes it (heic.converter.ts); its pixels go to
  // the JPEG encoder as they are.
  const image =
    ext === 'heic' || ext === 'heif'
      ? await heicPixels(bytes)
      : sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
  const { width = 0, height = 0, format } = await image.metadata();
  if (!width || !height || width * height > MAX_IMAGE_PIXELS)
    throw new ImageNotConvertible(`${width} x ${height} pixels is more than can be converted`);
  // A JPEG is embedded as it is.
  if (format === 'jpeg') return bytes;
  return image.rotate().flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
}

/** 'photo.heic' to 'photo.pdf'. */
export const pdfNameOf = (name: string) => {
  const ext = extensionOf(name);
  return `${ext ? name.slice(0, -(ext.length + 1)) : name}.pdf`;
};
