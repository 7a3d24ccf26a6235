import {
  Center,
  ErrorFallback,
  Loader,
  type RemoteRouteProps,
  Stack,
  Text,
  Title,
  useApi,
  useCurrentFirm,
  useCurrentUser,
  useSelectedEntity,
} from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { documentsApi } from '../api/documents-api.js';
import { capabilitiesFor } from '../rules/capabilities.js';
import { UploadTray } from '../upload/UploadTray.js';
import { resolveCompany } from './company.js';
import { FileManager } from './FileManager.js';

/**
 * The documents route of both audiences: /admin/:companyHash/documents (advisor, the hash comes from
 * the shell's route) and /documents/:companyHash (client, the hash is below this module's base path).
 * The upload tray sits above the entity's file manager, which starts afresh for each entity, so that an
 * upload is still seen, and can be cancelled, once another entity is shown.
 */
export default function DocumentsRoute({ basePath }: RemoteRouteProps) {
  return (
    <>
      <DocumentsPage basePath={basePath} />
      <UploadTray />
    </>
  );
}

function DocumentsPage({ basePath }: { basePath: string }) {
  const params = useParams();
  if (params.companyHash && basePath.includes(':companyHash'))
    return <CompanyDocuments companyHash={params.companyHash} />;
  return (
    <Routes>
      <Route path=":companyHash/*" element={<ClientDocuments />} />
      <Route index element={<SelectedEntityRedirect basePath={basePath} />} />
    </Routes>
  );
}

function ClientDocuments() {
  const { companyHash = '' } = useParams();
  return <CompanyDocuments companyHash={companyHash} />;
}

/** /documents alone goes to the selected entity's documents. */
function SelectedEntityRedirect({ basePath }: { basePath: string }) {
  const { entity, entities } = useSelectedEntity();
  const target = entity ?? entities[0];
  if (!target)
    return (
      <Center p="xl">
        <Text c="dimmed">No entity to show documents for.</Text>
      </Center>
    );
  return <Navigate to={`${basePath.replace(/\/$/, '')}/${target.hash_id}`} replace />;
}

export function CompanyDocuments({ companyHash }: { companyHash: string }) {
  const api = useApi();
  const user = useCurrentUser();
  const firm = useCurrentFirm();
  const { entities } = useSelectedEntity();
  const company = useQuery({
    queryKey: ['documents', 'company', companyHash],
    queryFn: () => resolveCompany(api, companyHash, entities),
    staleTime: 5 * 60_000,
  });
  const docs = useMemo(() => documentsApi(api.client), [api.client]);
  const me = user.data;
  const prefs = firm.data?.preferences;
  const entity = company.data;
  const caps = useMemo(
    () =>
      me && entity
        ? capabilitiesFor({
            role: me.is_advisor ? 'advisor' : 'client',
            firmAccess: me.firm_access,
            userReadOnly: me.readonly_access,
            entityReadOnly: entity.readonly_access,
            entityInactive: entity.inactive,
            preferences: prefs,
            blockedFolders: entity.folders_where_client_actions_disabled,
          })
        : null,
    [me, entity, prefs],
  );

  if (user.isPending || firm.isPending || company.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (user.isError || firm.isError || company.isError) return <ErrorFallback />;
  if (!entity || !caps) {
    return (
      <Stack p="xl" data-testid="entity-not-found">
        <Title order={1} size="h3">
          Entity not found
        </Title>
        <Text>This entity does not exist or you do not have access to it.</Text>
      </Stack>
    );
  }
  // One file manager per entity: another entity (the same route, its company already known) starts
  // afresh, with nothing of the last one's search, selection or dialogs; its uploads stay in the tray.
  return (
    <FileManager
      key={entity.id}
      api={docs}
      company={entity}
      caps={caps}
      firmTags={(firm.data?.document_tags as string[] | undefined) ?? []}
    />
  );
}
