import {
  Button,
  Center,
  Divider,
  isApiError,
  Loader,
  type RemoteRouteProps,
  Stack,
  Table,
  Text,
  Title,
  toast,
  useApi,
  VisuallyHidden,
} from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { type DocumentsApi, type DropOff, documentsApi } from '../api/documents-api.js';
import { clickLink, DOWNLOAD_MESSAGES } from '../documents/download-link.js';
import { formatSize } from '../rules/names.js';
import { DropLinkPanel } from './DropLinkPanel.js';

export const dropOffsKey = ['documents', 'drop-offs'] as const;

/**
 * /drop-link-settings, the Drop Link item of the advisor navigation (partners, admins and full users,
 * when the firm has drop_link_enabled): the drop link's settings, as in the file manager's dialog, and
 * the files visitors have dropped off through it.
 */
export default function DropLinkSettingsRoute(_props: RemoteRouteProps) {
  const { client } = useApi();
  const api = useMemo(() => documentsApi(client), [client]);
  return (
    <Stack p="md" gap="md" maw={960} data-testid="drop-link-settings">
      <Title order={1} size="h2">
        Drop Link
      </Title>
      <DropLinkPanel api={api}>
        <Divider my="lg" />
        <ReceivedFiles api={api} />
      </DropLinkPanel>
    </Stack>
  );
}

function formatDateTime(value: string): string {
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toLocaleString() : '';
}

/** The files left through the drop link, newest first as the service lists them, each to download. */
export function ReceivedFiles({ api }: { api: Pick<DocumentsApi, 'dropOffs' | 'dropOffDownload'> }) {
  const received = useQuery({ queryKey: dropOffsKey, queryFn: () => api.dropOffs(), staleTime: 0 });

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

  let body: ReactNode;
  if (received.isPending) {
    body = (
      <Center p="md">
        <Loader size="sm" aria-label="Loading received files" />
      </Center>
    );
  } else if (received.isError) {
    body = <Text c="red">Something went wrong</Text>;
  } else if (!received.data.drop_offs.length) {
    body = <Text c="dimmed">No files have been dropped off yet.</Text>;
  } else {
    body = (
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label="Received files" data-testid="received-files">
          <Table.Thead>
            <Table.Tr>
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
            {received.data.drop_offs.map((f) => (
              <Table.Tr key={f.id}>
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
    );
  }
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Received files
      </Title>
      {body}
    </Stack>
  );
}
