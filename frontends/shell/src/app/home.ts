import { type AccessContext, buildNavigation, type RemoteDescriptor } from '@portico/kit';

/**
 * The lower item an advisor lands on when no main item is built: their own Profile Settings, which
 * every advisor has, rather than a firm-wide page such as Drop Link that only comes first in the list.
 */
const ADVISOR_FALLBACK_ITEM = 'profile-settings';

/**
 * A client item of one entity ('/documents/:companyHash') is also served without the entity: its area
 * opens the selected entity's page ('/documents'). Where '/' leads is decided before the entities load.
 */
const SELECTED_ENTITY = 'selected-entity';

/**
 * Where '/' leads: an area route marked `home` for the audience, else the first navigation item the
 * user may see (advisors: main items, then their Profile Settings, then other lower items; clients:
 * client items in the spec's order, so Documents before Profile while no area serves the Dashboard).
 */
export function homePath(descriptors: readonly RemoteDescriptor[], ctx: AccessContext): string | undefined {
  const layout = ctx.isAdvisor ? 'advisor' : 'client';
  for (const d of descriptors) {
    const home = d.routes.find((r) => r.home && r.layout === layout);
    if (home) return home.path;
  }
  if (!ctx.isAdvisor)
    return buildNavigation(descriptors, 'client', ctx, { companyHash: SELECTED_ENTITY })[0]?.path.replace(
      `/${SELECTED_ENTITY}`,
      '',
    );
  const main = buildNavigation(descriptors, 'main', ctx);
  if (main[0]) return main[0].path;
  const lower = buildNavigation(descriptors, 'lower', ctx);
  return (lower.find((item) => item.id === ADVISOR_FALLBACK_ITEM) ?? lower[0])?.path;
}
