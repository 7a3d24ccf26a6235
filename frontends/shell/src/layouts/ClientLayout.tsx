import {
  Alert,
  Box,
  Button,
  buildNavigation,
  CLIENT_MOBILE_SEGMENTS,
  CURRENT_USER_KEY,
  ENTITIES_FAILED,
  type Entity,
  errorMessage,
  Group,
  Image,
  InAppBanner,
  InactiveEntitiesOverlay,
  Loader,
  ReadOnlyBanner,
  SegmentedControl,
  SelectedEntityContext,
  Stack,
  Text,
  toast,
  useApi,
  useShell,
} from '@portico/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useAreas } from '../app/areas-context.js';
import type { LayoutProps } from './AdvisorLayout.js';
import { ClientEntitySelector } from './ClientEntitySelector.js';
import { isCurrentPage } from './current-page.js';
import { entityOfPath, samePageFor } from './entity-page.js';
import { UserMenu } from './UserMenu.js';

export const CLIENT_ENTITIES_KEY = ['client_entities'] as const;

/** Clients: header with the entity selector, read-only banners, mobile segments, and the area. */
export function ClientLayout({ user, firm, ctx }: LayoutProps) {
  const api = useApi();
  const { signOut } = useShell();
  const queryClient = useQueryClient();
  const { descriptors } = useAreas();
  const location = useLocation();
  const navigate = useNavigate();
  const entities = useQuery({
    queryKey: CLIENT_ENTITIES_KEY,
    queryFn: () => api.companies.listAll(),
  });
  const [chosenId, setChosenId] = useState<string | null>(null);
  const setDefault = useMutation({
    mutationFn: (entity: Entity) => api.companies.setDefault(entity.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
    // Spec 1 s.8: a failed call shows an error toast built from the server's error.
    onError: (err) => toast.error(errorMessage(err)),
  });

  const list = entities.data?.companies ?? [];
  // The page's own entity first (a link to another entity's documents shows that entity selected),
  // then the one chosen here, then the user's default.
  const selected = useMemo(
    () =>
      entityOfPath(location.pathname, list) ??
      list.find((e) => e.id === chosenId) ??
      list.find((e) => e.id === user.default_company_id) ??
      list[0] ??
      null,
    [list, location.pathname, chosenId, user.default_company_id],
  );
  /**
   * Choosing an entity on a page of another one opens the same page for the chosen one, and makes it the
   * user's default (the first shown next time).
   */
  const select = (entity: Entity) => {
    setChosenId(entity.id);
    // A read-only account changes nothing, its default entity included: its choice holds for this visit.
    if (!user.readonly_access) setDefault.mutate(entity);
    const samePage = selected && samePageFor(location.pathname, selected.hash_id, entity.hash_id);
    if (samePage && samePage !== location.pathname) navigate(samePage);
  };
  const params = { companyHash: selected?.hash_id };
  const items = buildNavigation(descriptors, 'client', ctx, params);
  const segments = items.filter((i) => (CLIENT_MOBILE_SEGMENTS as string[]).includes(i.id));
  // On a phone the header's links are hidden: the segments take Dashboard and Documents (when both
  // exist), and the other pages (Profile, ...) are links under the header, so every page stays reachable.
  const phoneLinks = segments.length > 1 ? items.filter((i) => !segments.includes(i)) : items;
  const activeSegment = segments.find((s) => isCurrentPage(location.pathname, s.path));
  /** A header link, marked (and bold) when it is the page shown. */
  const pageLink = (item: (typeof items)[number], weight?: number) => {
    const current = isCurrentPage(location.pathname, item.path);
    return (
      <Text
        key={item.id}
        component={Link}
        to={item.path}
        size="sm"
        fw={current ? 700 : weight}
        td={current ? 'underline' : undefined}
        aria-current={current ? 'page' : undefined}
        data-nav-id={item.id}
      >
        {item.label}
      </Text>
    );
  };

  if (entities.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading" />
      </Group>
    );
  }
  // Spec 1 s.2.10: such a client sees only the message and Sign out. Nothing else is rendered behind it,
  // or the keyboard and screen readers would still reach the page the overlay only covers.
  if (entities.isSuccess && entities.data.total_count === 0)
    return <InactiveEntitiesOverlay onSignOut={() => void signOut()} />;

  return (
    <SelectedEntityContext.Provider value={{ entity: selected, entities: list, select }}>
      <InAppBanner
        enabled={firm.preferences.in_app_banner_enabled}
        text={firm.preferences.in_app_banner_text}
      />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Group justify="space-between">
          <Group gap="md">
            {firm.logo_url && <Image src={firm.logo_url} alt="" h={32} w="auto" />}
            <Text fw={600}>{firm.name}</Text>
            <ClientEntitySelector entities={list} selected={selected} onSelect={select} />
          </Group>
          <Group gap="md" component="nav" aria-label="Client navigation" visibleFrom="sm">
            {items.map((i) => pageLink(i))}
          </Group>
          <UserMenu user={user} />
        </Group>
      </Box>
      {phoneLinks.length > 0 && (
        <Group
          hiddenFrom="sm"
          gap="lg"
          px="md"
          py={8}
          component="nav"
          aria-label="Client pages"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          {phoneLinks.map((i) => pageLink(i, 500))}
        </Group>
      )}
      {segments.length > 1 && (
        <SegmentedControl
          hiddenFrom="sm"
          fullWidth
          m="sm"
          data={segments.map((s) => ({ value: s.path, label: s.label }))}
          value={activeSegment?.path ?? ''}
          onChange={(path) => navigate(path)}
          data-testid="mobile-segments"
        />
      )}
      <Stack component="main" p="md" gap="md">
        {entities.isError && (
          // Without the list the pages of an entity (Documents, the entity profile) cannot be offered:
          // said so, instead of a client who seems to have no entity.
          <Alert color="red" role="alert" title={ENTITIES_FAILED} data-testid="entities-failed">
            <Button size="xs" variant="light" mt="xs" onClick={() => void entities.refetch()}>
              Try again
            </Button>
          </Alert>
        )}
        {user.readonly_access && <ReadOnlyBanner variant="account" />}
        {!user.readonly_access && selected?.readonly_access && <ReadOnlyBanner variant="entity" />}
        <Outlet />
      </Stack>
    </SelectedEntityContext.Provider>
  );
}
