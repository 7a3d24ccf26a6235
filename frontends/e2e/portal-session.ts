// The portal and a browser for one test file: the stack and chromium start before its tests and stop
// after them; the pages a test opens are closed after it.
import { afterAll, afterEach, beforeAll } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, reportPolicyRefusals, signIn } from './browser.js';
import { DEMO_PASSWORD, type PortalStack, startPortalStack } from './stack.js';

export type Screen = 'desktop' | 'tablet' | 'phone';
const SCREENS = {
  desktop: { viewport: { width: 1280, height: 900 } },
  tablet: { viewport: { width: 820, height: 1180 }, isMobile: true },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true },
} as const;

export interface PortalSession {
  readonly stack: PortalStack;
  readonly browser: Browser;
  /** A page in a browser context of its own: a desktop screen, a tablet's (820 px) or a phone's (390 px). */
  freshPage(screen?: Screen): Promise<Page>;
  /** A fresh page signed in with the demo password, past the sign-in page. */
  signedIn(email: string, screen?: Screen): Promise<Page>;
}

/** Call at the top of a test file: registers the hooks and answers the session they set up. */
export function portalSession(): PortalSession {
  let stack: PortalStack | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startPortalStack();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);
  // Every page runs under the front ends' Content-Security-Policy (frontends/serve-static.mjs sends
  // production's): anything it refuses (a script, a worker, an eval) fails the test that caused it.
  const refused: string[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    const seen = refused.splice(0);
    if (seen.length) throw new Error(`The page's security policy refused:\n${seen.join('\n')}`);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The portal session starts in beforeAll');
    return value;
  };
  const session: PortalSession = {
    get stack() {
      return started(stack);
    },
    get browser() {
      return started(browser);
    },
    async freshPage(screen = 'desktop') {
      const context = await session.browser.newContext(SCREENS[screen]);
      contexts.push(context);
      await reportPolicyRefusals(context, (r) =>
        refused.push(`${r.directive} refused ${r.blocked} on ${r.page}`),
      );
      return context.newPage();
    },
    async signedIn(email, screen = 'desktop') {
      const page = await session.freshPage(screen);
      await signIn(page, session.stack.shellUrl, email, DEMO_PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
      return page;
    },
  };
  return session;
}
