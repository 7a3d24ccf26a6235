import type { RemoteRoute } from '@portico/kit';
import { matchPath } from 'react-router';
import type { AreaStatus } from '../remotes/registry.js';

/** A route path for react-router: '/admin-profile' owns '/admin-profile/*'. */
export const pattern = (path: string) => (path === '/' ? '/' : `${path.replace(/\/$/, '')}/*`);

/** A page anyone may open, with or without a session (a drop-off form): the public layout or audience. */
export const isPublicRoute = (route: RemoteRoute) => route.layout === 'public' || route.audience === 'public';

/** Whether `pathname` is one of the areas' public pages. */
export function isPublicPath(areas: AreaStatus[], pathname: string): boolean {
  return areas.some((area) =>
    area.descriptor?.routes.some((route) => isPublicRoute(route) && matchPath(pattern(route.path), pathname)),
  );
}
