// Reading a spreadsheet for the preview: only the preview's chunk imports this module (and the parser).
import { read, utils, type WorkSheet } from '@e965/xlsx';
import { SHEET_LIMITS } from './sheet-limits.js';

export interface SheetTable {
  name: string;
  /** Column letters of the shown columns (A, B, …), from the sheet's first used column. */
  columns: string[];
  /** Shown rows: the sheet's row number and the formatted text of each shown cell. */
  rows: { number: number; cells: string[] }[];
  totalRows: number;
  totalColumns: number;
}

export interface Limits {
  rows: number;
  columns: number;
}

/**
 * Whether the bytes can be a workbook: a zip (.xlsx), a compound file (.xls from Excel 97 on), an older
 * BIFF stream, or the XML and HTML tables that are often saved as .xls. The parser would read anything
 * else as text, which is no preview of a spreadsheet.
 */
export function looksLikeWorkbook(bytes: Uint8Array): boolean {
  const [a, b, c, d] = bytes;
  if (a === 0x50 && b === 0x4b && c === 0x03 && d === 0x04) return true;
  if (a === 0xd0 && b === 0xcf && c === 0x11 && d === 0xe0) return true;
  if (a === 0x09 && (b === 0x00 || b === 0x02 || b === 0x04 || b === 0x08)) return true;
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}

export const NOT_A_WORKBOOK = 'Not a spreadsheet';

/** Parses an .xlsx or .xls file (read-only: no formulas, styles or HTML) into its visible sheets. */
export function readSheets(data: ArrayBuffer | Uint8Array, limits: Limits = SHEET_LIMITS): SheetTable[] {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (!looksLikeWorkbook(bytes)) throw new Error(NOT_A_WORKBOOK);
  const workbook = read(bytes, {
    type: 'array',
    sheetRows: limits.rows,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
  });
  const props = workbook.Workbook?.Sheets ?? [];
  return workbook.SheetNames.filter((_, i) => !props[i]?.Hidden).map((name) =>
    sheetTable(name, workbook.Sheets[name], limits),
  );
}

function sheetTable(name: string, sheet: WorkSheet | undefined, limits: Limits): SheetTable {
  const ref = sheet?.['!ref'];
  if (!sheet || !ref) return { name, columns: [], rows: [], totalRows: 0, totalColumns: 0 };
  const shown = utils.decode_range(ref);
  // With sheetRows the parser keeps the whole sheet's extent in !fullref.
  const fullRef = (sheet as Record<string, unknown>)['!fullref'];
  const full = typeof fullRef === 'string' ? utils.decode_range(fullRef) : shown;
  const lastColumn = Math.min(shown.e.c, shown.s.c + limits.columns - 1);
  const lastRow = Math.min(shown.e.r, shown.s.r + limits.rows - 1);
  const range = { s: shown.s, e: { r: lastRow, c: lastColumn } };
  const width = lastColumn - shown.s.c + 1;
  const values = utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: false,
    defval: '',
    blankrows: true,
    range,
  });
  const columns = Array.from({ length: width }, (_, i) => utils.encode_col(shown.s.c + i));
  return {
    name,
    columns,
    rows: values.map((cells, i) => ({
      number: shown.s.r + i + 1,
      cells: Array.from({ length: width }, (_, c) => text(cells[c])),
    })),
    totalRows: full.e.r - shown.s.r + 1,
    totalColumns: full.e.c - shown.s.c + 1,
  };
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
