import type { RemoteDescriptor } from '../federation/descriptor.js';
import { type NavItem, type NavSection, SPEC_NAV } from './catalogue.js';
import { type AccessContext, isAllowed } from './rules.js';

const ORDER = new Map<string, number>(SPEC_NAV.map((item, index) => [item.id, index]));

/**
 * The items of one navigation section the user may see, from the descriptors of the loaded areas, in
 * the spec's order (items the catalogue does not know go last, in descriptor order). Duplicates by id
 * keep the first.
 */
export function buildNavigation(
  descriptors: readonly RemoteDescriptor[],
  section: NavSection,
  ctx: AccessContext,
  params: { companyHash?: string; userId?: string } = {},
): NavItem[] {
  const seen = new Set<string>();
  const items: NavItem[] = [];
  for (const descriptor of descriptors) {
    for (const item of descriptor.nav ?? []) {
      if (item.section !== section || seen.has(item.id) || !isAllowed(item, ctx)) continue;
      if (descriptor.access && !isAllowed(descriptor.access, ctx)) continue;
      const path = fillPath(item.path, params);
      if (path === null) continue;
      seen.add(item.id);
      items.push({ ...item, path });
    }
  }
  return items.sort((a, b) => (ORDER.get(a.id) ?? 1e6) - (ORDER.get(b.id) ?? 1e6));
}

function fillPath(path: string, params: { companyHash?: string; userId?: string }): string | null {
  let missing = false;
  const filled = path.replace(/:(companyHash|userId)/g, (_m, key: 'companyHash' | 'userId') => {
    const value = params[key];
    if (!value) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : filled;
}
