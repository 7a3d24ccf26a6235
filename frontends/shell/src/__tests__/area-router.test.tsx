import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  type CurrentUser,
  ERROR_FALLBACK_TEXT,
  type RemoteDescriptor,
  SessionStore,
  ShellContext,
  specNav,
} from '@portico/kit';
import { aCurrentUser, renderWithClient } from '@portico/kit/testing';
import { act, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import type { AreaStatus } from '../remotes/registry.js';
import { TEST_FIRM, testRuntime } from './support/test-runtime.js';

/** The remotes as the federation runtime would load them: descriptors and route modules by id. */
const remoteModules = new Map<string, unknown>();
jest.unstable_mockModule('../remotes/federation.js', () => ({
  federation: () => ({
    registerRemotes: () => undefined,
    loadRemote: async (id: string) => {
      if (!remoteModules.has(id)) throw new Error(`${id}: RUNTIME-003 Failed to get manifest.`);
      return remoteModules.get(id);
    },
  }),
}));
const { default: AreaRouter } = await import('../app/AreaRouter.js');
const { ShellRuntimeContext } = await import('../app/services.js');
const { loadAreas } = await import('../remotes/registry.js');

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  window.localStorage.clear();
  remoteModules.clear();
});

function Where() {
  const location = useLocation();
  return (
    <>
      <output data-testid="where">{location.pathname + location.search + location.hash}</output>
      <output data-testid="where-state">{JSON.stringify(location.state ?? null)}</output>
    </>
  );
}

/** An area that loaded: Profile Settings for advisors, Profile for clients. */
const admin: RemoteDescriptor = {
  name: 'admin',
  routes: [
    { path: '/admin-profile', module: './Profile', layout: 'advisor', audience: 'advisor' },
    { path: '/profile', module: './Profile', layout: 'client', audience: 'client' },
  ],
  nav: [specNav('profile-settings'), specNav('client-profile')],
};
const documentsDown: AreaStatus = {
  name: 'documents',
  error: new Error('documents/descriptor did not load'),
  reference: Promise.resolve(undefined),
};

const advisor = aCurrentUser({ is_advisor: true, firm_access: 'partner' });

/** AreaRouter at `path` with `areas`, signed in as `user` (signed out without one). */
async function renderShell(areas: AreaStatus[], path: string, user?: CurrentUser) {
  const runtime = testRuntime({
    answers: { '/current_user': user, '/firms/current_user_firm': TEST_FIRM },
    areas,
    signedIn: Boolean(user),
  });
  stores.push(runtime.session);
  // Awaited: the router waits for the areas (`use`), which React resumes only in an awaited act.
  await act(async () => {
    renderWithClient(
      <ShellRuntimeContext.Provider value={runtime}>
        <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
          <Routes>
            <Route path="/signin" element={<p>sign in</p>} />
            <Route
              path="*"
              element={
                <Suspense fallback={null}>
                  <AreaRouter />
                </Suspense>
              }
            />
          </Routes>
          <Where />
        </ShellContext.Provider>
      </ShellRuntimeContext.Provider>,
      runtime.client,
      path,
    );
  });
}

describe('while an area is down', () => {
  it("shows its fallback on an entity's page no loaded area serves, not 'Page not found'", async () => {
    await renderShell([{ name: 'admin', descriptor: admin }, documentsDown], '/admin/h1', advisor);
    expect(await screen.findByText(ERROR_FALLBACK_TEXT)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(screen.queryByTestId('not-found')).toBeNull();
  });

  it('shows its fallback to a signed-out visitor on a page it may serve, instead of the sign-in form', async () => {
    await renderShell([{ name: 'admin', descriptor: admin }, documentsDown], '/drop-link?id=x');
    expect(await screen.findByText(ERROR_FALLBACK_TEXT)).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/drop-link?id=x');
  });

  it.each([
    ['/profile', '/signin?redirect=%2Fprofile'],
    ['/', '/signin'],
  ])(
    "still sends a signed-out visitor of a loaded area's page, or of /, to sign in (%s)",
    async (path, signIn) => {
      await renderShell([{ name: 'admin', descriptor: admin }, documentsDown], path);
      expect(screen.getByTestId('where').textContent).toBe(signIn);
    },
  );

  it("keeps the fragment of a signed-out visitor's page (an emailed #email_token=) with the entry, out of ?redirect=", async () => {
    await renderShell(
      [{ name: 'admin', descriptor: admin }, documentsDown],
      '/profile?tab=me#email_token=e-1',
    );
    expect(screen.getByTestId('where').textContent).toBe('/signin?redirect=%2Fprofile%3Ftab%3Dme');
    expect(JSON.parse(screen.getByTestId('where-state').textContent ?? '')).toEqual({
      redirectHash: '#email_token=e-1',
    });
  });

  it.each([
    ['/profile?email_token=old-1&tab=me', '/signin?redirect=%2Fprofile%3Ftab%3Dme', '#email_token=old-1'],
    ['/admin-profile?email_token=a%2Bb#top', '/signin?redirect=%2Fadmin-profile', '#top&email_token=a%2Bb'],
  ])(
    "moves the confirmation token of a link sent before (in the query) to the entry's fragment, out of ?redirect= (%s)",
    async (path, signIn, redirectHash) => {
      await renderShell([{ name: 'admin', descriptor: admin }, documentsDown], path);
      expect(screen.getByTestId('where').textContent).toBe(signIn);
      expect(JSON.parse(screen.getByTestId('where-state').textContent ?? '')).toEqual({ redirectHash });
    },
  );
});

describe('a descriptor with a bad route or navigation item', () => {
  const remotes = { admin: 'http://a/mf-manifest.json', documents: 'http://d/mf-manifest.json' };
  const loaded = (documents: unknown) => {
    remoteModules.set('admin/descriptor', { default: admin });
    remoteModules.set('admin/Profile', { default: () => <p>Profile page</p> });
    remoteModules.set('documents/descriptor', { default: documents });
  };

  it('leaves that area out as failed, and the others load', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const bad: unknown[] = [
        { name: 'documents', routes: [{ module: './Profile', layout: 'client' }] },
        { name: 'documents', routes: [{ path: 'documents', layout: 'client' }] },
        { name: 'documents', routes: [{ path: '/documents', layout: 'sidebar' }] },
        { name: 'documents', routes: [{ path: '/documents', layout: 'client', module: 7 }] },
        { name: 'documents', routes: [], nav: {} },
        {
          name: 'documents',
          routes: [],
          nav: [{ label: 'Documents', path: '/documents', section: 'client' }],
        },
        { name: 'documents', routes: [], nav: [{ id: 'documents', label: 'Documents', section: 'client' }] },
        { name: 'documents', routes: [], nav: [{ id: 'documents', label: 'Documents', path: '/documents' }] },
      ];
      for (const documents of bad) {
        loaded(documents);
        const areas = await loadAreas(remotes);
        expect(areas.map((a) => [a.name, Boolean(a.descriptor), Boolean(a.error)])).toEqual([
          ['admin', true, false],
          ['documents', false, true],
        ]);
      }
    } finally {
      logged.mockRestore();
    }
  });

  it("does not take the other areas' pages down", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      loaded({ name: 'documents', routes: [{ module: './Profile', layout: 'client' }] });
      const areas = await loadAreas(remotes);
      await renderShell(areas, '/profile', aCurrentUser());
      expect(await screen.findByText('Profile page')).toBeTruthy();
    } finally {
      logged.mockRestore();
    }
  });
});
