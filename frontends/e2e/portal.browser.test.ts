// Browser journeys of issue 3 against the production builds, served the way the local stack serves them.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, jest } from '@jest/globals';
import { freePort, waitFor } from '@portico/platform/testing';
import type { Page } from 'playwright-core';
import { accessibilityViolations, keepScreenshot, navigationIds, signIn, toastSaying } from './browser.js';
import { portalSession, type Screen } from './portal-session.js';
import { DEMO_PASSWORD, FRONTENDS } from './stack.js';

const run = promisify(execFile);
const FALLBACK = 'Something went wrong. Please refresh this page to try again.';
const SIGNED_OUT =
  'You have been signed out. When you are signed out in one page, we sign you out in all of them to keep your data secure.';

jest.setTimeout(120_000);

const portal = portalSession();
const { freshPage, signedIn } = portal;

/** The error reports a page sends the gateway (POST /client_errors), each with the status it got. */
function errorReports(page: Page) {
  const reports: { body: Record<string, unknown>; status: number; traceId?: string }[] = [];
  // A keepalive request ends with its response; Playwright does not tell when it finishes.
  page.on('response', (response) => {
    if (!response.url().endsWith('/client_errors')) return;
    reports.push({
      body: response.request().postDataJSON() as Record<string, unknown>,
      status: response.status(),
      traceId: response.headers()['x-trace-id'],
    });
  });
  return reports;
}

/** The input with this label. */
const field = (page: Page, label: string) =>
  page.locator('input').and(page.getByLabel(label, { exact: true }));

/** The access token of a signed-in page's session, to arrange things through the gateway as its user. */
const accessTokenOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('portico.session') ?? '{}').access_token as string);

/** A call to the gateway with a signed-in user's token; any status but 200 fails the test. */
async function callGateway<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${portal.stack.gateway.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A signed-in client's Documents, from the client navigation; answers the entity's hash. */
async function openClientDocuments(page: Page): Promise<string> {
  await page
    .getByRole('navigation', { name: 'Client navigation' })
    .getByRole('link', { name: 'Documents' })
    .click();
  await page.getByTestId('documents-table').waitFor();
  return new URL(page.url()).pathname.split('/').at(-1) as string;
}

/** A client's Profile, from the client navigation (clients land on their Documents). */
async function openClientProfile(page: Page) {
  await page
    .getByRole('navigation', { name: 'Client navigation' })
    .getByRole('link', { name: 'Profile' })
    .click();
  await page.waitForURL(`${portal.stack.shellUrl}/profile`);
}

/** The chunk of a client area build (its folder) that holds the exposed Profile module itself. */
async function profileExposeChunk(build: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(build, 'mf-manifest.json'), 'utf8')) as {
    exposes: { name: string; assets: { js: { sync: string[] } } }[];
  };
  const own = manifest.exposes
    .find((e) => e.name === 'Profile')
    ?.assets.js.sync.find((f) => f.includes('__federation_expose_Profile'));
  if (!own) throw new Error('no Profile module in the client manifest');
  return own;
}
const PROFILE_RENDER_ERROR = 'a release of the client area whose Profile throws while rendering';

/** Shows or clears the global maintenance alert with the operators' command (npm run maintenance). */
async function maintenanceCommand(...args: ['show', string] | ['clear']) {
  await run(process.execPath, [join(FRONTENDS, '..', 'infra', 'local', 'maintenance.mjs'), ...args], {
    env: { ...process.env, NATS_URL: portal.stack.natsUrl },
  });
}

/** The JSON messages the page's sockets receive, from the sockets it opens after this call. */
function socketMessages(page: Page) {
  const messages: unknown[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      try {
        messages.push(JSON.parse(String(payload)));
      } catch {
        // not a message of the portal's
      }
    }),
  );
  return messages;
}

let releaseB: Promise<string> | undefined;
/** A second release of the client area (a build labelled 'Release B'), built once for the tests that need it. */
function clientReleaseB(): Promise<string> {
  releaseB ??= (async () => {
    const release = join(portal.stack.temp, 'client-release-b');
    await run(
      process.execPath,
      [join(FRONTENDS, '..', 'node_modules/@rspack/cli/bin/rspack.js'), 'build', '--mode', 'production'],
      {
        cwd: join(FRONTENDS, 'client'),
        env: { ...process.env, PORTICO_OUT_DIR: release, PORTICO_BUILD_MARKER: 'Release B' },
      },
    );
    return release;
  })();
  return releaseB;
}

/** A client's landing after sign-in: the selected entity's Documents. */
async function landOnClientDocuments(page: Page) {
  await page.waitForURL(/\/documents\/[^/]+$/);
  await page.getByTestId('documents-table').waitFor();
}

/** The advisor's documents of the entity with this hash. */
async function openAdvisorDocuments(page: Page, hash: string) {
  await page.goto(`${portal.stack.shellUrl}/admin/${hash}/documents`);
  await page.getByTestId('documents-table').waitFor();
}

interface FileManagerLayout {
  /** How far the page itself scrolls sideways. */
  pageOverflow: number;
  /** How far the table is wider than the list it is in. */
  tableOverflow: number;
  /** The column headers shown. */
  headers: string[];
  treeBesideList: boolean;
  /** Whether the first row's actions button is inside the window. */
  actionsOnScreen: boolean;
  /** The date and size under the first row's name, when shown there. */
  detailsUnderName: string | null;
}

/** The file manager's layout as the browser laid it out (its container queries included). */
const FILE_MANAGER_LAYOUT = `(() => {
  const shown = (el) => !!el && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
  const table = document.querySelector('[data-testid="documents-table"]');
  const list = document.querySelector('.portico-fm-list');
  const tree = document.querySelector('.portico-fm-tree');
  const row = table.querySelector('tbody tr');
  const actions = row.querySelector('button[aria-label^="Actions for"]').getBoundingClientRect();
  const details = row.querySelector('[data-testid="narrow-details"]');
  return {
    pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tableOverflow: Math.round(table.getBoundingClientRect().right - list.getBoundingClientRect().right),
    headers: [...table.querySelectorAll('th')].filter(shown).map((th) => th.textContent.replace(/[▲▼]/g, '').trim()),
    treeBesideList: tree.getBoundingClientRect().right <= list.getBoundingClientRect().left,
    actionsOnScreen: actions.left >= 0 && actions.right <= window.innerWidth,
    detailsUnderName: shown(details) ? details.textContent : null,
  };
})()`;
const fileManagerLayout = (page: Page) => page.evaluate(FILE_MANAGER_LAYOUT) as Promise<FileManagerLayout>;
const EVERY_COLUMN = ['Name', 'Description', 'Tags', 'Modified', 'Size', 'Actions'];

