import {
  Button,
  Center,
  Checkbox,
  Group,
  isApiError,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  toast,
  VisuallyHidden,
} from '@portico/kit';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { memo, type ReactNode, useCallback, useState } from 'react';
import type { DocumentsApi, DropOff } from '../api/documents-api.js';
import { type BulkProgress, Confirm } from '../documents/dialogs.js';
import { clickLink, DOWNLOAD_MESSAGES } from '../documents/download-link.js';
import '../documents/file-manager.css';
import { formatSize } from '../rules/names.js';

export const dropOffsKey = ['documents', 'drop-offs'] as const;

/** The most received files one delete call takes (the gateway refuses more: 'Delete at most 500 files at once'). */
export const DELETE_AT_ONCE = 500;

/** Spec 1 s.8, Documents. */
export const RECEIVED_FILES_MESSAGES = {
  deleted: 'Deleted successfully',
  deleteFailed: 'Deleted Failed',
} as const;

/** One format for every row (toLocaleString's fields, without building a format per cell and render). */
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function formatDateTime(value: string): string {
  const t = Date.parse(value);
  return Number.isFinite(t) ? dateTimeFormat.format(t) : '';
}

/** Cells a narrow list hides (file-manager.css); their sender, size and date go under the file's name. */
const WIDE = 'portico-fm-wide';
/** A long name without spaces wraps rather than pushing Download off a phone's screen. */
const WRAP = { overflowWrap: 'anywhere' } as const;
/** The visitor's message, on its own lines under the sender, size and date. */
const NOTE_LINE = { display: 'block', whiteSpace: 'pre-wrap' } as const;

const sender = (f: DropOff) =>
  f.uploader_name ? `${f.uploader_name} (${f.uploader_email})` : f.uploader_email;

const describeFiles = (files: DropOff[]) =>
  files.length === 1 ? `"${files[0]?.name}"` : `${files.length} received files`;

type ReceivedFilesApi = Pick<DocumentsApi, 'dropOffs' | 'dropOffDownload' | 'deleteDropOffs'>;

/**
 * The files left through the drop link, newest first a page at a time, each to download; chosen ones
 * can be deleted for good (a visitor's spam, or files already filed where they belong), so the list
 * stays the firm's to keep.
 */
