import { describe, expect, it } from '@jest/globals';
import { type AccessContext, defineDescriptor, type RemoteDescriptor, specNav } from '@portico/kit';
import { homePath } from '../app/home.js';

const admin = defineDescriptor({
  name: 'admin',
  routes: [{ path: '/admin-profile', layout: 'advisor', audience: 'advisor' }],
  nav: [specNav('profile-settings')],
});
const documents = defineDescriptor({
  name: 'documents',
  routes: [
    { path: '/drop-link-settings', layout: 'advisor', audience: 'advisor' },
    { path: '/documents', layout: 'client', audience: 'client' },
  ],
  nav: [specNav('drop-link'), specNav('client-documents')],
});
const client = defineDescriptor({
  name: 'client',
  routes: [{ path: '/', layout: 'client', audience: 'client', home: true }],
});

const advisor = (firmAccess: string, preferences = {}): AccessContext => ({
  signedIn: true,
  isAdvisor: true,
  firmAccess,
  preferences,
});

describe('where / leads after sign-in', () => {
  it('an advisor lands on Profile Settings while no main item is built, even when Drop Link comes first', () => {
    const all: RemoteDescriptor[] = [documents, admin];
    expect(homePath(all, advisor('partner', { drop_link_enabled: true }))).toBe('/admin-profile');
    expect(homePath(all, advisor('group'))).toBe('/admin-profile');
  });

  it('an advisor without Profile Settings gets the first lower item they may see', () => {
    expect(homePath([documents], advisor('partner', { drop_link_enabled: true }))).toBe(
      '/drop-link-settings',
    );
    expect(homePath([documents], advisor('group', { drop_link_enabled: true }))).toBeUndefined();
  });

  it("a client lands on the selected entity's Documents while no area serves the Dashboard, else Profile", () => {
    const clientArea = defineDescriptor({
      name: 'client',
      routes: [{ path: '/profile', layout: 'client', audience: 'client' }],
      nav: [specNav('client-profile')],
    });
    const ctx = (preferences = {}): AccessContext => ({ signedIn: true, isAdvisor: false, preferences });
    expect(homePath([clientArea, documents, admin], ctx())).toBe('/documents');
    expect(homePath([clientArea, documents], ctx({ hide_documents_view_from_clients: true }))).toBe(
      '/profile',
    );
    expect(homePath([clientArea], ctx())).toBe('/profile');
  });

  it('a client lands on the route marked home for clients', () => {
    const ctx: AccessContext = { signedIn: true, isAdvisor: false, preferences: {} };
    expect(homePath([documents, client, admin], ctx)).toBe('/');
  });
});