/** For a page's first seconds: on every animation frame, the banner's bottom and the content's top. */
const HEADER_FRAMES_PROBE = `(() => {
  const frames = (window.__headerFrames = []);
  const started = performance.now();
  const note = () => {
    const banner = document.querySelector('[data-testid="in-app-banner"]');
    const main = document.querySelector('main');
    if (banner && main)
      frames.push({ banner: banner.getBoundingClientRect().bottom, content: parseFloat(getComputedStyle(main).paddingTop) });
    if (performance.now() - started < 5000) requestAnimationFrame(note);
  };
  requestAnimationFrame(note);
})();`;

describe('serving the builds', () => {
  it('sends the scripts gzipped, from the copies the build made (those under 1 KB as they are)', async () => {
    const page = await freshPage();
    await page.goto(`${portal.stack.shellUrl}/signin`);
    await page.getByLabel('Email').waitFor();
    // Resource timings as plain objects (the project's types have no DOM library).
    const timings = (await page.evaluate(() =>
      JSON.parse(JSON.stringify(performance.getEntriesByType('resource'))),
    )) as { name: string; initiatorType: string; encodedBodySize: number; decodedBodySize: number }[];
    // The shell's own scripts (the remotes' descriptors may already be loading from their servers).
    const scripts = timings
      .filter((t) => t.initiatorType === 'script' && t.name.startsWith(`${portal.stack.shellUrl}/`))
      .map((t) => ({ name: t.name, onTheWire: t.encodedBodySize, decoded: t.decodedBodySize }));
    expect(scripts.length).toBeGreaterThanOrEqual(2); // React and the rest
    for (const script of scripts) {
      const file = join(FRONTENDS, 'shell', 'dist', new URL(script.name).pathname);
      const bytes = (await readFile(file)).length;
      expect(script.decoded).toBe(bytes);
      // The build makes no copy of a file under 1 KB (kit/build/precompress.mjs): it goes as it is.
      if (existsSync(`${file}.gz`)) {
        expect(script.onTheWire).toBe((await readFile(`${file}.gz`)).length);
      } else {
        expect(bytes).toBeLessThan(1024);
        expect(script.onTheWire).toBe(bytes);
      }
    }
  });

  it('leaves the dev runtime configuration out of the production build', () => {
    // Built in, its localhost URLs would be served wherever a deployment has not mounted its own.
    expect(existsSync(join(FRONTENDS, 'shell', 'dist', 'runtime-config.json'))).toBe(false);
    expect(existsSync(join(FRONTENDS, 'shell', 'public', 'runtime-config.json'))).toBe(true);
  });
});

