import type { ComponentType } from 'react';
import type { NavItem } from '../navigation/catalogue.js';
import type { AccessRule } from '../navigation/rules.js';

/** The shell's layouts: advisor (left navigation), client, centered and public (no navigation). */
export type Layout = 'advisor' | 'client' | 'centered' | 'public';

export interface RemoteRoute extends AccessRule {
  /** Absolute path the area owns, e.g. '/admin-profile'; the area gets everything below it too. */
  path: string;
  /** The exposed module that renders this route (default './App'). */
  module?: string;
  layout: Layout;
  /** The landing page of the audience ('/' for it), e.g. the client dashboard. */
  home?: boolean;
}

/**
 * How a remote describes itself to the shell (exposed as './descriptor', default export). The shell
 * builds routes and navigation from these; nothing about an area is hard-coded in the shell.
 */
export interface RemoteDescriptor {
  /** The federation name, as in runtime-config.json `remotes`. */
  name: string;
  routes: RemoteRoute[];
  nav?: NavItem[];
  /** A rule for the whole area (e.g. a preference that switches it on). */
  access?: AccessRule;
  /** Firm preferences the area reads, for documentation and the settings screen. */
  flags?: string[];
}

/** Props the shell gives every route module of a remote. */
export interface RemoteRouteProps {
  /** The path the shell mounted the module at, e.g. '/admin-profile'. Routes inside are relative. */
  basePath: string;
}

export type RemoteRouteModule = { default: ComponentType<RemoteRouteProps> };

export const defineDescriptor = (d: RemoteDescriptor) => d;
