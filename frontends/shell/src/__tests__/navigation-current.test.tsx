import { describe, expect, it } from '@jest/globals';
import { defineDescriptor, ShellContext } from '@portico/kit';
import { aCurrentUser, renderArea } from '@portico/kit/testing';
import { screen, within } from '@testing-library/react';
import { AreasContext } from '../app/areas-context.js';
import { AdvisorLayout } from '../layouts/AdvisorLayout.js';
import { ClientLayout } from '../layouts/ClientLayout.js';
import { isCurrentPage } from '../layouts/current-page.js';
import { LeftNavigation } from '../layouts/LeftNavigation.js';

const advisorArea = defineDescriptor({
  name: 'admin',
  routes: [],
  nav: [
    {
      id: 'profile-settings',
      label: 'Profile Settings',
      path: '/admin-profile',
      section: 'main',
      audience: 'advisor',
    },
    {
      id: 'documents',
      label: 'Documents',
      path: '/admin/:companyHash/documents',
      section: 'entity',
      audience: 'advisor',
    },
  ],
});
const clientArea = defineDescriptor({
  name: 'client',
  routes: [],
  nav: [
    {
      id: 'documents',
      label: 'Documents',
      path: '/documents/:companyHash',
      section: 'client',
      audience: 'client',
    },
    { id: 'profile', label: 'Profile', path: '/profile', section: 'client', audience: 'client' },
  ],
});

describe('the current page in the navigation', () => {
  it('is the path itself or a page under it', () => {
    expect(isCurrentPage('/admin-profile', '/admin-profile')).toBe(true);
    expect(isCurrentPage('/admin-profile/x', '/admin-profile')).toBe(true);
    expect(isCurrentPage('/admin-profiles', '/admin-profile')).toBe(false);
    expect(isCurrentPage('/', '/')).toBe(true);
    expect(isCurrentPage('/profile', '/')).toBe(false);
  });

  it("is marked aria-current in the advisor's left navigation, and only that item", async () => {
    renderArea(
      <LeftNavigation
        descriptors={[advisorArea]}
        ctx={{ signedIn: true, isAdvisor: true, preferences: {} }}
        userId="u1"
      />,
      () => undefined,
      '/admin-profile',
    );
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Profile Settings' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(nav.querySelectorAll('[aria-current]')).toHaveLength(1);
  });

  it("is marked aria-current in a client's header, for the page of the entity shown", async () => {
    const entity = {
      id: 'c1',
      hash_id: 'h1',
      name: 'Alice Anders',
      entity_type: 'Individual',
      inactive: false,
    };
    renderArea(
      <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
        <AreasContext.Provider value={{ areas: [], descriptors: [clientArea] }}>
          <ClientLayout
            user={aCurrentUser()}
            firm={
              {
                name: 'Demo CPA',
                logo_url: '',
                preferences: { in_app_banner_enabled: false, in_app_banner_text: '' },
              } as never
            }
            ctx={{ signedIn: true, isAdvisor: false, preferences: {} }}
          />
        </AreasContext.Provider>
      </ShellContext.Provider>,
      (call) =>
        call.path.startsWith('/v2/entities')
          ? { body: { companies: [entity], current_page: 1, total_pages: 1, total_count: 1 } }
          : undefined,
      '/documents/h1',
    );
    const nav = await screen.findByRole('navigation', { name: 'Client navigation' });
    expect(within(nav).getByRole('link', { name: 'Documents' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBeNull();
  });

  it("is one navigation landmark in the advisor's layout, not a named one inside an unnamed one", async () => {
    renderArea(
      <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
        <AreasContext.Provider value={{ areas: [], descriptors: [advisorArea] }}>
          <AdvisorLayout
            user={aCurrentUser({ is_advisor: true })}
            firm={
              {
                name: 'Demo CPA',
                logo_url: '',
                preferences: { in_app_banner_enabled: false, in_app_banner_text: '' },
              } as never
            }
            ctx={{ signedIn: true, isAdvisor: true, preferences: {} }}
          />
        </AreasContext.Provider>
      </ShellContext.Provider>,
      () => undefined,
      '/admin-profile',
    );
    await screen.findByRole('link', { name: 'Profile Settings' });
    expect(screen.getAllByRole('navigation').map((nav) => nav.getAttribute('aria-label'))).toEqual([
      'Main navigation',
    ]);
  });
});
