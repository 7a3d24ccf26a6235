import { utils, write } from '@e965/xlsx';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { limitNotice } from '../preview/SheetView.js';
import { NOT_A_WORKBOOK, readSheets } from '../preview/sheet-data.js';
import { MAX_SHEET_BYTES, SHEET_TOO_LARGE } from '../preview/sheet-limits.js';
import { anItem, fakeApi } from './fixtures.js';
import { renderPreview } from './render-preview.js';

/** A workbook with a visible 'Income' sheet, a 'Notes' sheet and a hidden one, as .xlsx or .xls bytes. */
function workbook(
  bookType: 'xlsx' | 'biff8',
  rows: unknown[][] = [
    ['Client', 'Amount'],
    ['Anders', 1250.5],
  ],
) {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Income');
  utils.book_append_sheet(book, utils.aoa_to_sheet([['Filed on time']]), 'Notes');
  utils.book_append_sheet(book, utils.aoa_to_sheet([['secret']]), 'Hidden');
  book.Workbook = { Sheets: [{ Hidden: 0 }, { Hidden: 0 }, { Hidden: 1 }] };
  return new Uint8Array(write(book, { bookType, type: 'array' }) as ArrayBuffer);
}

describe('spreadsheet reading', () => {
  it.each([
    ['xlsx', 'xlsx'],
    ['xls', 'biff8'],
  ] as const)('reads the visible sheets of an .%s file as text', (_ext, bookType) => {
    const sheets = readSheets(workbook(bookType));
    expect(sheets.map((s) => s.name)).toEqual(['Income', 'Notes']);
    const income = sheets[0];
    expect(income?.columns).toEqual(['A', 'B']);
    expect(income?.rows).toEqual([
      { number: 1, cells: ['Client', 'Amount'] },
      { number: 2, cells: ['Anders', '1250.5'] },
    ]);
    expect(income && limitNotice(income)).toBeNull();
  });

  it('caps rows and columns and says how much of the sheet is shown', () => {
    const rows = Array.from({ length: 30 }, (_, r) => Array.from({ length: 8 }, (_, c) => `r${r}c${c}`));
    const [sheet] = readSheets(workbook('xlsx', rows), { rows: 10, columns: 5 });
    expect(sheet?.rows).toHaveLength(10);
    expect(sheet?.columns).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(sheet?.rows[9]?.cells[4]).toBe('r9c4');
    expect(sheet?.totalRows).toBe(30);
    expect(sheet?.totalColumns).toBe(8);
    expect(sheet && limitNotice(sheet)).toBe(
      'Showing the first 10 of 30 rows and 5 of 8 columns. Download the file to see all of it.',
    );
  });

  it('reads an HTML table saved as .xls, and refuses what is not a spreadsheet', () => {
    const html = readSheets(new TextEncoder().encode('<table><tr><td>Refund</td><td>7</td></tr></table>'));
    expect(html[0]?.rows).toEqual([{ number: 1, cells: ['Refund', '7'] }]);
    expect(() => readSheets(new TextEncoder().encode('%PDF-1.7 not a workbook'))).toThrow(NOT_A_WORKBOOK);
  });
});

describe('spreadsheet preview', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  function preview(name: string, size = '4096') {
    const gw = fakeApi((call) =>
      call.path === '/integrations/download_document'
        ? {
            body: {
              document: { data: { link: 'http://s3.test/bucket/book', file_name: name, expires_at: '' } },
            },
          }
        : undefined,
    );
    const storage = jest.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(workbook(name.endsWith('.xls') ? 'biff8' : 'xlsx')),
    );
    globalThis.fetch = storage as unknown as typeof fetch;
    renderPreview(anItem({ name, size }), gw);
    return { gw, storage };
  }

  it.each(['Income 2024.xlsx', 'Income 2024.xls'])(
    'shows %s read-only with a tab per sheet, from the short-lived link',
    async (name) => {
      const { gw, storage } = preview(name);
      const view = await screen.findByTestId('sheet-view');
      expect(within(view).getByRole('tab', { name: 'Income' })).toBeTruthy();
      expect(within(view).queryByRole('tab', { name: 'Hidden' })).toBeNull();
      const table = await within(view).findByRole('table', { name: 'Sheet Income' });
      expect(within(table).getByText('Anders')).toBeTruthy();
      expect(within(table).queryByRole('textbox')).toBeNull();
      expect(gw.calls.find((c) => c.path === '/integrations/download_document')?.body).toEqual({
        companyId: 'c-1',
        link: `/${name}`,
        isDownload: false,
      });
      expect(storage).toHaveBeenCalledWith('http://s3.test/bucket/book', expect.anything());

      fireEvent.click(within(view).getByRole('tab', { name: 'Notes' }));
      expect(await within(view).findByText('Filed on time')).toBeTruthy();
    },
  );

  it('offers a download instead of parsing a very large workbook', async () => {
    const { gw, storage } = preview('Huge.xlsx', String(MAX_SHEET_BYTES + 1));
    expect(await screen.findByText(SHEET_TOO_LARGE)).toBeTruthy();
    expect(gw.calls).toHaveLength(0);
    expect(storage).not.toHaveBeenCalled();
  });
});
