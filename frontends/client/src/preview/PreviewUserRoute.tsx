import {
  Alert,
  Button,
  ENTITIES_FAILED,
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
  const hash = params.get('previewCompanyHash');
  // The entity the link names, read by its hash whether or not it is among the first ones listed; only
  // one of the client's own is shown (a hash of another entity, or a mistyped one, is said to be so).
  const asked = useQuery({
    queryKey: ['preview_user_entity', hash],
    queryFn: () =>
      api.companies.get(hash as string).catch((err: unknown) => {
        if (isApiError(err) && err.status === 404) return null;
        throw err;
      }),
    enabled: !!hash,
  });
  const [chosen, setChosen] = useState<string | null>(null);

  if (user.isPending || (hash && asked.isPending)) return <Loader aria-label="Loading" />;
  if (isApiError(user.error) && user.error.status === 404) return <UserNotFound />;
  if (user.isError || !user.data || asked.isError) return <ErrorFallback />;
  const client = user.data;
  const askedOwn = asked.data && client.company_ids.includes(asked.data.id) ? asked.data : null;
  const listed: Entity[] = entities.data ?? [];
  const list = askedOwn && !listed.some((e) => e.id === askedOwn.id) ? [askedOwn, ...listed] : listed;
  const notTheirs = !!hash && !askedOwn;
  const entity = list.find((e) => e.id === chosen) ?? (notTheirs ? null : (askedOwn ?? list[0] ?? null));
  return (
    <Stack gap="lg" data-testid="profile-preview">
      <Alert color="gray" variant="light">
        Preview of {client.full_name || client.email}'s profile as they see it. Nothing can be changed here.
      </Alert>
      <Title order={1} size="h2">
        Profile
      </Title>
      <ClientProfileForm key={client.id} user={client} preview />
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
      {notTheirs && !entity && (
        <Alert color="yellow" variant="light" data-testid="preview-entity-not-found">
          The entity in this link is not one of {client.full_name || client.email}'s entities.
        </Alert>
      )}
      {entities.isError && !entity && (
        // Said so, instead of a client who seems to have no entity.
        <Alert color="red" role="alert" title={ENTITIES_FAILED} data-testid="preview-entities-failed">
          <Button size="xs" variant="light" mt="xs" onClick={() => void entities.refetch()}>
            Try again
          </Button>
        </Alert>
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
