import type { AccessRule } from './rules.js';

export type NavSection = 'main' | 'lower' | 'entity' | 'user' | 'client' | 'client-mobile';

export interface NavItem extends AccessRule {
  id: string;
  label: string;
  /** Absolute path; ':companyHash' and ':userId' are filled from the current location. */
  path: string;
  section: NavSection;
}

const advisor = 'advisor' as const;
const client = 'client' as const;

/**
 * Every navigation item of spec 1 s.2.2 with its rule, in display order. A remote's descriptor picks the
 * items its area provides (`specNav('profile-settings')`); the shell shows only items some loaded
 * descriptor provides, so items of areas not built yet never show.
 */
export const SPEC_NAV = [
  // Main variant
  { id: 'collect', label: 'Collect', path: '/overview', section: 'main', audience: advisor },
  {
    id: 'templates',
    label: 'Templates',
    path: '/templates',
    section: 'main',
    audience: advisor,
    when: (ctx) =>
      ctx.firmAccess === 'partner' ||
      (ctx.firmAccess === 'full' && ctx.preferences.template_disabled_for_nonadmin !== true),
  },
  { id: 'entities', label: 'Entities', path: '/admin', section: 'main', audience: advisor },
  { id: 'users', label: 'Users', path: '/clients', section: 'main', audience: advisor },
  {
    id: 'messages',
    label: 'Messages',
    path: '/messages',
    section: 'main',
    audience: advisor,
    hiddenBy: ['communication_disabled'],
  },
  {
    id: 'deliver',
    label: 'Deliver',
    path: '/tax-returns',
    section: 'main',
    audience: advisor,
    requires: ['new_tax_return_delivery_enabled'],
  },
  {
    id: 'connect',
    label: 'Connect',
    path: '/review-and-export',
    section: 'main',
    audience: advisor,
    requires: ['review_and_export_enabled'],
  },
  {
    id: 'signatures',
    label: 'Signatures',
    path: '/signature-requests',
    section: 'main',
    audience: advisor,
    requires: ['signature_requests_enabled'],
  },
  {
    id: 'activities',
    label: 'Activities',
    path: '/activities',
    section: 'main',
    audience: advisor,
    requires: ['all_activities_enabled'],
  },
  { id: 'import-lists', label: 'Import progress', path: '/import-lists', section: 'main', audience: advisor },
  // Lower items
  {
    id: 'drop-link',
    label: 'Drop Link',
    path: '/drop-link-settings',
    section: 'lower',
    audience: advisor,
    firmAccess: ['partner', 'admin', 'full'],
    requires: ['drop_link_enabled'],
  },
  {
    id: 'firm-roles',
    label: 'Firm Roles',
    path: '/settings/roles',
    section: 'lower',
    audience: advisor,
    firmAccess: ['partner', 'admin'],
    requires: ['use_firm_roles'],
  },
  {
    id: 'firm-settings',
    label: 'Firm Settings',
    path: '/firm',
    section: 'lower',
    audience: advisor,
    firmAccess: ['partner'],
  },
  {
    id: 'guide',
    label: 'Guide',
    path: '/admin-guide',
    section: 'lower',
    audience: advisor,
    requires: ['tour_enabled'],
  },
  {
    id: 'profile-settings',
    label: 'Profile Settings',
    path: '/admin-profile',
    section: 'lower',
    audience: advisor,
  },
  // Entity variant
  { id: 'entity-overview', label: 'Overview', path: '/overview', section: 'entity', audience: advisor },
  { id: 'back-to-entities', label: 'Back to Entities', path: '/admin', section: 'entity', audience: advisor },
  {
    id: 'entity-dashboard',
    label: 'Dashboard',
    path: '/admin/:companyHash',
    section: 'entity',
    audience: advisor,
  },
  {
    id: 'entity-messages',
    label: 'Messages',
    path: '/admin/:companyHash/messages',
    section: 'entity',
    audience: advisor,
    hiddenBy: ['communication_disabled'],
  },
  {
    id: 'entity-documents',
    label: 'Documents',
    path: '/admin/:companyHash/documents',
    section: 'entity',
    audience: advisor,
  },
  {
    id: 'entity-connect',
    label: 'Connect',
    path: '/admin/:companyHash/connect',
    section: 'entity',
    audience: advisor,
    when: (ctx) => ctx.entity?.entity_type === 'Individual',
  },
  // User variant
  { id: 'user-overview', label: 'Overview', path: '/overview', section: 'user', audience: advisor },
  { id: 'back-to-users', label: 'Back to Users', path: '/clients', section: 'user', audience: advisor },
  { id: 'user-dashboard', label: 'Dashboard', path: '/clients/:userId', section: 'user', audience: advisor },
  // Client navigation and mobile segments
  { id: 'client-dashboard', label: 'Dashboard', path: '/', section: 'client', audience: client },
  {
    id: 'client-inbox',
    label: 'Inbox',
    path: '/inbox',
    section: 'client',
    audience: client,
    hiddenBy: ['communication_disabled'],
  },
  {
    id: 'client-documents',
    label: 'Documents',
    path: '/documents/:companyHash',
    section: 'client',
    audience: client,
    hiddenBy: ['hide_documents_view_from_clients'],
  },
  { id: 'client-profile', label: 'Profile', path: '/profile', section: 'client', audience: client },
] as const satisfies readonly NavItem[];

export type SpecNavId = (typeof SPEC_NAV)[number]['id'];

/** The spec's item by id, optionally with another path. */
export function specNav(id: SpecNavId, overrides: Partial<Pick<NavItem, 'path' | 'label'>> = {}): NavItem {
  const item = SPEC_NAV.find((i) => i.id === id);
  if (!item) throw new Error(`Unknown navigation item ${id}`);
  return { ...(item as NavItem), ...overrides };
}

/** The two mobile segments of the client layout (spec 1 s.2.2). */
export const CLIENT_MOBILE_SEGMENTS: SpecNavId[] = ['client-dashboard', 'client-documents'];
