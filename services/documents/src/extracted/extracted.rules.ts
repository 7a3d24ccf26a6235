import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Annotation, AnnotationSchema } from '@portico/proto';
import type { PageSize } from './page-sizes.rules.js';

/** Why page ranges are refused: not written as ranges, or naming a page past the document's last. */
export type PageRangesError = 'malformed' | 'out_of_range';

/**
 * Page ranges of the split dialog (spec 2 s.5): comma lists of single pages and ranges written with
 * -, .. or ...; returns the 1-based pages in the order given. Every bound is checked against
 * `pageCount` before a range is expanded, so '1-999999999' costs no more than '1-5'.
 */
export function parsePageRanges(
  input: string,
  pageCount: number,
): { pages: number[] } | { error: PageRangesError } {
  const parts = partsOf(input);
  if (!parts.length) return { error: 'malformed' };
  const pages = new Set<number>();
  for (const part of parts) {
    const range = rangeOf(part);
    if (!range) return { error: 'malformed' };
    const [from, to] = range;
    if (to > pageCount) return { error: 'out_of_range' };
    for (let p = from; p <= to; p++) pages.add(p);
  }
  return { pages: [...pages] };
}

/** Whether page ranges are written as parsePageRanges reads them, whatever the page count. */
export function pageRangesWellFormed(input: string): boolean {
  const parts = partsOf(input);
  return parts.length > 0 && parts.every((part) => rangeOf(part) !== undefined);
}

const partsOf = (input: string) =>
  input
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** One part ('3', '1-4', '2..5') as its first and last page; undefined when malformed. */
function rangeOf(part: string): [number, number] | undefined {
  const range = /^(\d+)\s*(?:-|\.{2,3})\s*(\d+)$/.exec(part) ?? /^(\d+)$/.exec(part);
  if (!range) return undefined;
  const from = Number(range[1]);
  const to = Number(range[2] ?? range[1]);
  return from < 1 || to < from ? undefined : [from, to];
}

/** Contiguous pages collapse into a range: [1,2,3,5] is '1-3,5'. */
export function formatPageRanges(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

export const ANNOTATION_COLOURS = ['black', 'red', 'green', 'blue'];
export const ANNOTATION_MODES = ['view', 'move', 'check', 'textbox'];

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The annotation editor's rules (spec 2 s.5): text 1 to 32 characters and not blank, width clamped to
 * 80-400, position clamped to the page (its page one of the document's, its point within that page's
 * size in points, as shown; only not negative where the sizes are not known), colours black, red,
 * green, blue, font size 12. Undefined when the text is invalid.
 */
export function normaliseAnnotation(
  a: Annotation,
  index: number,
  pageSizes: readonly PageSize[] = [],
): MessageInitShape<typeof AnnotationSchema> | undefined {
  const text = a.text.trim();
  if (a.mode !== 'check' && (!text || text.length > 32)) return undefined;
  const page = clamp(a.page || 1, 1, pageSizes.length || Number.POSITIVE_INFINITY);
  const [width, height] = pageSizes[page - 1] ?? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  return {
    id: a.id || `a${index + 1}`,
    page,
    x: clamp(a.x, 0, width),
    y: clamp(a.y, 0, height),
    width: Math.min(400, Math.max(80, a.width || 80)),
    text,
    color: ANNOTATION_COLOURS.includes(a.color) ? a.color : 'black',
    fontSize: 12,
    mode: ANNOTATION_MODES.includes(a.mode) ? a.mode : 'textbox',
  };
}
