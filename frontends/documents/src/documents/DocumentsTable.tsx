import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@portico/kit';
import {
  createColumnHelper,
  createSortedRowModel,
  type Row,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { memo, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DocItem } from '../api/documents-api.js';
import { type Capabilities, type ItemActions, itemActions, type Verdict } from '../rules/capabilities.js';
import { formatSize, isNew, isStaffOnly } from '../rules/names.js';
import type { DocumentsView } from '../rules/view-preference.js';
import { DotsIcon, FileIcon, FolderIcon, LockIcon } from './icons.js';
import { useRevealed } from './useRevealed.js';

export type ItemAction = Exclude<keyof ItemActions, never>;

export interface TableProps {
  items: DocItem[];
  caps: Capabilities;
  view: DocumentsView;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onOpen: (item: DocItem) => void;
  onAction: (action: ItemAction, item: DocItem) => void;
  /** Search results show the folder of each item. */
  showFolder?: boolean;
  /** The folder or search shown: a new one starts again with the first rows. */
  listKey: string;
}

const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  sortedRowModel: createSortedRowModel(),
});
const helper = createColumnHelper<typeof features, DocItem>();

const folderFirst = (a: DocItem, b: DocItem) => (a.type === b.type ? 0 : a.type === 'folder' ? -1 : 1);
/** One collator and one date format for every row: creating them per comparison or cell is what costs. */
const byName = new Intl.Collator(undefined, { numeric: true });
const dateFormat = new Intl.DateTimeFormat();

const ACTION_LABELS: [ItemAction, string][] = [
  ['open', 'Open'],
  ['download', 'Download'],
  ['rename', 'Rename'],
  ['move', 'Move'],
  ['copy', 'Copy'],
  ['editDescription', 'Edit Description'],
  ['editTags', 'Edit Tags'],
  ['copyUrl', 'Copy folder URL'],
  ['copyClientUrl', 'Copy client file URL'],
  ['delete', 'Delete'],
  ['restore', 'Restore'],
];

/**
 * A row's actions. The menu itself mounts on the first click: a Mantine menu in each row (its floating
 * position, focus and portal set up) made opening a folder's first hundred rows about a fifth slower.
 * Mounting replaces the button, so the new one takes the focus before the menu opens: the menu gives
 * the focus back to it when it closes, as it did when it was there from the start.
 */
