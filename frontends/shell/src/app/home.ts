import { type AccessContext, buildNavigation, type RemoteDescriptor } from '@portico/kit';

/**
 * Where '/' leads: an area route marked `home` for the audience, else the first navigation item the
 * user may see (advisors: main then lower items; clients: client items).
 */
export function homePath(descriptors: readonly RemoteDescriptor[], ctx: AccessContext): string | undefined {
  const layout = ctx.isAdvisor ? 'advisor' : 'client';
  for (const d of descriptors) {
    const home = d.routes.find((r) => r.home && r.layout === layout);
    if (home) return home.path;
  }
  const sections = ctx.isAdvisor ? (['main', 'lower'] as const) : (['client'] as const);
  for (const section of sections) {
    const first = buildNavigation(descriptors, section, ctx)[0];
    if (first) return first.path;
  }
  return undefined;
}
