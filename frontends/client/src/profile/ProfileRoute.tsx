import {
  CURRENT_USER_KEY,
  type CurrentUser,
  Divider,
  errorMessage,
  Loader,
  type RemoteRouteProps,
  Stack,
  Text,
  Title,
  toast,
  useApi,
  useCurrentUser,
  useSelectedEntity,
} from '@portico/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { EntityProfileForm } from '../entity/EntityProfileForm.js';
import { BUILD_MARKER } from '../release.js';
import { ClientProfileForm } from './ClientProfileForm.js';
import { PROFILE_MESSAGES } from './profile-rules.js';

/**
 * Opens the emailed confirmation link of a changed email (/profile?email_token=...): POST
 * /users/confirm_email once, then the token leaves the address bar.
 */
function useEmailConfirmation() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const token = params.get('email_token');
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    api.client
      .post<CurrentUser>('/users/confirm_email', { token }, { auth: false })
      .then((user) => {
        toast.success(PROFILE_MESSAGES.emailConfirmed);
        queryClient.setQueryData(CURRENT_USER_KEY, user);
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      })
      .catch((err) => toast.error(errorMessage(err)))
      .finally(() => {
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete('email_token');
            return next;
          },
          { replace: true },
        );
      });
  }, [token, api, queryClient, setParams]);
}

/** /profile: the client's own profile and the profile of the entity selected in the shell. */
export default function ProfileRoute(_props: RemoteRouteProps) {
  useEmailConfirmation();
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