export function ItemMenu({
  item,
  caps,
  onAction,
}: {
  item: DocItem;
  caps: Capabilities;
  onAction: TableProps['onAction'];
}) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!mounted) return;
    trigger.current?.focus();
    setOpened(true);
  }, [mounted]);
  const actions = itemActions(caps, item);
  const shown = ACTION_LABELS.filter(([key]) => actions[key].visible);
  if (!shown.length) return null;
  const button = (
    <ActionIcon
      ref={trigger}
      variant="subtle"
      aria-label={`Actions for ${item.name}`}
      aria-haspopup="menu"
      onClick={(e) => {
        e.stopPropagation();
        setMounted(true);
      }}
    >
      <DotsIcon />
    </ActionIcon>
  );
  if (!mounted) return button;
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        {shown.map(([key, label]) => (
          <MenuEntry key={key} verdict={actions[key]} label={label} onClick={() => onAction(key, item)} />
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * An action of the menu. Refused with a reason ('Disabled by firm'), it stays within the arrow keys' reach
 * (Mantine's disabled items are skipped), says why under its label and with it (aria-describedby), and
 * choosing it does nothing: before, the reason was a tooltip on hover alone.
 */
function MenuEntry({ verdict, label, onClick }: { verdict: Verdict; label: string; onClick: () => void }) {
  const reasonId = useId();
  if (verdict.enabled || !verdict.reason)
    return (
      <Menu.Item
        disabled={!verdict.enabled}
        onClick={onClick}
        color={label === 'Delete' ? 'red.9' : undefined}
      >
        {label}
      </Menu.Item>
    );
  return (
    <Menu.Item
      aria-disabled
      aria-label={label}
      aria-describedby={reasonId}
      closeMenuOnClick={false}
      c="dimmed"
      style={{ cursor: 'not-allowed' }}
    >
      {label}
      <Text component="span" display="block" size="xs" c="dimmed" id={reasonId}>
        {verdict.reason}
      </Text>
    </Menu.Item>
  );
}

/**
 * Text colours of the badges: Mantine's light variant writes its darkest shade on the pale background,
 * 3.8:1 for green and 4.5:1 for red, under WCAG AA's 4.5:1 for their 10 px text. These are 7:1.
 */
const BADGE_TEXT = { green: '#1b5e20', red: '#8a1c1c' } as const;

/** A badge beside a long name keeps its word; the name wraps instead. */
const NO_SHRINK = { flexShrink: 0 } as const;

/** A deleted file does not open; a deleted folder does, to restore what is in it one item at a time. */
const opens = (item: DocItem) => !item.deleted_at || item.type === 'folder';

export function ItemBadges({ item }: { item: DocItem }) {
  return (
    <>
      {item.type === 'folder' && isStaffOnly(item) ? <LockIcon /> : null}
      {item.deleted_at ? (
        <Badge color="red" variant="light" size="sm" c={BADGE_TEXT.red} style={NO_SHRINK}>
          Deleted
        </Badge>
      ) : null}
      {isNew(item) ? (
        <Badge color="green" variant="light" size="sm" c={BADGE_TEXT.green} style={NO_SHRINK}>
          New
        </Badge>
      ) : null}
    </>
  );
}

/**
 * Columns shown only when the list is wide enough for all of them; narrower, the date and size go under
 * the name instead (file-manager.css, by the list's own width).
 */
const WIDE_ONLY_COLUMNS = new Set(['description', 'tags', 'updated_at', 'size']);
const wideOnly = (columnId: string) => (WIDE_ONLY_COLUMNS.has(columnId) ? 'portico-fm-wide' : undefined);

function sizeOrCount(item: DocItem): string {
  if (item.type !== 'folder') return formatSize(item.size);
  return `${item.items_count.toLocaleString()} ${item.items_count === 1 ? 'item' : 'items'}`;
}

function NameCell({
  item,
  onOpen,
  showFolder,
}: {
  item: DocItem;
  onOpen: (i: DocItem) => void;
  showFolder?: boolean;
}) {
  const modified = formatDate(item.updated_at);
  return (
    <Group gap={8} wrap="nowrap">
      {item.type === 'folder' ? <FolderIcon /> : <FileIcon />}
      <Stack gap={0}>
        <Group gap={6} wrap="nowrap">
          <UnstyledButton onClick={() => onOpen(item)} disabled={!opens(item)}>
            <Text size="sm" fw={500} td={item.deleted_at ? 'line-through' : undefined}>
              {item.name}
            </Text>
          </UnstyledButton>
          <ItemBadges item={item} />
        </Group>
        {showFolder ? (
          <Text size="xs" c="dimmed">
            {item.path || '/'}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed" className="portico-fm-narrow" data-testid="narrow-details">
          {modified ? `${modified} · ${sizeOrCount(item)}` : sizeOrCount(item)}
        </Text>
      </Stack>
    </Group>
  );
}

function formatDate(value: string): string {
  const t = Date.parse(value);
  return Number.isFinite(t) ? dateFormat.format(t) : '';
}

/**
 * The file list: a sortable table (TanStack Table) or a grid of cards, with row selection. Memoised, so
 * the page's other state (an upload's progress, a dialog) does not render every row again.
 */
export const DocumentsTable = memo(function DocumentsTable(props: TableProps) {
  const { caps, onOpen, onAction, showFolder } = props;
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const columns = useMemo(
    () =>
      helper.columns([
        helper.display({
          id: 'select',
          header: ({ table }) => (
            <Checkbox
              aria-label="Select all"
              checked={table.getIsAllRowsSelected()}
              // Some of the rows listed, not all: the table's own 'some' counts any id kept selected.
              indeterminate={
                !table.getIsAllRowsSelected() && table.getRowModel().rows.some((r) => r.getIsSelected())
              }
              onChange={table.getToggleAllRowsSelectedHandler()}
            />
          ),
          cell: ({ row }) => (
            <Checkbox
              aria-label={`Select ${row.original.name}`}
              checked={row.getIsSelected()}
              onChange={row.getToggleSelectedHandler()}
              onClick={(e) => e.stopPropagation()}
            />
          ),
        }),
        helper.accessor('name', {
          header: 'Name',
          sortFn: (a: Row<typeof features, DocItem>, b: Row<typeof features, DocItem>) =>
            folderFirst(a.original, b.original) || byName.compare(a.original.name, b.original.name),
          cell: ({ row }) => <NameCell item={row.original} onOpen={onOpen} showFolder={showFolder} />,
        }),
        ...(caps.descriptionColumn
          ? [
              helper.accessor('description', {
                header: 'Description',
                enableSorting: false,
                cell: ({ row }) => {
                  const item = row.original;
                  if (item.type === 'folder') return null;
                  const words = item.description || (item.deleted_at ? '' : 'Add a description');
                  const text = (
                    <Text size="sm" c={item.description ? undefined : 'dimmed'}>
                      {words}
                    </Text>
                  );
                  // As the row's menu: a deleted file's description is read, not edited (restore it first).
                  // Named with the file as well: every row's button would otherwise be 'Add a description'.
                  return itemActions(caps, item).editDescription.enabled ? (
                    <UnstyledButton
                      onClick={() => onAction('editDescription', item)}
                      aria-label={`${words}, ${item.name}`}
                    >
                      {text}
                    </UnstyledButton>
                  ) : (
                    text
                  );
                },
              }),
            ]
          : []),
        ...(caps.tagsColumn
          ? [
              helper.accessor('tags', {
                header: 'Tags',
                enableSorting: false,
                cell: ({ row }) => (
                  <Group gap={4}>
                    {(row.original.tags ?? []).map((t) => (
                      <Badge key={t} variant="outline" size="sm">
                        {t}
                      </Badge>
                    ))}
                  </Group>
                ),
              }),
            ]
          : []),
        helper.accessor('updated_at', {
          header: 'Modified',
          sortFn: (a: Row<typeof features, DocItem>, b: Row<typeof features, DocItem>) =>
            (Date.parse(a.original.updated_at) || 0) - (Date.parse(b.original.updated_at) || 0),
          cell: ({ row }) => <Text size="sm">{formatDate(row.original.updated_at)}</Text>,
        }),
        helper.accessor('size', {
          header: 'Size',
          sortFn: (a: Row<typeof features, DocItem>, b: Row<typeof features, DocItem>) =>
            Number(a.original.size || 0) - Number(b.original.size || 0),
          cell: ({ row }) => (
            <Text
              size="sm"
              c={row.original.type === 'folder' ? 'dimmed' : undefined}
              style={{ whiteSpace: 'nowrap' }}
            >
              {sizeOrCount(row.original)}
            </Text>
          ),
        }),
        helper.display({
          id: 'actions',
          header: () => <VisuallyHiddenText>Actions</VisuallyHiddenText>,
          cell: ({ row }) => <ItemMenu item={row.original} caps={caps} onAction={onAction} />,
        }),
      ]),
    [caps, onOpen, onAction, showFolder],
  );

  const table = useTable({
    features,
    columns,
    data: props.items,
    getRowId: (item: DocItem) => item.id,
    state: { sorting, rowSelection: props.selection },
    onSortingChange: setSorting,
    onRowSelectionChange: (updater) =>
      props.onSelectionChange(typeof updater === 'function' ? updater(props.selection) : updater),
    enableSortingRemoval: false,
  });

  const allRows = table.getRowModel().rows;
  const revealed = useRevealed(allRows.length, props.listKey);
  const rows = allRows.slice(0, revealed.count);
  const more = revealed.hasMore ? (
    <Group justify="center" gap="sm" py="sm" ref={revealed.sentinel}>
      <Text size="sm" c="dimmed">
        Showing {rows.length.toLocaleString()} of {allRows.length.toLocaleString()} items
      </Text>
      <Button size="xs" variant="subtle" onClick={revealed.showMore}>
        Show more
      </Button>
    </Group>
  ) : null;
  if (props.view === 'grid') {
    return (
      <>
        <SimpleGrid minColWidth={150} data-testid="documents-grid">
          {rows.map((row) => (
            <Card
              key={row.id}
              withBorder
              padding="sm"
              data-selected={row.getIsSelected() || undefined}
              style={{ cursor: 'pointer' }}
              onDoubleClick={() => opens(row.original) && onOpen(row.original)}
            >
              <Group justify="space-between" wrap="nowrap">
                <Checkbox
                  aria-label={`Select ${row.original.name}`}
                  checked={row.getIsSelected()}
                  onChange={row.getToggleSelectedHandler()}
                />
                <ItemMenu item={row.original} caps={caps} onAction={onAction} />
              </Group>
              <Stack align="center" gap={4} py="sm">
                {row.original.type === 'folder' ? <FolderIcon size={40} /> : <FileIcon size={40} />}
                <UnstyledButton onClick={() => onOpen(row.original)} disabled={!opens(row.original)}>
                  <Text size="sm" ta="center" lineClamp={2}>
                    {row.original.name}
                  </Text>
                </UnstyledButton>
                <Group gap={4}>
                  <ItemBadges item={row.original} />
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
        {more}
      </>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={0}>
        <Table
          highlightOnHover
          className="portico-fm-table"
          data-role={caps.role}
          data-testid="documents-table"
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort =
                    header.column.getCanSort() &&
                    header.column.id !== 'select' &&
                    header.column.id !== 'actions';
                  return (
                    <Table.Th
                      key={header.id}
                      className={wideOnly(header.column.id)}
                      aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {canSort ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={600} fz="sm">
                          <table.FlexRender header={header} />
                          {sorted ? (sorted === 'asc' ? ' ▲' : ' ▼') : ''}
                        </UnstyledButton>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr
                key={row.id}
                data-deleted={row.original.deleted_at ? true : undefined}
                bg={row.getIsSelected() ? 'var(--mantine-primary-color-light)' : undefined}
              >
                {row.getAllCells().map((cell) => (
                  <Table.Td key={cell.id} className={wideOnly(cell.column.id)}>
                    <table.FlexRender cell={cell} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more}
    </>
  );
});

function VisuallyHiddenText({ children }: { children: ReactNode }) {
  return (
    <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
      {children}
    </span>
  );
}
