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
  useElementHeight,
} from '@portico/kit';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAreas } from '../app/areas-context.js';
import { LeftNavigation } from './LeftNavigation.js';
import { UserMenu } from './UserMenu.js';

export interface LayoutProps {
  user: CurrentUser;
  firm: CurrentFirm;
  ctx: AccessContext;
}

const HEADER_HEIGHT = 56;

/** Firm staff: header, the left navigation and the area. */
export function AdvisorLayout({ user, firm, ctx }: LayoutProps) {
  const [opened, { toggle, close }] = useDisclosure();
  const { descriptors } = useAreas();
  // On a phone the navigation covers the page: going to a page closes it, also the page already shown
  // (a link to the current address makes a new location with the same path, so the key is watched).
  const { key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation, by intent
  useEffect(() => close(), [key]);
  // The firm's banner is part of the fixed header, which grows by its height (it wraps on narrow
  // screens), so the navigation and the page start below it instead of under it.
  const banner = useElementHeight();
  return (
    <AppShell
      header={{ height: HEADER_HEIGHT + banner.height }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <div ref={banner.ref}>
          <InAppBanner
            enabled={firm.preferences.in_app_banner_enabled}
            text={firm.preferences.in_app_banner_text}
          />
        </div>
        <Group h={HEADER_HEIGHT} px="md" justify="space-between">
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
      {/* A plain box: the left navigation inside is the page's one navigation landmark, which a nav here
          would wrap in a second, unnamed one. */}
      <AppShell.Navbar p="xs" component="div">
        <LeftNavigation descriptors={descriptors} ctx={ctx} userId={user.id} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
