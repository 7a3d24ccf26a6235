import {
  type AccessContext,
  buildNavigation,
  NavLink,
  type RemoteDescriptor,
  ScrollArea,
  Stack,
} from '@portico/kit';
import { Link, matchPath, useLocation } from 'react-router';
import { isCurrentPage } from './current-page.js';
import { EntitySwitcher } from './EntitySwitcher.js';
import { ENTITY_PAGES } from './recent-entities.js';

/** Which variant of the left navigation a path shows (spec 1 s.2.2). */
export function navVariant(pathname: string): {
  section: 'main' | 'entity' | 'user';
  companyHash?: string;
  userId?: string;
} {
  const entity = matchPath(ENTITY_PAGES, pathname);
  if (entity?.params.companyHash) return { section: 'entity', companyHash: entity.params.companyHash };
  const user = matchPath('/clients/:userId/*', pathname);
  if (user?.params.userId) return { section: 'user', userId: user.params.userId };
  return { section: 'main' };
}

function NavItems({
  items,
  isActive,
}: {
  items: ReturnType<typeof buildNavigation>;
  isActive: (path: string) => boolean;
}) {
  return items.map((item) => {
    const current = isActive(item.path);
    return (
      <NavLink
        key={item.id}
        component={Link}
        to={item.path}
        label={item.label}
        active={current}
        aria-current={current ? 'page' : undefined}
        // Besides the tint: a bar and bold text, for those who cannot tell the tint.
        fw={current ? 700 : undefined}
        style={current ? { boxShadow: 'inset 3px 0 0 var(--mantine-primary-color-filled)' } : undefined}
        data-nav-id={item.id}
      />
    );
  });
}

export function LeftNavigation({
  descriptors,
  ctx,
  userId,
}: {
  descriptors: readonly RemoteDescriptor[];
  ctx: AccessContext;
  userId: string;
}) {
  const location = useLocation();
  const variant = navVariant(location.pathname);
  const params = { companyHash: variant.companyHash, userId: variant.userId };
  const upper = buildNavigation(descriptors, variant.section, ctx, params);
  const lower = buildNavigation(descriptors, 'lower', ctx, params);
  const isActive = (path: string) => isCurrentPage(location.pathname, path);
  return (
    <Stack
      justify="space-between"
      h="100%"
      gap={0}
      component="nav"
      aria-label="Main navigation"
      data-nav-variant={variant.section}
    >
      <ScrollArea>
        {/* In the entity navigation, as the spec has it; in the main one too while no Entities list is built. */}
        {(variant.section === 'entity' ||
          (variant.section === 'main' && !upper.some((item) => item.id === 'entities'))) && (
          <Stack p="xs" pb="sm" data-testid="entity-switcher">
            <EntitySwitcher
              key={variant.companyHash ?? 'main'}
              userId={userId}
              label={variant.section === 'entity' ? 'Switch entity' : 'Go to an entity'}
            />
          </Stack>
        )}
        <NavItems items={upper} isActive={isActive} />
      </ScrollArea>
      <Stack gap={0} data-testid="nav-lower">
        <NavItems items={lower} isActive={isActive} />
      </Stack>
    </Stack>
  );
}
