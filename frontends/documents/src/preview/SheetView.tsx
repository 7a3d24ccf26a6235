import { Alert, Box, Center, Loader, ScrollArea, Table, Tabs, Text } from '@portico/kit';
import { useEffect, useState } from 'react';
import { readSheets, type SheetTable } from './sheet-data.js';
import { SHEET_LIMITS } from './sheet-limits.js';

export const SHEET_MESSAGES = {
  failed: 'This spreadsheet could not be read. Download it to open it.',
  empty: 'This sheet is empty.',
  noSheets: 'This workbook has no visible sheets.',
} as const;

/** 'Showing the first 500 of 1,200 rows and 50 of 60 columns.', or nothing when the whole sheet is shown. */
export function limitNotice(sheet: SheetTable): string | null {
  const rows = sheet.totalRows > sheet.rows.length;
  const columns = sheet.totalColumns > sheet.columns.length;
  if (!rows && !columns) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  const parts = [
    rows ? `the first ${n(sheet.rows.length)} of ${n(sheet.totalRows)} rows` : null,
    columns ? `${n(sheet.columns.length)} of ${n(sheet.totalColumns)} columns` : null,
  ].filter(Boolean);
  return `Showing ${parts.join(' and ')}. Download the file to see all of it.`;
}

type State = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; sheets: SheetTable[] };

/**
 * A read-only view of an .xlsx or .xls file: one tab per visible sheet, at most SHEET_LIMITS rows and
 * columns each. The file comes from the short-lived download link; this module and the parser are a
 * chunk of their own, loaded when a spreadsheet is previewed.
 */
export function SheetView({ url }: { url: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [active, setActive] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setState({ kind: 'loading' });
    (async () => {
      try {
        const res = await fetch(url, { signal: abort.signal });
        if (!res.ok) throw new Error(`status ${res.status}`);
        const sheets = readSheets(await res.arrayBuffer(), SHEET_LIMITS);
        if (abort.signal.aborted) return;
        setState({ kind: 'ready', sheets });
        setActive(sheets[0]?.name ?? null);
      } catch {
        if (!abort.signal.aborted) setState({ kind: 'failed' });
      }
    })();
    return () => abort.abort();
  }, [url]);

  if (state.kind === 'loading')
    return (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (state.kind === 'failed')
    return (
      <Center p="xl">
        <Text c="red.9">{SHEET_MESSAGES.failed}</Text>
      </Center>
    );
  if (!state.sheets.length)
    return (
      <Center p="xl">
        <Text c="dimmed">{SHEET_MESSAGES.noSheets}</Text>
      </Center>
    );
  return (
    <Tabs value={active} onChange={setActive} keepMounted={false} data-testid="sheet-view">
      <Tabs.List>
        {state.sheets.map((s) => (
          <Tabs.Tab key={s.name} value={s.name}>
            {s.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {state.sheets.map((s) => (
        <Tabs.Panel key={s.name} value={s.name} pt="sm">
          <SheetGrid sheet={s} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

function SheetGrid({ sheet }: { sheet: SheetTable }) {
  const notice = limitNotice(sheet);
  if (!sheet.rows.length)
    return (
      <Text c="dimmed" p="md">
        {SHEET_MESSAGES.empty}
      </Text>
    );
  return (
    <Box>
      {notice ? (
        <Alert color="blue" variant="light" mb="sm" data-testid="sheet-limit">
          {notice}
        </Alert>
      ) : null}
      <ScrollArea.Autosize mah="70vh" type="auto">
        <Table
          withTableBorder
          withColumnBorders
          striped
          stickyHeader
          fz="xs"
          aria-label={`Sheet ${sheet.name}`}
          style={{ whiteSpace: 'nowrap', width: 'max-content', minWidth: '40%' }}
        >
          <Table.Thead>
            <Table.Tr>
              {/* The row numbers' column: '#' on screen (a header needs visible text), 'Row' when read out. */}
              <Table.Th aria-label="Row" w={48} c="dimmed" ta="right">
                #
              </Table.Th>
              {sheet.columns.map((c) => (
                <Table.Th key={c} ta="center" miw={72}>
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sheet.rows.map((r) => (
              <Table.Tr key={r.number}>
                <Table.Th scope="row" c="dimmed" ta="right">
                  {r.number}
                </Table.Th>
                {r.cells.map((cell, i) => (
                  <Table.Td key={sheet.columns[i]}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Box>
  );
}
