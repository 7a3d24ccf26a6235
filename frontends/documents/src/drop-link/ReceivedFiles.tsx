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
import { type ReactNode, useState } from 'react';
import type { DocumentsApi, DropOff } from '../api/documents-api.js';
import { type BulkProgress, Confirm } from '../documents/dialogs.js';
import { clickLink, DOWNLOAD_MESSAGES } from '../documents/download-link.js';
import { formatSize } from '../rules/names.js';

export const dropOffsKey = ['documents', 'drop-offs'] as const;

/** The most received files one delete call takes (the gateway refuses more: 'Delete at most 500 files at once'). */
export const DELETE_AT_ONCE = 500;

/** Spec 1 s.8, Documents. */
export const RECEIVED_FILES_MESSAGES = {
  deleted: 'Deleted successfully',
  deleteFailed: 'Deleted Failed',
} as const;

function formatDateTime(value: string): string {
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toLocaleString() : '';
}

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
  const files = received.data?.pages.flatMap((page) => page.drop_offs) ?? [];
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<BulkProgress>();
  // Only what is listed counts: a file deleted elsewhere drops out of the choice.
  const selected = files.filter((f) => chosen.has(f.id));

  const toggle = (id: string) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () =>
    setChosen(selected.length === files.length ? new Set() : new Set(files.map((f) => f.id)));

  const download = async (file: DropOff) => {
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
  };

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
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Received files" data-testid="received-files">
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
                <Table.Th>From</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Download</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${f.name}`}
                      checked={chosen.has(f.id)}
                      onChange={() => toggle(f.id)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {f.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{f.uploader_name || f.uploader_email}</Text>
                    {f.uploader_name ? (
                      <Text size="xs" c="dimmed">
                        {f.uploader_email}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {f.note}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatSize(f.size)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(f.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Download ${f.name}`}
                      onClick={() => void download(f)}
                    >
                      Download
                    </Button>
                  </Table.Td>
                </Table.Tr>
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
    <Stack gap="sm">
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
