/**
 * Whether a PDF is encrypted, read the way a PDF reader starts: the last `startxref` gives the offset of
 * the cross-reference section the file ends with; its trailer dictionary (after a classic `xref` table, or
 * the dictionary of an xref stream) names `/Encrypt` exactly when the document needs a password. An
 * incremental update repeats the previous trailer's entries, and a linearized file's first-page trailer
 * carries them too, so the section `startxref` points at is enough. Anything else (no `startxref`, an
 * offset past the end, no trailer in the bytes read) is undecided and the caller opens the whole file.
 */

/** How many bytes of the end of the file, and of the section `startxref` points at, are read. */
export const PDF_TAIL_BYTES = 8 * 1024;

/** The offset after the file's last `startxref`, or undefined when there is none. */
export function startXrefOffset(tail: Buffer): number | undefined {
  const at = tail.lastIndexOf('startxref');
  if (at < 0) return undefined;
  const match = /^\s*(\d{1,15})/.exec(tail.subarray(at + 'startxref'.length, at + 40).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/**
 * The trailer dictionary of the cross-reference section at the start of `section`, or undefined when the
 * bytes do not hold all of it. A classic table is followed by `trailer << ... >>`; an xref stream is an
 * object whose dictionary ends where its `stream` begins.
 */
export function trailerDictionary(section: Buffer): string | undefined {
  const text = section.toString('latin1');
  const start = /^\s*(xref\b|\d+\s+\d+\s+obj\b)/.exec(text);
  if (!start) return undefined;
  if (start[1] === 'xref') {
    const trailer = text.indexOf('trailer', start[0].length);
    if (trailer < 0) return undefined;
    return balancedDictionary(text, text.indexOf('<<', trailer));
  }
  const dictionary = balancedDictionary(text, text.indexOf('<<', start[0].length));
  return dictionary && /\/Type\s*\/XRef\b/.test(dictionary) ? dictionary : undefined;
}

/** The `<< ... >>` starting at `from`, nested dictionaries included, or undefined when it is cut off. */
function balancedDictionary(text: string, from: number): string | undefined {
  if (from < 0) return undefined;
  let depth = 0;
  for (let i = from; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    if (pair === '<<') {
      depth++;
      i++;
    } else if (pair === '>>') {
      depth--;
      i++;
      if (depth === 0) return text.slice(from, i + 1);
    }
  }
  return undefined;
}

/**
 * Whether the PDF of `size` bytes, whose first bytes are `head`, is encrypted, or undefined when its trailer
 * does not decide. `readRange` reads the object: once for the tail, once more when `startxref` points
 * before it (a linearized file's first-page section).
 */
export async function encryptionFromTrailer(
  size: number,
  head: Buffer,
  readRange: (offset: number, length: number) => Promise<Buffer>,
): Promise<boolean | undefined> {
  const tailStart = Math.max(0, size - PDF_TAIL_BYTES);
  const tail = head.length >= size ? head.subarray(tailStart) : await readRange(tailStart, size - tailStart);
  const offset = startXrefOffset(tail);
  if (offset === undefined || offset >= size) return undefined;
  const section =
    offset >= tailStart ? tail.subarray(offset - tailStart) : await readRange(offset, PDF_TAIL_BYTES);
  const trailer = trailerDictionary(section);
  return trailer === undefined ? undefined : namesEncryption(trailer);
}

/** `/Encrypt` as a key of its own (not the start of a longer name such as /EncryptMetadata). */
export const namesEncryption = (dictionary: string) => /\/Encrypt(?![^\s/<>[\]()%{}])/.test(dictionary);
