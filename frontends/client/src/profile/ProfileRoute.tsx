import {
  Divider,
  Loader,
  type RemoteRouteProps,
  Stack,
  Text,
  Title,
  useCurrentUser,
  useEmailConfirmationLink,
  useSelectedEntity,
} from '@portico/kit';
import { EntityProfileForm } from '../entity/EntityProfileForm.js';
import { BUILD_MARKER } from '../release.js';
import { ClientProfileForm } from './ClientProfileForm.js';

/** /profile: the client's own profile and the profile of the entity selected in the shell. */
export default function ProfileRoute(_props: RemoteRouteProps) {
  useEmailConfirmationLink();
  const user = useCurrentUser();
  const { entity } = useSelectedEntity();
  if (!user.data) return <Loader aria-label="Loading" />;
  const me = user.data;
  return (
    <Stack gap="lg" data-testid="client-profile">
      <Title order={1} size="h2">
        Profile
      </Title>
      {/* A confirmed email change restarts the form from the server's values. */}
      <ClientProfileForm key={`${me.id}:${me.email}`} user={me} readOnly={me.readonly_access} />
      {entity && (
        <>
          <Divider />
          <EntityProfileForm
            key={entity.id}
            entity={entity}
            readOnly={me.readonly_access || entity.readonly_access}
          />
        </>
      )}
      {BUILD_MARKER && (
        <Text size="xs" c="dimmed" data-testid="build-marker">
          {BUILD_MARKER}
        </Text>
      )}
    </Stack>
  );
}
