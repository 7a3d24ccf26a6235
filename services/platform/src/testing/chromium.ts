/** Debian's chromium, driven by playwright-core in the browser tests and benchmarks (never a downloaded browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, with no first-run, sync, update or other background work of its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium preloads its own WebUI (the omnibox popup) in a renderer of its own as the browser starts:
  // a trace showed it taking as much CPU as the page under test during that page's load on a 2-core
  // machine. A user's browser has done that long before they open the portal.
  '--disable-features=PreloadTopChromeWebUI',
];
