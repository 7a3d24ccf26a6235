import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/** A small real PNG. */
export const png = (width = 4, height = 4) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();

export const jpeg = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer();

/** A real PDF with one line of text per page. */
export async function pdf(pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++)
    doc.addPage([200, 200]).drawText(`Page ${i}`, { x: 20, y: 100, font, size: 14 });
  return Buffer.from(await doc.save());
}

/**
 * A minimal PDF whose trailer names a standard security handler (/Encrypt): readers need a password
 * to open it. Written by hand because pdf-lib cannot encrypt.
 */
export function encryptedPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${'a1'.repeat(32)}> /U <${'b2'.repeat(32)}> /P -44 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${'c3'.repeat(16)}> <${'c3'.repeat(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The first bytes of a HEIC file (ftyp box, heic brand): enough for the type check, not a decodable image. */
export const heicHeader = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypheic', 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic', 'latin1'),
    Buffer.alloc(64),
  ]);

/** A real HEIC photo, 64 x 48 in four coloured quadrants (fixtures/README.md says how it was made). */
export const realHeic = () => readFileSync(join(import.meta.dirname, 'fixtures', 'quadrants.heic'));
export const REAL_HEIC = { width: 64, height: 48 } as const;

/**
 * The red and green of each quadrant's centre in a decoded image, rounded to tens (lossy coding moves
 * them a little): top left, top right, bottom left, bottom right.
 */
export async function quadrantColours(image: Buffer): Promise<[number, number][]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): [number, number] => {
    const i = (y * info.width + x) * info.channels;
    return [Math.round((data[i] as number) / 10) * 10, Math.round((data[i + 1] as number) / 10) * 10];
  };
  const [w, h] = [info.width, info.height];
  return [at(w / 4, h / 4), at((3 * w) / 4, h / 4), at(w / 4, (3 * h) / 4), at((3 * w) / 4, (3 * h) / 4)];
}
/** What quadrantColours answers for the fixture. */
export const REAL_HEIC_QUADRANTS: [number, number][] = [
  [220, 200],
  [30, 200],
  [220, 40],
  [30, 40],
];
