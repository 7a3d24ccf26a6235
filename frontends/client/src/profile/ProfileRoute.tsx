import {
  Loader,
  type RemoteRouteProps,
  Stack,
  Text,
  Title,
  useCurrentUser,
  useSelectedEntity,
} from '@portico/kit';

/** /profile: the client profile (the editor itself is the next step of issue 3). */
export default function ProfileRoute(_props: RemoteRouteProps) {
  const user = useCurrentUser();
  const { entity } = useSelectedEntity();
  if (!user.data) return <Loader aria-label="Loading" />;
  return (
    <Stack>
      <Title order={2}>Profile</Title>
      <Text>{user.data.email}</Text>
      {entity && <Text c="dimmed">{entity.name}</Text>}
    </Stack>
  );
}