describe('sign-in and navigation', () => {
  it('signs the partner in; the navigation shows exactly what the role and the built areas allow', async () => {
    const page = await signedIn('partner@demo-cpa.test');
    // Only the client, admin and documents areas are built: of the advisor's top-level items, Drop Link
    // (the demo firm has it on) and Profile Settings are all there is (an entity's Documents is under
    // the entity; Firm Settings and the rest appear when their areas exist). The partner lands on their
    // Profile Settings, not on the firm's Drop Link that comes first in the list.
    expect(await navigationIds(page, 'Main navigation')).toEqual(['drop-link', 'profile-settings']);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Drop Link', 'Profile Settings']);
    // No Entities list is built yet: the entity switcher is how an advisor reaches an entity.
    await nav.getByLabel('Go to an entity').waitFor();
    await page.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    expect(await field(page, 'First Name').inputValue()).toBe('Paula');
    // The firm's banner is on top, not under the fixed header, and the page starts below both.
    const banner = page.getByTestId('in-app-banner');
    await banner.getByText('Tax season hours').waitFor();
    const bannerBox = await banner.boundingBox();
    // The header's own row (the firm's name) is below the banner, not drawn over it.
    const firmName = await page.locator('header').getByText('Demo CPA', { exact: true }).boundingBox();
    expect(firmName?.y).toBeGreaterThanOrEqual((bannerBox?.y ?? 0) + (bannerBox?.height ?? 0));
    const headingBox = await page.getByRole('heading', { name: 'Profile Settings' }).boundingBox();
    expect(headingBox?.y).toBeGreaterThan((bannerBox?.y ?? 0) + (bannerBox?.height ?? 0) + 56);
    expect(headingBox?.y).toBeLessThan((bannerBox?.y ?? 0) + (bannerBox?.height ?? 0) + 56 + 40);
    // From the first frame that shows the banner, not one frame later: on a reload every animation frame
    // notes where the banner ends and where the page's content starts (the main landmark's padding).
    await page.addInitScript(HEADER_FRAMES_PROBE);
    await page.reload();
    await banner.getByText('Tax season hours').waitFor();
    await page.waitForTimeout(300);
    const frames = (await page.evaluate('window.__headerFrames')) as { banner: number; content: number }[];
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((f) => f.content < f.banner + 56)).toEqual([]);
    await keepScreenshot(page, 'partner-signed-in');
  });

  it('brands /signin with the firm of the last user signed in here when the deployment names none', async () => {
    const { firmSlug: _deploymentFirm, ...withoutFirm } = portal.stack.standard;
    await portal.stack.setRuntimeConfig(withoutFirm);
    try {
      const page = await freshPage();
      await page.goto(`${portal.stack.shellUrl}/signin`);
      await page.getByLabel('Email', { exact: true }).waitFor();
      expect(await page.getByTestId('firm-branding').count()).toBe(0);
      await signIn(page, portal.stack.shellUrl, 'bob@client.test', DEMO_PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/signin'));
      await page.getByTestId('firm-branding').getByText('Demo CPA').waitFor();
      // An address that names a firm still wins.
      await page.goto(`${portal.stack.shellUrl}/signin?firm=no-such-firm`);
      await page.getByLabel('Email', { exact: true }).waitFor();
      await page.waitForTimeout(300);
      expect(await page.getByTestId('firm-branding').count()).toBe(0);
    } finally {
      await portal.stack.setRuntimeConfig(portal.stack.standard);
    }
  });

  it("takes an advisor to an entity's documents with the entity switcher, and to another entity's", async () => {
    const page = await signedIn('partner@demo-cpa.test');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByLabel('Go to an entity').fill('anders');
    await page.getByRole('option', { name: 'Anders Design LLC' }).click();
    // The entity's own page is not built yet: it opens the entity's first built page, its Documents.
    await page.waitForURL(/\/admin\/[^/]+\/documents$/);
    expect(await navigationIds(page, 'Main navigation')).toEqual([
      'entity-documents',
      'drop-link',
      'profile-settings',
    ]);
    const first = new URL(page.url()).pathname;
    await nav.getByLabel('Switch entity').click();
    // An empty filter lists the recent entities.
    await page.getByRole('option', { name: 'Anders Design LLC' }).waitFor();
    await nav.getByLabel('Switch entity').fill('family');
    await page.getByRole('option', { name: 'Anders Family Trust' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/documents') && url.pathname !== first);
    await keepScreenshot(page, 'advisor-entity-switcher');
    // The recent entities (clients' names) are not left in the browser for the next person.
    const recentKeys = () =>
      page.evaluate(() =>
        Object.keys(localStorage).filter((key) => key.startsWith('portico.recent-entities.')),
      );
    expect(await recentKeys()).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/signin'));
    expect(await recentKeys()).toEqual([]);
  });

  it('signs the group user in with the advisor navigation of their role (no Drop Link)', async () => {
    const page = await signedIn('group@demo-cpa.test');
    expect(await navigationIds(page, 'Main navigation')).toEqual(['profile-settings']);
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    expect(await field(page, 'First Name').inputValue()).toBe('Gary');
    await keepScreenshot(page, 'group-user-signed-in');
  });

  it('signs a client in with the client navigation and the entity selector', async () => {
    const page = await signedIn('alice@client.test');
    expect(await navigationIds(page, 'Client navigation')).toEqual(['client-documents', 'client-profile']);
    // No area serves the Dashboard yet: a client lands on the selected entity's Documents.
    await landOnClientDocuments(page);
    await page.getByTestId('entity-selector').waitFor();
    await keepScreenshot(page, 'client-signed-in');
    await openClientProfile(page);
    expect(await field(page, 'Primary Contact Email').inputValue()).toBe('alice@client.test');
  });

  it('shows exactly the items the firm preferences allow: Drop Link when on, client Documents unless hidden', async () => {
    const partner = await signedIn('partner@demo-cpa.test');
    await partner.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
    const token = await accessTokenOf(partner);
    const { preferences } = await callGateway<{ preferences: Record<string, unknown> }>(
      token,
      'GET',
      '/firms/current_user_firm',
    );
    const demoFirm = {
      drop_link_enabled: preferences.drop_link_enabled,
      hide_documents_view_from_clients: preferences.hide_documents_view_from_clients,
    };
    expect(demoFirm).toEqual({ drop_link_enabled: true, hide_documents_view_from_clients: false });
    const savePreferences = (changes: Record<string, unknown>) =>
      callGateway(token, 'POST', '/firms/update_preferences', { preferences: changes });
    try {
      await savePreferences({ drop_link_enabled: false });
      await partner.reload();
      expect(await navigationIds(partner, 'Main navigation')).toEqual(['profile-settings']);
      // Nor is the page there by its address: it leads to the partner's home.
      await partner.goto(`${portal.stack.shellUrl}/drop-link-settings`);
      await partner.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
      await partner.getByRole('heading', { name: 'Profile Settings' }).waitFor();

      await savePreferences({ hide_documents_view_from_clients: true });
      const client = await signedIn('alice@client.test');
      expect(await navigationIds(client, 'Client navigation')).toEqual(['client-profile']);
      // With no Documents to land on, a client lands on their Profile.
      await client.waitForURL(`${portal.stack.shellUrl}/profile`);
      expect(await field(client, 'Primary Contact Email').inputValue()).toBe('alice@client.test');
      await keepScreenshot(client, 'client-documents-hidden');
    } finally {
      await savePreferences(demoFirm);
    }
  });

  it("switches a client's page to the entity chosen in the header, and selects the entity a link opens", async () => {
    const page = await signedIn('alice@client.test');
    await landOnClientDocuments(page);
    const hashes = Object.fromEntries(
      ['alice_individual', 'anders_llc', 'anders_trust'].map((key) => [
        key,
        portal.stack.firm.companies[key]?.hashId as string,
      ]),
    );
    const names = {
      alice_individual: 'Alice Anders',
      anders_llc: 'Anders Design LLC',
      anders_trust: 'Anders Family Trust',
    };
    const landedOn = new URL(page.url()).pathname.split('/').at(-1);
    const original = Object.keys(hashes).find((key) => hashes[key] === landedOn) as keyof typeof names;
    const other = original === 'anders_trust' ? 'anders_llc' : 'anders_trust';
    const selector = page.getByTestId('entity-selector');
    const choose = async (key: keyof typeof names) => {
      await selector.click();
      await page.getByRole('menuitem', { name: names[key] }).click();
      await page.waitForURL(`${portal.stack.shellUrl}/documents/${hashes[key]}`);
      await page.getByTestId('file-manager').getByText(names[key]).first().waitFor();
    };

    // Chosen in the header, the other entity's Documents open, without the first one's folder.
    await page.goto(`${portal.stack.shellUrl}/documents/${landedOn}?path=%2F`);
    await page.getByTestId('documents-table').waitFor();
    await choose(other);
    expect(new URL(page.url()).search).toBe('');
    expect(await selector.textContent()).toContain(names[other]);

    // A link to the third entity's Documents shows it selected in the header.
    const third = (Object.keys(names) as (keyof typeof names)[]).find((k) => k !== original && k !== other);
    await page.goto(`${portal.stack.shellUrl}/documents/${hashes[third as string]}`);
    await page.getByTestId('documents-table').waitFor();
    expect(await selector.textContent()).toContain(names[third as keyof typeof names]);

    // Back to the entity the client started with, which stays their default for the tests after this.
    await choose(original);
    expect(await selector.textContent()).toContain(names[original]);
  });

  it('gives a client on a phone a way to every page, and a file list that fits the screen', async () => {
    const page = await signedIn('alice@client.test', 'phone');
    await landOnClientDocuments(page);
    const pages = page.getByRole('navigation', { name: 'Client pages' });
    // Selection, name and actions; the date and size under the name; no sideways scroll anywhere.
    const layout = await fileManagerLayout(page);
    expect(layout.headers).toEqual(['', 'Name', 'Actions']);
    expect(layout.detailsUnderName).toMatch(/ · /);
    expect(layout.actionsOnScreen).toBe(true);
    expect(layout.treeBesideList).toBe(false);
    expect(layout.pageOverflow).toBeLessThanOrEqual(0);
    expect(layout.tableOverflow).toBeLessThanOrEqual(0);
    await keepScreenshot(page, 'client-phone-documents');
    await pages.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL(`${portal.stack.shellUrl}/profile`);
    await field(page, 'Primary Contact Email').waitFor();
    await pages.getByRole('link', { name: 'Documents' }).click();
    await landOnClientDocuments(page);
  });

  it("fits an advisor's file list to the room beside the navigation, from a tablet to a desktop", async () => {
    const hash = await openClientDocuments(await signedIn('alice@client.test'));
    const expected: [Screen, Partial<FileManagerLayout>][] = [
      // Beside the navigation a tablet leaves the list less room than its columns need.
      ['tablet', { headers: ['', 'Name', 'Actions'], treeBesideList: false }],
      ['desktop', { headers: ['', ...EVERY_COLUMN], treeBesideList: true, detailsUnderName: null }],
    ];
    for (const [screen, layout] of expected) {
      const page = await signedIn('partner@demo-cpa.test', screen);
      await openAdvisorDocuments(page, hash);
      const seen = await fileManagerLayout(page);
      expect(seen).toMatchObject({ ...layout, actionsOnScreen: true });
      expect(seen.pageOverflow).toBeLessThanOrEqual(0);
      expect(seen.tableOverflow).toBeLessThanOrEqual(0);
      await keepScreenshot(page, `advisor-${screen}-documents`);
    }
  });

  it('closes the advisor navigation on a phone once a page is chosen', async () => {
    const page = await signedIn('partner@demo-cpa.test', 'phone');
    await page.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    // Collapsed, the navigation is moved off the screen to the left (it stays in the page).
    const onScreen = async () => ((await nav.boundingBox())?.x ?? -1) >= 0;
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await waitFor(onScreen, 5_000, 'the navigation to open');
    await nav.getByRole('link', { name: 'Drop Link' }).click();
    await page.waitForURL((url) => url.pathname !== '/admin-profile');
    await waitFor(async () => !(await onScreen()), 5_000, 'the navigation to close');
    await keepScreenshot(page, 'partner-phone-page-chosen');
    // The page already shown, chosen again, closes it too.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await waitFor(onScreen, 5_000, 'the navigation to open again');
    await nav.getByRole('link', { name: 'Drop Link' }).click();
    await waitFor(async () => !(await onScreen()), 5_000, 'the navigation to close on the current page');
  });

  it("sends an advisor home when the sign-in redirect is a client's page", async () => {
    const page = await freshPage();
    await page.goto(`${portal.stack.shellUrl}/signin?redirect=${encodeURIComponent('/profile')}`);
    await page.getByLabel('Email', { exact: true }).fill('partner@demo-cpa.test');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  });

  it("shows 'Invalid password' for a wrong password", async () => {
    const page = await freshPage();
    await page.goto(`${portal.stack.shellUrl}/signin`);
    await field(page, 'Email').fill('bob@client.test');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Invalid password').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await keepScreenshot(page, 'wrong-password');
  });

  it('shows the error fallback, not an empty page, when the sign-in page cannot load its next step', async () => {
    const page = await freshPage();
    const reports = errorReports(page);
    // Only the page's first two scripts load: as when the network is gone, or a release replaced the
    // files of the steps this page would load next.
    await page.route(/\/js\/[^/]+\.js$/, (route) =>
      /\/js\/(main|react)\.[^/]+\.js$/.test(route.request().url()) ? route.continue() : route.abort(),
    );
    await page.goto(`${portal.stack.shellUrl}/signin`);
    await field(page, 'Email').fill('bob@client.test');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const fallback = page.getByTestId('error-fallback');
    await fallback.getByText(FALLBACK).waitFor();
    expect(await fallback.getByRole('button', { name: 'Refresh' }).isVisible()).toBe(true);
    await keepScreenshot(page, 'signin-step-failed-to-load');
    // The gateway's log has it, without the page's query.
    await waitFor(async () => reports.length > 0, 5_000, 'an error report');
    expect(reports[0]).toEqual({
      status: 204,
      body: expect.objectContaining({ kind: 'render', page: '/signin', message: expect.any(String) }),
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // The user can quote it: the trace id the gateway logged the report under.
    expect(await fallback.getByTestId('error-reference').textContent()).toBe(
      `Reference: ${reports[0]?.traceId}`,
    );
  });
});

describe('accessibility (axe, every rule of WCAG 2 A and AA and its best practices)', () => {
  it('finds nothing on the sign-in states, the secure upload page and an advisor’s pages', async () => {
    const page = await freshPage();
    await page.goto(`${portal.stack.shellUrl}/secure-upload`);
    await page.getByRole('heading', { name: 'Drop off documents' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto(`${portal.stack.shellUrl}/signin#token=not-a-token`);
    await page.getByText('This link has expired or was already used').waitFor();
    // The emailed link's token (in the fragment, which no server saw) has left the address too.
    expect(new URL(page.url()).hash).toBe('');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto(`${portal.stack.shellUrl}/signin`);
    await page.getByLabel('Email', { exact: true }).fill('partner@demo-cpa.test');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByTestId('signin-error').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Drop Link' })
      .click();
    await page.getByRole('heading', { name: 'Drop Link', level: 1 }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('finds nothing on a client’s profile and documents, nor on the advisor’s documents of that entity', async () => {
    const client = await signedIn('alice@client.test');
    await openClientProfile(client);
    await field(client, 'Primary Contact Email').waitFor();
    expect(await accessibilityViolations(client)).toEqual([]);
    const hash = await openClientDocuments(client);
    expect(await accessibilityViolations(client)).toEqual([]);

    const advisor = await signedIn('partner@demo-cpa.test');
    await openAdvisorDocuments(advisor, hash);
    expect(await accessibilityViolations(advisor)).toEqual([]);
  });

  it('finds nothing in the file manager’s dialogs and menus, nor in the entity switcher’s list', async () => {
    const hash = await openClientDocuments(await signedIn('alice@client.test'));
    const advisor = await signedIn('partner@demo-cpa.test');
    const switcher = advisor
      .getByRole('navigation', { name: 'Main navigation' })
      .getByLabel('Go to an entity');
    await switcher.click();
    await switcher.fill('Anders');
    await advisor.getByRole('option').first().waitFor();
    expect(await accessibilityViolations(advisor, { popup: true })).toEqual([]);

    await openAdvisorDocuments(advisor, hash);
    const dialogs: [string, string][] = [
      ['Add Folder', 'Add Folder'],
      ['Add', 'Upload'],
      ['Drop Link', 'Drop Link'],
    ];
    for (const [button, title] of dialogs) {
      await advisor.getByRole('button', { name: button, exact: true }).first().click();
      const open = advisor.getByRole('dialog', { name: title });
      await open.waitFor();
      expect({ title, found: await accessibilityViolations(advisor) }).toEqual({ title, found: [] });
      if (button === 'Add Folder') {
        // A folder of this test's own, for the menu and the Move dialog below.
        await open.getByLabel('Folder name').fill('Audited folder');
        await open.getByRole('button', { name: 'Create' }).click();
      } else {
        await open.getByRole('button', { name: 'Close' }).first().click();
      }
      await open.waitFor({ state: 'hidden' });
    }
    await advisor.getByRole('button', { name: 'Actions for Audited folder', exact: true }).click();
    await advisor.getByRole('menuitem', { name: 'Move' }).waitFor();
    expect(await accessibilityViolations(advisor, { popup: true })).toEqual([]);
    await advisor.getByRole('menuitem', { name: 'Move' }).click();
    await advisor.getByRole('menu').waitFor({ state: 'hidden' });
    const move = advisor.getByRole('dialog').first();
    await move.getByRole('tree').waitFor();
    expect(await accessibilityViolations(advisor)).toEqual([]);
    await move.getByRole('button', { name: 'Close' }).first().click();
    await move.waitFor({ state: 'hidden' });
    // The confirmation of a destructive action (its red button).
    await advisor.getByRole('button', { name: 'Actions for Audited folder', exact: true }).click();
    await advisor.getByRole('menuitem', { name: 'Delete' }).click();
    await advisor.getByRole('menu').waitFor({ state: 'hidden' });
    await advisor.getByRole('dialog').first().getByRole('button', { name: 'Cancel' }).waitFor();
    expect(await accessibilityViolations(advisor)).toEqual([]);
  });
});

describe('profiles', () => {
  it('saves a client profile change that survives a reload', async () => {
    const page = await signedIn('bob@client.test');
    await openClientProfile(page);
    await field(page, 'Work Phone Number').fill('5105550123');
    expect(await field(page, 'Work Phone Number').inputValue()).toBe('(510) 555-0123');
    await field(page, 'Time Zone').click();
    await page.getByRole('option', { name: 'Eastern Time (US & Canada)' }).click();
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await toastSaying(page, 'Profile updated successfully').waitFor();
    await keepScreenshot(page, 'client-profile-saved');

    await page.reload();
    await field(page, 'Work Phone Number').waitFor();
    expect(await field(page, 'Work Phone Number').inputValue()).toBe('(510) 555-0123');
    expect(await field(page, 'Time Zone').inputValue()).toBe('Eastern Time (US & Canada)');
    const stored = await portal.stack.identity.query<{ work_phone_number: string; time_zone: string }>(
      'select work_phone_number, time_zone from users where id = $1',
      [portal.stack.userId('bob')],
    );
    expect(stored[0]).toEqual({ work_phone_number: '5105550123', time_zone: 'Eastern Time (US & Canada)' });
  });

  it('asks for the password before a client changes their own phone, and saves it with the right one', async () => {
    const page = await signedIn('bob@client.test');
    await openClientProfile(page);
    expect(await field(page, 'Current password').count()).toBe(0);
    await field(page, 'Phone Number').fill('6465550177');
    await field(page, 'Current password').fill('not-the-password');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Current password is incorrect').first().waitFor();
    await keepScreenshot(page, 'client-profile-current-password');
    await field(page, 'Current password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await toastSaying(page, 'Profile updated successfully').waitFor();
    expect(await field(page, 'Current password').count()).toBe(0);
    const stored = await portal.stack.identity.query<{
      phone_number: string;
      failed_password_attempts: number;
    }>('select phone_number, failed_password_attempts from users where id = $1', [
      portal.stack.userId('bob'),
    ]);
    expect(stored[0]).toEqual({ phone_number: '6465550177', failed_password_attempts: 0 });
  });

  it('withdraws an email change waiting for confirmation, and its link no longer confirms', async () => {
    const page = await signedIn('bob@client.test');
    await openClientProfile(page);
    await field(page, 'Primary Contact Email').fill('bob.typo@client.test');
    await field(page, 'Current password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Update Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your new email' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Waiting for confirmation of bob.typo@client.test').waitFor();
    const [link] = await portal.stack.identity.query<{ id: string }>(
      `select id from one_time_secrets where user_id = $1 and purpose = 'email_confirmation' and consumed_at is null`,
      [portal.stack.userId('bob')],
    );
    expect(link).toBeDefined();
    await page.getByRole('button', { name: 'Cancel email change' }).click();
    await toastSaying(page, 'Email change cancelled').waitFor();
    await page.getByText(/Waiting for confirmation/).waitFor({ state: 'detached' });
    expect(await field(page, 'Primary Contact Email').inputValue()).toBe('bob@client.test');
    const [after] = await portal.stack.identity.query<{ pending_email: string | null; consumed: boolean }>(
      `select u.pending_email, s.consumed_at is not null as consumed from users u, one_time_secrets s
        where u.id = $1 and s.id = $2`,
      [portal.stack.userId('bob'), link?.id],
    );
    expect(after).toEqual({ pending_email: null, consumed: true });
  });

  it('saves the entity profile with Canadian labels', async () => {
    const page = await signedIn('bob@client.test');
    await openClientProfile(page);
    await field(page, 'Country').click();
    await field(page, 'Country').fill('Canada');
    await page.getByRole('option', { name: 'Canada' }).click();
    await field(page, 'Province/Territory').fill('BC');
    await field(page, 'Postal Code').fill('V6B 1A1');
    await page.getByRole('button', { name: 'Save Information' }).click();
    await toastSaying(page, 'Entity info updated successfully.').waitFor();
    await page.reload();
    await field(page, 'Postal Code').waitFor();
    expect(await field(page, 'Country').inputValue()).toBe('Canada');
    expect(await field(page, 'Province/Territory').inputValue()).toBe('BC');
    await keepScreenshot(page, 'entity-profile-canada');
  });

  it('shows a read-only client the banner and disabled inputs', async () => {
    const page = await signedIn('carol@client.test');
    await page.getByTestId('read-only-account').waitFor();
    await openClientProfile(page);
    expect(await field(page, 'Primary Contact Email').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Update Profile' }).isDisabled()).toBe(true);
    await keepScreenshot(page, 'read-only-client');
  });

  it("previews a client's profile read-only for an advisor", async () => {
    const page = await signedIn('partner@demo-cpa.test');
    await page.goto(`${portal.stack.shellUrl}/preview/user/${portal.stack.userId('alice')}`);
    await page.getByTestId('profile-preview').waitFor();
    expect(await field(page, 'Primary Contact Email').inputValue()).toBe('alice@client.test');
    const inputs = page.getByTestId('profile-preview').locator('form input');
    await page.getByRole('heading', { name: 'Alice Anders' }).waitFor();
    const states = await inputs.evaluateAll((els) =>
      els.map((el) => (el as unknown as { disabled: boolean }).disabled),
    );
    expect(states.length).toBeGreaterThan(10);
    expect(states.every(Boolean)).toBe(true);
    expect(await page.getByRole('button', { name: 'Update Profile' }).count()).toBe(0);
    await keepScreenshot(page, 'advisor-preview');
  });
});

describe('sessions across tabs', () => {
  it('signs the other tab out with the notice', async () => {
    const first = await signedIn('alice@client.test');
    const second = await first.context().newPage();
    await second.goto(`${portal.stack.shellUrl}/profile`);
    await field(second, 'Primary Contact Email').waitFor();
    await first.getByRole('button', { name: 'Sign out' }).click();
    await second.getByText(SIGNED_OUT).waitFor();
    await second.waitForURL((url) => url.pathname === '/signin');
    await keepScreenshot(second, 'signed-out-other-tab');
    // Neither tab keeps the client's page to return to: the next user signing in here lands on theirs.
    await first.waitForURL((url) => url.pathname === '/signin');
    await first.waitForTimeout(300);
    expect([new URL(first.url()).search, new URL(second.url()).search]).toEqual(['', '']);
    // The user who signed out is not told they were (the revocation's echoes reach no tab); the other
    // tab's notice goes after its 10 s, although the page changed under it.
    expect(await first.getByText(SIGNED_OUT).count()).toBe(0);
    await second.getByText(SIGNED_OUT).waitFor({ state: 'detached', timeout: 15_000 });
  });

  it("starts a tab again as the new user when another tab signs in as someone else, not on the first user's page", async () => {
    const first = await signedIn('alice@client.test');
    await first.goto(`${portal.stack.shellUrl}/profile`);
    expect(await field(first, 'Primary Contact Email').inputValue()).toBe('alice@client.test');
    const alicesRefresh = await first.evaluate(
      () => JSON.parse(localStorage.getItem('portico.session') ?? '{}').refresh_token as string,
    );
    const second = await first.context().newPage();
    await signIn(second, portal.stack.shellUrl, 'bob@client.test', DEMO_PASSWORD);
    await second.waitForURL((url) => !url.pathname.startsWith('/signin'));
    // The first tab left Alice's profile for Bob's home, with Bob's name, by a fresh load.
    await first.waitForURL((url) => url.pathname !== '/profile');
    await first.getByText('Bob Brown').first().waitFor();
    expect(await first.getByText('Alice').count()).toBe(0);
    await keepScreenshot(first, 'other-user-signed-in-other-tab');
    // Alice's session ended on the server too: her refresh token renews nothing.
    const renewal = await fetch(`${portal.stack.gateway.url}/sessions/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: alicesRefresh }),
    });
    expect(renewal.status).toBe(401);
    // And Bob, whose tab heard Alice's socket closed by that, is still signed in in both tabs.
    await second.reload();
    await second.getByText('Bob Brown').first().waitFor();
    expect(new URL(first.url()).pathname).not.toBe('/signin');
  });
});

describe('realtime', () => {
  it('shows the maintenance alert in open pages as the operators publish it, without a reload, and takes it down', async () => {
    const client = await freshPage();
    const received = socketMessages(client);
    const socketOpened = client.waitForEvent('websocket');
    await signIn(client, portal.stack.shellUrl, 'alice@client.test', DEMO_PASSWORD);
    await landOnClientDocuments(client);
    expect(new URL((await socketOpened).url()).pathname).toBe('/realtime');
    const advisor = await signedIn('partner@demo-cpa.test');
    await advisor.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    // A mark in each page's document: a reload would start a document without it.
    for (const page of [client, advisor]) await page.evaluate('window.beforeTheAlert = true');

    const text = 'Portico will be down for updates at 22:00 UTC';
    const alerts = [client, advisor].map((page) => page.getByTestId('maintenance-alert'));
    try {
      await maintenanceCommand('show', text);
      for (const alert of alerts) {
        await alert.waitFor();
        expect(await alert.textContent()).toBe(text);
      }
      expect(received).toContainEqual({ type: 'maintenance_alert', show: true, text });
      for (const page of [client, advisor]) expect(await page.evaluate('window.beforeTheAlert')).toBe(true);
      await keepScreenshot(client, 'maintenance-alert-client');
    } finally {
      // The gateway gives the latest alert to every socket opened later: other journeys must not get it.
      await maintenanceCommand('clear');
    }
    for (const alert of alerts) await alert.waitFor({ state: 'detached' });
    expect(received).toContainEqual({ type: 'maintenance_alert', show: false, text: '' });
    expect(await client.getByTestId('documents-table').isVisible()).toBe(true);
  });

  it("signs an open page out over its socket, with the notice, when the user's sessions are ended elsewhere", async () => {
    // Dan signs in nowhere else in these journeys: his sessions are the two of this test.
    const page = await freshPage();
    const received = socketMessages(page);
    const socketOpened = page.waitForEvent('websocket');
    await signIn(page, portal.stack.shellUrl, 'dan@client.test', DEMO_PASSWORD);
    await landOnClientDocuments(page);
    const socket = await socketOpened;
    expect(new URL(socket.url()).pathname).toBe('/realtime');
    const socketClosed = socket.waitForEvent('close');
    // A call refused with the ended session's token would sign the page out too (as expired): none may be.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(portal.stack.gateway.url) && response.status() === 401)
        refused.push(response.url());
    });
    await page.evaluate('window.beforeTheSignOut = true');

    // Another session of Dan's, as on another device, ends them all.
    const elsewhere = await signedIn('dan@client.test');
    const ended = await callGateway<{ revoked_sessions: number }>(
      await accessTokenOf(elsewhere),
      'POST',
      '/sessions/sign_out_everywhere',
      {},
    );
    expect(ended).toEqual({ revoked_sessions: 2 });

    const notice = page.getByTestId('signed-out-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(SIGNED_OUT);
    await page.waitForURL((url) => url.pathname === '/signin');
    await socketClosed;
    expect(received).toContainEqual({ type: 'forced_sign_out' });
    expect(refused).toEqual([]);
    expect(await page.evaluate('window.beforeTheSignOut')).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('portico.session'))).toBeNull();
    await keepScreenshot(page, 'signed-out-everywhere');
  });
});

/**
 * Runs `work` with one area's remote found at `manifestUrl` in the runtime configuration (down, empty or
 * a patched release), then puts the standard configuration back whatever happened.
 */
async function withRemoteAt(area: 'client' | 'admin', manifestUrl: string, work: () => Promise<void>) {
  await portal.stack.setRuntimeConfig({
    ...portal.stack.standard,
    remotes: { ...portal.stack.standard.remotes, [area]: manifestUrl },
  });
  try {
    await work();
  } finally {
    await portal.stack.setRuntimeConfig(portal.stack.standard);
  }
}

describe('remotes', () => {
  it('shows the fallback in the area whose remote is down; the shell and the other area keep working', async () => {
    await withRemoteAt('admin', `http://127.0.0.1:${await freePort()}/mf-manifest.json`, async () => {
      const advisor = await signedIn('partner@demo-cpa.test');
      const reports = errorReports(advisor);
      await advisor.goto(`${portal.stack.shellUrl}/admin-profile`);
      await advisor.getByTestId('error-fallback').getByText(FALLBACK).waitFor();
      // Reported once as the admin area's failure to load; the fallback quotes its reference.
      await waitFor(async () => reports.some((r) => r.body.area === 'admin'), 10_000, 'the report');
      const report = reports.find((r) => r.body.area === 'admin');
      expect(report).toMatchObject({ status: 204, body: { kind: 'remote' } });
      expect(await advisor.getByTestId('error-reference').textContent()).toBe(
        `Reference: ${report?.traceId}`,
      );
      await advisor.getByText('Demo CPA').first().waitFor();
      expect(await advisor.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
      expect(await advisor.getByRole('button', { name: 'Refresh' }).isVisible()).toBe(true);
      await keepScreenshot(advisor, 'remote-down-advisor');

      // The client area is up: a client works as usual.
      const client = await signedIn('alice@client.test');
      await landOnClientDocuments(client);
      await openClientProfile(client);
      expect(await field(client, 'Primary Contact Email').inputValue()).toBe('alice@client.test');
      expect(await client.getByTestId('error-fallback').count()).toBe(0);
    });
  });

  it('shows the fallback in the area whose manifest answers 404; the shell and the other areas keep working', async () => {
    // A static server that is up but holds no release of the client area.
    const empty = join(portal.stack.temp, 'client-no-release');
    await mkdir(empty, { recursive: true });
    const emptyServer = await portal.stack.serve(empty);
    const manifestUrl = `${emptyServer.url}/mf-manifest.json`;
    expect((await fetch(manifestUrl)).status).toBe(404);
    await withRemoteAt('client', manifestUrl, async () => {
      const client = await signedIn('alice@client.test');
      const reports = errorReports(client);
      await client.goto(`${portal.stack.shellUrl}/profile`);
      const fallback = client.getByTestId('error-fallback');
      await fallback.getByText(FALLBACK).waitFor();
      await waitFor(async () => reports.some((r) => r.body.area === 'client'), 10_000, 'the report');
      const report = reports.find((r) => r.body.area === 'client');
      expect(report).toMatchObject({ status: 204, body: { kind: 'remote', page: '/profile' } });
      expect(await fallback.getByTestId('error-reference').textContent()).toBe(
        `Reference: ${report?.traceId}`,
      );
      // The area that did not load has no item; the shell's header and the documents area still work.
      expect(await navigationIds(client, 'Client navigation')).toEqual(['client-documents']);
      expect(await client.getByTestId('entity-selector').isVisible()).toBe(true);
      await keepScreenshot(client, 'remote-manifest-404-client');
      await openClientDocuments(client);
      expect(await fallback.count()).toBe(0);

      // The admin area is unaffected.
      const advisor = await signedIn('partner@demo-cpa.test');
      await advisor.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
      expect(await field(advisor, 'First Name').inputValue()).toBe('Paula');
    });
  });

  it('shows the fallback in the area whose screen throws while rendering, under working navigation', async () => {
    // A release of the client area whose Profile loads, then throws each time it renders.
    const broken = join(portal.stack.temp, 'client-throws-on-render');
    await cp(join(FRONTENDS, 'client', 'dist'), broken, { recursive: true });
    const profileModule = join(broken, await profileExposeChunk(broken));
    const code = await readFile(profileModule, 'utf8');
    // The exposed default export is the Profile component; its body starts with a throw.
    const render = /default:function\(\w*\)\{/g;
    const found = code.match(render);
    if (found?.length !== 1) throw new Error("the Profile module's component is no longer where expected");
    await writeFile(
      profileModule,
      code.replace(render, (start) => `${start}throw new Error('${PROFILE_RENDER_ERROR}');`),
    );
    const brokenServer = await portal.stack.serve(broken);
    await withRemoteAt('client', `${brokenServer.url}/mf-manifest.json`, async () => {
      const client = await signedIn('alice@client.test');
      const reports = errorReports(client);
      await client.goto(`${portal.stack.shellUrl}/profile`);
      const area = client.getByTestId('error-fallback');
      await area.getByText(FALLBACK).waitFor();
      // Reported by the area's error boundary as a render error of the client area, not a failed load.
      await waitFor(async () => reports.length > 0, 5_000, 'an error report');
      expect(reports.map((r) => r.body.kind)).toEqual(['render']);
      expect(reports[0]).toEqual({
        status: 204,
        body: expect.objectContaining({
          kind: 'render',
          area: 'client',
          page: '/profile',
          message: `Error: ${PROFILE_RENDER_ERROR}`,
          component_stack: expect.any(String),
        }),
        traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      expect(await area.getByTestId('error-reference').textContent()).toBe(
        `Reference: ${reports[0]?.traceId}`,
      );
      // The client area loaded: its item stays, and the navigation leads away from the broken screen.
      expect(await navigationIds(client, 'Client navigation')).toEqual([
        'client-documents',
        'client-profile',
      ]);
      await keepScreenshot(client, 'remote-throws-on-render-client');
      await openClientDocuments(client);
      expect(await area.count()).toBe(0);
    });
  });

  it('shows the fallback in the area whose module fails to load, under working navigation', async () => {
    // A release of the client area whose profile module throws as soon as it is evaluated.
    const broken = join(portal.stack.temp, 'client-broken');
    await cp(join(FRONTENDS, 'client', 'dist'), broken, { recursive: true });
    await writeFile(
      join(broken, await profileExposeChunk(broken)),
      "throw new Error('a broken release of the client area');\n",
    );
    const brokenServer = await portal.stack.serve(broken);
    await withRemoteAt('client', `${brokenServer.url}/mf-manifest.json`, async () => {
      const client = await signedIn('alice@client.test');
      const reports = errorReports(client);
      await client.goto(`${portal.stack.shellUrl}/profile`);
      const area = client.getByTestId('error-fallback');
      await area.getByText(FALLBACK).waitFor();
      // Navigation, the entity selector and the firm's banner of the shell are still there.
      expect(await navigationIds(client, 'Client navigation')).toEqual([
        'client-documents',
        'client-profile',
      ]);
      expect(await client.getByTestId('entity-selector').isVisible()).toBe(true);
      expect(await client.getByTestId('in-app-banner').isVisible()).toBe(true);
      expect(await area.getByRole('button', { name: 'Refresh' }).isVisible()).toBe(true);
      await keepScreenshot(client, 'remote-module-fails-client');
      // Reported to the gateway's log as the client area's failure to load, with the signed-in user.
      await waitFor(async () => reports.length > 0, 5_000, 'an error report');
      const report = reports.find((r) => r.body.kind === 'remote');
      expect(report).toEqual({
        status: 204,
        body: expect.objectContaining({
          area: 'client',
          page: '/profile',
          message: expect.stringContaining('Loading chunk'),
        }),
        traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      expect(await area.getByTestId('error-reference').textContent()).toBe(`Reference: ${report?.traceId}`);

      // The admin area is unaffected.
      const advisor = await signedIn('partner@demo-cpa.test');
      await advisor.waitForURL(`${portal.stack.shellUrl}/admin-profile`);
      expect(await field(advisor, 'First Name').inputValue()).toBe('Paula');
    });
  });

  it('picks up a redeployed remote on reload without rebuilding the shell', async () => {
    const release = await clientReleaseB();
    const shellBefore = await readFile(join(FRONTENDS, 'shell', 'dist', 'index.html'), 'utf8');
    const page = await signedIn('alice@client.test');
    await openClientProfile(page);
    await field(page, 'Primary Contact Email').waitFor();
    expect(await page.getByTestId('build-marker').count()).toBe(0);

    const server = await portal.stack.serve(release);
    await portal.stack.setRuntimeConfig({
      ...portal.stack.standard,
      remotes: { ...portal.stack.standard.remotes, client: `${server.url}/mf-manifest.json` },
    });
    try {
      await page.reload();
      await page.getByTestId('build-marker').waitFor();
      expect(await page.getByTestId('build-marker').textContent()).toBe('Release B');
      expect(await readFile(join(FRONTENDS, 'shell', 'dist', 'index.html'), 'utf8')).toBe(shellBefore);
      await keepScreenshot(page, 'remote-redeployed');
    } finally {
      await portal.stack.setRuntimeConfig(portal.stack.standard);
    }
  });

  it('loads the next screen of a remote redeployed while the page is open from the new release', async () => {
    // The client area as deployed at one address: release A, then release B copied over it.
    const live = join(portal.stack.temp, 'client-live');
    await cp(join(FRONTENDS, 'client', 'dist'), live, { recursive: true });
    const server = await portal.stack.serve(live);
    await portal.stack.setRuntimeConfig({
      ...portal.stack.standard,
      remotes: { ...portal.stack.standard.remotes, client: `${server.url}/mf-manifest.json` },
    });
    try {
      const page = await signedIn('alice@client.test');
      await landOnClientDocuments(page);
      const release = await clientReleaseB();
      await rm(live, { recursive: true });
      await cp(release, live, { recursive: true });
      // The page still holds release A's container, whose Profile chunk is gone now.
      const reports = errorReports(page);
      await openClientProfile(page);
      await page.getByTestId('build-marker').waitFor();
      expect(await page.getByTestId('build-marker').textContent()).toBe('Release B');
      expect(await page.getByText(FALLBACK).count()).toBe(0);
      // The chunk that was gone is still reported, as the client area's failure to load.
      await waitFor(async () => reports.length > 0, 5_000, 'an error report');
      expect(reports[0]?.body).toEqual(expect.objectContaining({ kind: 'remote', area: 'client' }));
      await keepScreenshot(page, 'remote-redeployed-while-open');
    } finally {
      await portal.stack.setRuntimeConfig(portal.stack.standard);
    }
  });
});
