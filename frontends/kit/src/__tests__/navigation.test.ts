import { describe, expect, it } from '@jest/globals';
import type { FirmPreferences } from '../api/users.js';
import type { RemoteDescriptor } from '../federation/descriptor.js';
import { SPEC_NAV, specNav } from '../navigation/catalogue.js';
import { buildNavigation } from '../navigation/navigation.js';
import type { AccessContext } from '../navigation/rules.js';

/** Every spec item provided by some area (as if all areas were built). */
const everything: RemoteDescriptor = { name: 'all', routes: [], nav: SPEC_NAV.map((i) => specNav(i.id)) };

const DEFAULTS: Partial<FirmPreferences> = {
  communication_disabled: false,
  new_tax_return_delivery_enabled: true,
  review_and_export_enabled: false,
  signature_requests_enabled: true,
  all_activities_enabled: true,
  drop_link_enabled: true,
  tour_enabled: true,
  template_disabled_for_nonadmin: false,
  hide_documents_view_from_clients: false,
  use_firm_roles: false,
};

const advisor = (firmAccess: string, prefs: Partial<FirmPreferences> = {}): AccessContext => ({
  signedIn: true,
  isAdvisor: true,
  firmAccess,
  preferences: { ...DEFAULTS, ...prefs },
});
const client = (prefs: Partial<FirmPreferences> = {}): AccessContext => ({
  signedIn: true,
  isAdvisor: false,
  preferences: { ...DEFAULTS, ...prefs },
});
const labels = (section: Parameters<typeof buildNavigation>[1], ctx: AccessContext, params = {}) =>
  buildNavigation([everything], section, ctx, params).map((i) => i.label);

describe('advisor lower items by role and preference (spec 1 s.2.2)', () => {
  it('partner: Drop Link, Firm Settings, Guide, Profile Settings; Firm Roles when firm roles are on', () => {
    expect(labels('lower', advisor('partner'))).toEqual([
      'Drop Link',
      'Firm Settings',
      'Guide',
      'Profile Settings',
    ]);
    expect(labels('lower', advisor('partner', { use_firm_roles: true }))).toEqual([
      'Drop Link',
      'Firm Roles',
      'Firm Settings',
      'Guide',
      'Profile Settings',
    ]);
  });

  it('admin: no Firm Settings', () => {
    expect(labels('lower', advisor('admin', { use_firm_roles: true }))).toEqual([
      'Drop Link',
      'Firm Roles',
      'Guide',
      'Profile Settings',
    ]);
  });

  it('full: Drop Link but no Firm Roles', () => {
    expect(labels('lower', advisor('full', { use_firm_roles: true }))).toEqual([
      'Drop Link',
      'Guide',
      'Profile Settings',
    ]);
  });

  it('group: Guide and Profile Settings only', () => {
    expect(labels('lower', advisor('group', { use_firm_roles: true }))).toEqual([
      'Guide',
      'Profile Settings',
    ]);
  });

  it('drop link off and tour off hide Drop Link and Guide', () => {
    expect(labels('lower', advisor('partner', { drop_link_enabled: false, tour_enabled: false }))).toEqual([
      'Firm Settings',
      'Profile Settings',
    ]);
  });
});

describe('advisor main items and feature flags', () => {
  it('shows the default set for a partner', () => {
    expect(labels('main', advisor('partner'))).toEqual([
      'Collect',
      'Templates',
      'Entities',
      'Users',
      'Messages',
      'Deliver',
      'Signatures',
      'Activities',
      'Import progress',
    ]);
  });

  it('each flag hides or shows its item', () => {
    const ctx = advisor('partner', {
      communication_disabled: true,
      new_tax_return_delivery_enabled: false,
      review_and_export_enabled: true,
      signature_requests_enabled: false,
      all_activities_enabled: false,
    });
    const items = labels('main', ctx);
    expect(items).not.toContain('Messages');
    expect(items).not.toContain('Deliver');
    expect(items).toContain('Connect');
    expect(items).not.toContain('Signatures');
    expect(items).not.toContain('Activities');
  });

  it('Templates: partners, and full users unless disabled for non-admins', () => {
    expect(labels('main', advisor('full'))).toContain('Templates');
    expect(labels('main', advisor('full', { template_disabled_for_nonadmin: true }))).not.toContain(
      'Templates',
    );
    expect(labels('main', advisor('partner', { template_disabled_for_nonadmin: true }))).toContain(
      'Templates',
    );
    expect(labels('main', advisor('admin'))).not.toContain('Templates');
    expect(labels('main', advisor('group'))).not.toContain('Templates');
  });
});

describe('entity and user variants', () => {
  it('fills the entity hash; Connect only for individual entities', () => {
    const ctx = advisor('partner');
    const items = buildNavigation([everything], 'entity', ctx, { companyHash: 'abc' });
    expect(items.map((i) => i.label)).toEqual([
      'Overview',
      'Back to Entities',
      'Dashboard',
      'Messages',
      'Documents',
    ]);
    expect(items.find((i) => i.id === 'entity-documents')?.path).toBe('/admin/abc/documents');
    const individual = { ...ctx, entity: { entity_type: 'Individual' } };
    expect(labels('entity', individual, { companyHash: 'abc' })).toContain('Connect');
  });

  it('user variant', () => {
    expect(labels('user', advisor('group'), { userId: 'u1' })).toEqual([
      'Overview',
      'Back to Users',
      'Dashboard',
    ]);
  });
});

describe('client navigation and audiences', () => {
  it('clients never see advisor items, advisors never see client items', () => {
    expect(labels('main', client())).toEqual([]);
    expect(labels('lower', client())).toEqual([]);
    expect(labels('client', advisor('partner'), { companyHash: 'h' })).toEqual([]);
  });

  it('hide_documents_view_from_clients hides Documents; Documents needs an entity', () => {
    expect(labels('client', client(), { companyHash: 'h' })).toEqual([
      'Dashboard',
      'Inbox',
      'Documents',
      'Profile',
    ]);
    expect(
      labels('client', client({ hide_documents_view_from_clients: true }), { companyHash: 'h' }),
    ).not.toContain('Documents');
    expect(labels('client', client())).not.toContain('Documents');
  });
});

describe('only built areas', () => {
  it('shows only the items that loaded descriptors provide', () => {
    const admin: RemoteDescriptor = { name: 'admin', routes: [], nav: [specNav('profile-settings')] };
    expect(buildNavigation([admin], 'lower', advisor('partner'), {}).map((i) => i.label)).toEqual([
      'Profile Settings',
    ]);
    expect(buildNavigation([admin], 'main', advisor('partner'), {})).toEqual([]);
  });

  it('an area rule hides all of its items', () => {
    const connect: RemoteDescriptor = {
      name: 'connect',
      routes: [],
      nav: [specNav('connect')],
      access: { requires: ['review_and_export_enabled'] },
    };
    expect(
      buildNavigation([connect], 'main', advisor('partner', { review_and_export_enabled: true })),
    ).toHaveLength(1);
    expect(buildNavigation([connect], 'main', advisor('partner'))).toHaveLength(0);
  });
});
