import {
  Alert,
  type Entity,
  ErrorFallback,
  isApiError,
  Loader,
  type RemoteRouteProps,
  Select,
  Stack,
  Text,
  Title,
  useApi,
} from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Route, Routes, useParams, useSearchParams } from 'react-router';
import { EntityProfileForm } from '../entity/EntityProfileForm.js';
import { ClientProfileForm } from '../profile/ClientProfileForm.js';

/** Entities shown in the preview's entity picker at most. */
const PREVIEW_ENTITIES = 20;

/**
 * /preview/user/{previewUserId}?previewCompanyHash={hash}: an advisor sees a client's profile as the
 * client does, read-only (spec 1 s.2.1, s.6: a preview user cannot edit the profile).
 */
export default function PreviewUserRoute(_props: RemoteRouteProps) {
  return (
    <Routes>
      <Route path=":previewUserId/*" element={<PreviewUser />} />
      <Route path="*" element={<ErrorFallback />} />
    </Routes>
  );
}

function PreviewUser() {
  const { previewUserId = '' } = useParams();
  const [params] = useSearchParams();
  const api = useApi();
  const user = useQuery({
    queryKey: ['preview_user', previewUserId],
    queryFn: () => api.users.getUser(previewUserId),
  });
  const companyIds = user.data?.company_ids.slice(0, PREVIEW_ENTITIES) ?? [];
  const entities = useQuery({
    queryKey: ['preview_user_entities', previewUserId, companyIds],
    queryFn: () => Promise.all(companyIds.map((id) => api.companies.get(id))),
    enabled: companyIds.length > 0,
  });
  const [chosen, setChosen] = useState<string | null>(null);

  if (user.isPending) return <Loader aria-label="Loading" />;
  if (isApiError(user.error) && user.error.status === 404) return <UserNotFound />;
  if (user.isError || !user.data) return <ErrorFallback />;
  const client = user.data;
  const list: Entity[] = entities.data ?? [];
  const hash = params.get('previewCompanyHash');
  const entity =
    list.find((e) => e.id === chosen) ?? list.find((e) => hash && e.hash_id === hash) ?? list[0] ?? null;
  return (
    <Stack gap="lg" data-testid="profile-preview">
      <Alert color="gray" variant="light">
        Preview of {client.full_name || client.email}'s profile as they see it. Nothing can be changed here.
      </Alert>
      <Title order={1} size="h2">
        Profile
      </Title>
      <ClientProfileForm user={client} preview />
      {list.length > 1 && (
        <Select
          label="Entity"
          w={320}
          data={list.map((e) => ({ value: e.id, label: e.name }))}
          value={entity?.id ?? null}
          allowDeselect={false}
          onChange={(v) => setChosen(v)}
        />
      )}
      {entity ? (
        <EntityProfileForm key={entity.id} entity={entity} preview />
      ) : (
        entities.isPending && companyIds.length > 0 && <Text c="dimmed">Loading entities…</Text>
      )}
    </Stack>
  );
}

/** A user id that is not a client of the advisor's firm (or no user at all): the gateway answers 404. */
function UserNotFound() {
  return (
    <Stack data-testid="user-not-found">
      <Title order={1} size="h3">
        User not found
      </Title>
      <Text>This user does not exist or you do not have access to it.</Text>
    </Stack>
  );
}
