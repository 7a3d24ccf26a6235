import { Divider, type RemoteRouteProps, Stack, Title, useApi } from '@portico/kit';
import { useMemo } from 'react';
import { documentsApi } from '../api/documents-api.js';
import { DropLinkPanel } from './DropLinkPanel.js';
import { ReceivedFiles } from './ReceivedFiles.js';

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
