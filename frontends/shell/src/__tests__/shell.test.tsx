import { describe, expect, it, jest } from '@jest/globals';
import { type Entity, KitProvider } from '@portico/kit';
import { fireEvent, render, screen } from '@testing-library/react';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { ClientEntitySelector } from '../layouts/ClientEntitySelector.js';
import { navVariant } from '../layouts/LeftNavigation.js';
import { HEADER_OF, safeRedirect } from '../signin/states.js';

const entities = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `e${i}`, name: `Entity ${i + 1}` }) as Entity);
const renderSelector = (list: Entity[]) =>
  render(
    <KitProvider env="test">
      <ClientEntitySelector entities={list} selected={list[0] ?? null} onSelect={() => {}} />
    </KitProvider>,
  );

describe('client entity selector', () => {
  it('is hidden with one entity', () => {
    renderSelector(entities(1));
    expect(screen.queryByTestId('entity-selector')).toBeNull();
  });

  it('lists 5 with Show All, and a filter, above 5 entities', () => {
    renderSelector(entities(7));
    fireEvent.click(screen.getByTestId('entity-selector'));
    expect(screen.getAllByRole('menuitem')).toHaveLength(5);
    expect(screen.getByTestId('entity-filter')).toBeTruthy();
    fireEvent.click(screen.getByTestId('entity-show-all'));
    expect(screen.getAllByRole('menuitem')).toHaveLength(7);
  });

  it('has no filter or Show All with 5 or fewer', () => {
    renderSelector(entities(3));
    fireEvent.click(screen.getByTestId('entity-selector'));
    expect(screen.getAllByRole('menuitem')).toHaveLength(3);
    expect(screen.queryByTestId('entity-filter')).toBeNull();
    expect(screen.queryByTestId('entity-show-all')).toBeNull();
  });
});

describe('runtime configuration', () => {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

  it('reads /runtime-config.json', async () => {
    const config = {
      apiUrl: 'http://api',
      firmSlug: 'demo-cpa',
      remotes: { client: 'http://c/mf-manifest.json' },
    };
    const fetch = (async (url: string) =>
      url === '/runtime-config.json' ? json(config) : json({}, 404)) as typeof globalThis.fetch;
    await expect(loadRuntimeConfig(fetch)).resolves.toMatchObject(config);
  });

  it('keeps a path prefix of the gateway address, without a trailing slash', async () => {
    const fetch = (async () =>
      json({ apiUrl: 'https://portal.example.com/api/', remotes: {} })) as typeof globalThis.fetch;
    await expect(loadRuntimeConfig(fetch)).resolves.toMatchObject({
      apiUrl: 'https://portal.example.com/api',
    });
  });

  it('starts without remotes, the API on this origin, when the file is missing or malformed', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answers = [
        json({}, 404),
        json({ remotes: {} }),
        json({ apiUrl: '', remotes: { a: 1 } }),
        // Not an address the API client can join paths to.
        json({ apiUrl: '/api', remotes: {} }),
        json({ apiUrl: 'api.example.com', remotes: {} }),
        json({ apiUrl: 'ftp://api.example.com', remotes: {} }),
      ];
      for (const answer of answers) {
        const fetch = (async () => answer.clone()) as typeof globalThis.fetch;
        await expect(loadRuntimeConfig(fetch)).resolves.toEqual({ apiUrl: '', remotes: {} });
      }
      expect(logged).toHaveBeenCalledTimes(answers.length);
    } finally {
      logged.mockRestore();
    }
  });
});

describe('sign-in rules', () => {
  it('uses the spec headers', () => {
    expect(HEADER_OF.login).toBe('Sign In');
    expect(HEADER_OF['2fa']).toBe('2-Factor Auth');
    expect(HEADER_OF['set-email']).toBe('One more step to go…');
    expect(HEADER_OF['forgot-password']).toBe('Reset password');
    expect(HEADER_OF['sent-email']).toBe('Sign in via email');
    expect(HEADER_OF['set-password']).toBe('Set up password');
    expect(HEADER_OF['sent-text']).toBe('Sign in via SMS');
    expect(HEADER_OF['set-sign-in-method']).toBe('How do you want to sign in next time?');
  });

  it('redirects only to paths of this site', () => {
    expect(safeRedirect('/profile?x=1')).toBe('/profile?x=1');
    expect(safeRedirect('https://evil.test')).toBe('/');
    expect(safeRedirect('//evil.test')).toBe('/');
    expect(safeRedirect('/signin')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
    // What the URL parser reads as another host, whatever the string starts with.
    expect(safeRedirect('/\\evil.test/x')).toBe('/');
    expect(safeRedirect('/\t/evil.test')).toBe('/');
    expect(safeRedirect('/%2Fsignin')).toBe('/%2Fsignin');
    expect(safeRedirect('/admin/abc/documents?path=%2FTaxes#top')).toBe(
      '/admin/abc/documents?path=%2FTaxes#top',
    );
  });

  it('picks the navigation variant from the path', () => {
    expect(navVariant('/admin/abc/documents')).toEqual({ section: 'entity', companyHash: 'abc' });
    expect(navVariant('/clients/u1')).toEqual({ section: 'user', userId: 'u1' });
    expect(navVariant('/admin')).toEqual({ section: 'main' });
  });
});