export function ReceivedFiles({ api }: { api: ReceivedFilesApi }) {
  const queryClient = useQueryClient();
  const received = useInfiniteQuery({
    queryKey: dropOffsKey,
    queryFn: ({ pageParam }) => api.dropOffs(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page || undefined,
    staleTime: 0,
  });
  // What was deleted here leaves the list at once, with the choice, rather than when the list comes back.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const files = (received.data?.pages.flatMap((page) => page.drop_offs) ?? []).filter((f) => !gone.has(f.id));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<BulkProgress>();
  // Only what is listed counts: a file deleted elsewhere drops out of the choice.
  const selected = files.filter((f) => chosen.has(f.id));

  // Stable, so that a row renders again only when its file or its checkbox changes (ReceivedRow).
  const toggle = useCallback(
    (id: string) =>
      setChosen((before) => {
        const next = new Set(before);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const toggleAll = () =>
    setChosen(selected.length === files.length ? new Set() : new Set(files.map((f) => f.id)));

  const download = useCallback(
    async (file: DropOff) => {
      try {
        const res = await api.dropOffDownload(file.id);
        const link = res.document?.data?.link;
        if (!link) return void toast.error(DOWNLOAD_MESSAGES.noLink);
        clickLink(link, res.document.data.file_name || file.name);
      } catch (err) {
        toast.error(
          isApiError(err) && err.status < 500 ? err.message : DOWNLOAD_MESSAGES.documentDownloadFailed,
        );
      }
    },
    [api],
  );

  /**
   * Deletes the chosen files, DELETE_AT_ONCE a call, one call after the other, the dialog saying how
   * many are done. A refusal stops there: what was deleted drops out of the list and the choice, the
   * rest stays chosen, to try again.
   */
  const remove = async () => {
    const ids = selected.map((f) => f.id);
    let done = 0;
    let message = '';
    setProgress({ done, total: ids.length });
    try {
      for (let start = 0; start < ids.length; start += DELETE_AT_ONCE) {
        const res = await api.deleteDropOffs(ids.slice(start, start + DELETE_AT_ONCE));
        message = res.message;
        done = Math.min(start + DELETE_AT_ONCE, ids.length);
        setProgress({ done, total: ids.length });
      }
      toast.success(message || RECEIVED_FILES_MESSAGES.deleted);
      setChosen(new Set());
      setConfirming(false);
    } catch (err) {
      toast.error(isApiError(err) && err.status < 500 ? err.message : RECEIVED_FILES_MESSAGES.deleteFailed);
    } finally {
      const deleted = ids.slice(0, done);
      if (deleted.length) setGone((before) => new Set([...before, ...deleted]));
      setProgress(undefined);
      await queryClient.invalidateQueries({ queryKey: dropOffsKey });
    }
  };

  let body: ReactNode;
  if (received.isPending) {
    body = (
      <Center p="md">
        <Loader size="sm" aria-label="Loading received files" />
      </Center>
    );
  } else if (received.isError) {
    body = <Text c="red.9">Something went wrong</Text>;
  } else if (!files.length) {
    body = <Text c="dimmed">No files have been dropped off yet.</Text>;
  } else {
    body = (
      <>
        <Group justify="space-between" mih={30}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {selected.length ? `${selected.length} selected` : `${files.length} shown`}
          </Text>
          {selected.length > 0 && (
            <Button size="compact-sm" color="red" variant="light" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          )}
        </Group>
        {/* Every column when the list is wide enough, else the sender, size and date under the name. */}
        <Table.ScrollContainer minWidth={0}>
          <Table
            striped
            aria-label="Received files"
            data-testid="received-files"
            className="portico-fm-table"
            data-list="received-files"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all received files shown"
                    checked={selected.length === files.length}
                    indeterminate={selected.length > 0 && selected.length < files.length}
                    onChange={toggleAll}
                  />
                </Table.Th>
                <Table.Th>File</Table.Th>
                <Table.Th className={WIDE}>From</Table.Th>
                <Table.Th className={WIDE}>Message</Table.Th>
                <Table.Th className={WIDE}>Size</Table.Th>
                <Table.Th className={WIDE}>Received</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Download</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((f) => (
                <ReceivedRow
                  key={f.id}
                  file={f}
                  checked={chosen.has(f.id)}
                  onToggle={toggle}
                  onDownload={download}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {received.hasNextPage && (
          <Center>
            <Button
              variant="default"
              loading={received.isFetchingNextPage}
              onClick={() => void received.fetchNextPage()}
            >
              Show more received files
            </Button>
          </Center>
        )}
      </>
    );
  }
  return (
    <Stack gap="sm" className="portico-fm-list">
      <Title order={2} size="h3">
        Received files
      </Title>
      {body}
      {confirming && (
        <Confirm
          title="Delete"
          text={`Are you sure you want to delete ${describeFiles(selected)}? They cannot be restored.`}
          submit="Delete"
          danger
          progress={progress}
          onClose={() => setConfirming(false)}
          onConfirm={remove}
        />
      )}
    </Stack>
  );
}

/**
 * A received file's row. Memoised: the delete dialog, its progress and the toasts render the list again,
 * and 600 rows of Mantine cells took seconds each time (a toast waited for three of them).
 */
const ReceivedRow = memo(function ReceivedRow({
  file: f,
  checked,
  onToggle,
  onDownload,
}: {
  file: DropOff;
  checked: boolean;
  onToggle: (id: string) => void;
  onDownload: (file: DropOff) => Promise<void>;
}) {
  const size = formatSize(f.size);
  const received = formatDateTime(f.created_at);
  return (
    <Table.Tr>
      <Table.Td>
        <Checkbox aria-label={`Select ${f.name}`} checked={checked} onChange={() => onToggle(f.id)} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500} style={WRAP}>
          {f.name}
        </Text>
        <Text size="xs" c="dimmed" style={WRAP} className="portico-fm-narrow" data-testid="narrow-details">
          {[sender(f), size, received].filter(Boolean).join(' · ')}
          {f.note ? <span style={NOTE_LINE}>{f.note}</span> : null}
        </Text>
      </Table.Td>
      <Table.Td className={WIDE}>
        <Text size="sm">{f.uploader_name || f.uploader_email}</Text>
        {f.uploader_name ? (
          <Text size="xs" c="dimmed">
            {f.uploader_email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td className={WIDE}>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {f.note}
        </Text>
      </Table.Td>
      <Table.Td className={WIDE}>
        <Text size="sm">{size}</Text>
      </Table.Td>
      <Table.Td className={WIDE}>
        <Text size="sm">{received}</Text>
      </Table.Td>
      <Table.Td>
        <Button
          size="compact-sm"
          variant="light"
          aria-label={`Download ${f.name}`}
          onClick={() => void onDownload(f)}
        >
          Download
        </Button>
      </Table.Td>
    </Table.Tr>
  );
});
