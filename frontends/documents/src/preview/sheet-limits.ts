// The spreadsheet preview's limits, apart from the parser so that the main chunk can read them.

/** What the preview renders of a sheet at most; the viewer says when a sheet has more. */
export const SHEET_LIMITS = { rows: 500, columns: 50 } as const;
/** Bigger workbooks are offered as a download instead of being parsed in the page. */
export const MAX_SHEET_BYTES = 25 * 1024 * 1024;
export const SHEET_TOO_LARGE = 'This spreadsheet is too large to preview. Download it to open it.';
