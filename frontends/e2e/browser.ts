// Debian's chromium driven by playwright-core (never a downloaded browser), and journey screenshots kept
// under test-artifacts/browser/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/browser');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
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

/** The ids of the navigation items shown, in order. */
export async function navigationIds(page: Page, navName: 'Main navigation' | 'Client navigation') {
  const nav = page.getByRole('navigation', { name: navName });
  await nav.locator('[data-nav-id]').first().waitFor();
  return nav.locator('[data-nav-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-nav-id')));
}
