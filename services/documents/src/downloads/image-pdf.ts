import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { extensionOf } from '../items/paths.rules.js';
import { heicToPng } from '../previews/heic.converter.js';

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

/** One image as a one-page PDF the size of the image (convert-and-download). */
export async function imageToPdf(name: string, bytes: Buffer): Promise<Buffer> {
  const ext = extensionOf(name);
  const pdf = await PDFDocument.create();
  let image: Awaited<ReturnType<PDFDocument['embedPng']>>;
  if (ext === 'jpg' || ext === 'jpeg') image = await pdf.embedJpg(bytes);
  else if (ext === 'png') image = await pdf.embedPng(bytes);
  else if (ext === 'heic' || ext === 'heif') image = await pdf.embedPng(await heicToPng(bytes));
  else image = await pdf.embedPng(await sharp(bytes).png().toBuffer());
  const page = pdf.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return Buffer.from(await pdf.save());
}

/** 'photo.heic' to 'photo.pdf'. */
export const pdfNameOf = (name: string) => {
  const ext = extensionOf(name);
  return `${ext ? name.slice(0, -(ext.length + 1)) : name}.pdf`;
};
