import {
  type AccessContext,
  AppShell,
  Burger,
  type CurrentFirm,
  type CurrentUser,
  Group,
  Image,
  InAppBanner,
  Text,
  useDisclosure,
} from '@portico/kit';
import { Outlet } from 'react-router';
import { useAreas } from '../app/areas-context.js';
import { LeftNavigation } from './LeftNavigation.js';
import { UserMenu } from './UserMenu.js';

export interface LayoutProps {
  user: CurrentUser;
  firm: CurrentFirm;
  ctx: AccessContext;
}

/** Firm staff: header, the left navigation and the area. */
export function AdvisorLayout({ user, firm, ctx }: LayoutProps) {
  const [opened, { toggle }] = useDisclosure();
  const { descriptors } = useAreas();
  return (
    <>
      <InAppBanner
        enabled={firm.preferences.in_app_banner_enabled}
        text={firm.preferences.in_app_banner_text}
      />
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group gap="sm">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
              />
              {firm.logo_url && <Image src={firm.logo_url} alt="" h={32} w="auto" />}
              <Text fw={600}>{firm.name}</Text>
            </Group>
            <UserMenu user={user} />
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <LeftNavigation descriptors={descriptors} ctx={ctx} userId={user.id} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
