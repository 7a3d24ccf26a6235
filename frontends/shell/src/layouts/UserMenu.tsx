import { Button, type CurrentUser, Group, Text, useShell } from '@portico/kit';

export function UserMenu({ user }: { user: CurrentUser }) {
  const { signOut } = useShell();
  return (
    <Group gap="sm">
      <Text size="sm" visibleFrom="sm">
        {[user.fname, user.lname].filter(Boolean).join(' ') || user.email}
      </Text>
      <Button variant="subtle" size="xs" onClick={() => void signOut()}>
        Sign out
      </Button>
    </Group>
  );
}
