// Debian's chromium driven by playwright-core (never a downloaded browser), and journey screenshots kept
// under test-artifacts/browser/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH, waitFor } from '@portico/platform/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/browser');
const AXE_SCRIPT = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** What a page's Content-Security-Policy refused: the directive, the address (or '(inline)') and the page. */
export interface PolicyRefusal {
  directive: string;
  blocked: string;
  page: string;
}

/**
 * Tells `onRefused` what the security policy of each page of `context` refuses, from before the page's
 * first script. Call it before the context opens its pages.
 */
export async function reportPolicyRefusals(
  context: BrowserContext,
  onRefused: (refusal: PolicyRefusal) => void,
): Promise<void> {
  await context.exposeFunction('reportPolicyRefusal', onRefused);
  // A string, run in the page (the project's types have no DOM library).
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) =>
    window.reportPolicyRefusal({ directive: e.effectiveDirective, blocked: e.blockedURI || '(inline)', page: e.documentURI }),
    true);`);
}

/** A full-page screenshot of a journey's end state. */
export async function keepScreenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The password sign-in of spec 1 s.4.4 through the shell's /signin form. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * The shown toast saying `text`. Toasts are looked for where they show: the region that says them to
 * screen readers holds the same text, out of sight.
 */
export const toastSaying = (page: Page, text: string) =>
  page.locator('[data-toast]').getByText(text, { exact: true }).first();

/** The ids of the navigation items shown, in order. */
export async function navigationIds(page: Page, navName: 'Main navigation' | 'Client navigation') {
  const nav = page.getByRole('navigation', { name: navName });
  await nav.locator('[data-nav-id]').first().waitFor();
  return nav.locator('[data-nav-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-nav-id')));
}

/**
 * axe's violations (every rule of WCAG 2 A and AA and its best practices) on the page as it is: rule,
 * impact and the elements, for a readable failure. `popup`: a menu or list is open. It is rendered at the
 * end of the body, outside the landmarks, which axe's best-practice rule 'region' reports; that rule is
 * left out then, every other rule stays.
 */
export async function accessibilityViolations(page: Page, options: { popup?: boolean } = {}) {
  // Audit what the user sees once it has settled: a dialog or menu fading in or out has the contrast of
  // a frame of its transition.
  // Polled with page.evaluate: Playwright's waitForFunction runs its predicate through the page's eval,
  // which the portal's security policy refuses.
  const settled = 'document.getAnimations().every((a) => a.playState !== "running")';
  await waitFor(async () => !!(await page.evaluate(settled)), 10_000, 'animations to settle');
  // Evaluated as the debugger does: a script tag of its own would be inline code, which the portal's
  // security policy refuses.
  if (!(await page.evaluate('typeof axe !== "undefined"')))
    await page.evaluate(readFileSync(AXE_SCRIPT, 'utf8'));
  const rules = options.popup ? '{ region: { enabled: false } }' : '{}';
  // A string, run in the page (the project's types have no DOM library).
  return (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'], rules: ${rules} }).then((r) => r.violations.map((v) =>
      ({ rule: v.id, impact: v.impact, elements: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as { rule: string; impact: string; elements: string[] }[];
}
