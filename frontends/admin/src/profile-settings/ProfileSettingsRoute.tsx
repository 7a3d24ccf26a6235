import { Loader, type RemoteRouteProps, Stack, Text, Title, useCurrentUser } from '@portico/kit';

/** /admin-profile: advisor Profile Settings (the editor itself is the next step of issue 3). */
export default function ProfileSettingsRoute(_props: RemoteRouteProps) {
  const user = useCurrentUser();
  if (!user.data) return <Loader aria-label="Loading" />;
  return (
    <Stack>
      <Title order={2}>Profile Settings</Title>
      <Text>
        {user.data.fname} {user.data.lname}
      </Text>
      <Text c="dimmed">{user.data.email}</Text>
    </Stack>
  );
}
