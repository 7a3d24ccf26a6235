import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import yauzl from 'yauzl';

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

export interface HandWrittenPdf {
  /** The trailer names a standard security handler (/Encrypt): readers need a password. */
  encrypted?: boolean;
  /** Bytes of filler in a stream object, to push the trailer away from the first bytes. */
  padBytes?: number;
  /** The cross-reference section right after the header, as a linearized file's first-page section. */
  sectionFirst?: boolean;
  /** An xref stream (PDF 1.5) instead of a classic table and trailer. */
  xrefStream?: boolean;
}

/**
 * A small PDF written by hand, so its structure is known: pdf-lib cannot encrypt, nor place the
 * cross-reference section first. Readers open it; with `encrypted` they ask for a password.
 */
export function handWrittenPdf({
  encrypted = false,
  padBytes = 0,
  sectionFirst = false,
  xrefStream = false,
}: HandWrittenPdf = {}): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${'a1'.repeat(32)}> /U <${'b2'.repeat(32)}> /P -44 >>`,
    `<< /Length ${padBytes} >>\nstream\n${'%'.repeat(padBytes)}\nendstream`,
  ];
  const size = objects.length + (xrefStream ? 2 : 1);
  const keys = `/Size ${size} /Root 1 0 R${encrypted ? ' /Encrypt 4 0 R' : ''} /ID [<${'c3'.repeat(16)}> <${'c3'.repeat(16)}>]`;
  const header = '%PDF-1.5\n';
  const objectsFrom = (start: number) => {
    let text = '';
    const offsets = objects.map((object, i) => {
      const at = start + text.length;
      text += `${i + 1} 0 obj\n${object}\nendobj\n`;
      return at;
    });
    return { text, offsets };
  };
  const section = (offsets: number[], at: number) => {
    if (!xrefStream) {
      const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
      return `xref\n0 ${size}\n0000000000 65535 f \n${rows}trailer\n<< ${keys} >>\n`;
    }
    // Rows of 1 + 4 + 2 bytes: type, offset, generation; the last row is the stream itself.
    const row = (type: number, offset: number, generation: number) =>
      String.fromCharCode(
        type,
        (offset >>> 24) & 255,
        (offset >>> 16) & 255,
        (offset >>> 8) & 255,
        offset & 255,
        generation >> 8,
        generation & 255,
      );
    const data = row(0, 0, 65535) + offsets.map((o) => row(1, o, 0)).join('') + row(1, at, 0);
    return `${size - 1} 0 obj\n<< /Type /XRef ${keys} /W [1 4 2] /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`;
  };
  let body: string;
  let sectionAt: number;
  if (sectionFirst) {
    // The section's length does not depend on the offsets it lists (fixed-width rows): measure, then write.
    const length = section(objectsFrom(0).offsets, 0).length;
    const { text, offsets } = objectsFrom(header.length + length);
    sectionAt = header.length;
    body = header + section(offsets, sectionAt) + text;
  } else {
    const { text, offsets } = objectsFrom(header.length);
    sectionAt = header.length + text.length;
    body = header + text + section(offsets, sectionAt);
  }
  return Buffer.from(`${body}startxref\n${sectionAt}\n%%EOF\n`, 'latin1');
}

/** A minimal PDF whose trailer names a standard security handler (/Encrypt). */
export const encryptedPdf = () => handWrittenPdf({ encrypted: true });

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

/** Every entry of a zip: its bytes and its compression method (0 stored, 8 deflated). */
export function zipEntries(zip: Buffer): Promise<Record<string, { bytes: Buffer; method: number }>> {
  return new Promise((resolve, reject) => {
    const out: Record<string, { bytes: Buffer; method: number }> = {};
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName] = { bytes: Buffer.concat(chunks), method: entry.compressionMethod };
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}
