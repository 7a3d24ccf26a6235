// Opening a folder of 10,000 files in the advisor's file manager: production builds of the shell and the
// remotes in headless chromium, against the documents stack (stack.mjs), signed in as the demo partner.
// Measured from the click on the folder's name until the first rows of its listing are in the page and a
// frame has passed, inside the page (performance.now); then the JavaScript heap after a garbage
// collection and the DOM's node count (CDP Performance.getMetrics).
// The baseline, in the same browser and run: a page without any framework that makes the same
// get_documents request with the same token, sorts the answer the same way and writes its first 100 rows
// into a plain table.
// Usage: npm run bench -- documents  (after npm run build; needs Debian's chromium). BENCH_FOLDER_ITEMS
// (10000), BENCH_FOLDER_RUNS (5, after one warm-up), BENCH_DOCUMENTS_DIST=<dir> measures another build of
// the documents remote (e.g. of an earlier commit).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '@portico/platform/testing';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { serveFrontend, stopChild } from '../lib.mjs';
import { percentile, seedLargeFolder, startDocumentsStack } from './stack.mjs';

const root = resolve(import.meta.dirname, '../../..');
const frontends = join(root, 'frontends');
const total = Number(process.env.BENCH_FOLDER_ITEMS ?? 10_000);
const runs = Number(process.env.BENCH_FOLDER_RUNS ?? 5);
const documentsDist = resolve(process.env.BENCH_DOCUMENTS_DIST ?? join(frontends, 'documents/dist'));
const FOLDER = 'Archive';
const ROWS = 100;

for (const dist of [join(frontends, 'shell/dist'), documentsDist])
  if (!existsSync(join(dist, 'index.html')) && !existsSync(join(dist, 'mf-manifest.json'))) {
    console.error(`${dist} is not built: run npm run build first`);
    process.exit(1);
  }

/**
 * The baseline page: the same request, sort and first rows, written with the DOM alone. Its script is a
 * file of its own: the pages are served under the front ends' security policy, which runs no inline code.
 */
const BASELINE_HTML = `<!doctype html><meta charset="utf-8"><title>baseline</title>
<button id="open">${FOLDER}</button><table><tbody id="rows"></tbody></table>
<script src="baseline.js" defer></script>`;
const BASELINE_SCRIPT = `const params = new URLSearchParams(location.hash.slice(1));
const byName = new Intl.Collator(undefined, { numeric: true });
document.getElementById('open').onclick = async () => {
  const res = await fetch(params.get('api') + '/integrations/get_documents', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + params.get('token') },
    body: JSON.stringify({ companyId: params.get('company'), path: '/${FOLDER}', lean: true }),
  });
  const docs = (await res.json()).documents.sort((a, b) =>
    (a.type === b.type ? 0 : a.type === 'folder' ? -1 : 1) || byName.compare(a.name, b.name));
  const rows = document.createDocumentFragment();
  for (const d of docs.slice(0, ${ROWS})) {
    const tr = document.createElement('tr');
    for (const value of [d.name, d.description ?? '', d.updated_at ?? '', String(d.size ?? '')]) {
      const td = document.createElement('td');
      td.textContent = value;
      tr.append(td);
    }
    rows.append(tr);
  }
  document.getElementById('rows').replaceChildren(rows);
};
`;

/**
 * Clicks `target` (a selector and its text) in the page and resolves the milliseconds until `done()`
 * holds after a DOM change and a frame has passed. One expression, evaluated as the debugger does: the
 * page's security policy refuses eval and new Function.
 */
function clickAndTime(page, target, doneSource) {
  return page.evaluate(`new Promise((resolveTime, fail) => {
    const done = ${doneSource};
    const target = ${JSON.stringify(target)};
    const button = [...document.querySelectorAll(target.selector)].find(
      (el) => el.textContent?.trim() === target.text,
    );
    if (!button) return fail(new Error('no ' + target.selector + ' reading ' + target.text));
    let started = 0;
    // A page that never gets there fails the run instead of holding it.
    const timer = setTimeout(() => fail(new Error(target.text + ' not open after 60 s')), 60000);
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => setTimeout(() => resolveTime(performance.now() - started)));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    started = performance.now();
    button.click();
  })`);
}

/** The JavaScript heap (MB) after a garbage collection and the DOM's node count. */
async function memoryOf(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  await cdp.detach();
  return { heapMb: metric('JSHeapUsedSize') / 1024 / 1024, nodes: metric('Nodes') };
}

// The file manager is done when its count names the whole folder and the table holds the first rows
// (the count with or without thousands separators, so that earlier builds can be measured too).
const countPattern = String(total).replace(/\B(?=(\d{3})+$)/g, ',?');
const FILE_MANAGER_DONE = `() => /^${countPattern} items$/.test(document.querySelector('[data-testid=item-count]')?.textContent ?? '')
  && document.querySelectorAll('[data-testid=documents-table] tbody tr').length >= ${ROWS}`;
const BASELINE_DONE = `() => document.querySelectorAll('#rows tr').length >= ${ROWS}`;

const temp = mkdtempSync(join(tmpdir(), 'bench-folder-'));
const children = [];
const [shellPort, baselinePort] = [await freePort(), await freePort()];
const shellUrl = `http://127.0.0.1:${shellPort}`;
const baselineUrl = `http://127.0.0.1:${baselinePort}`;
const stack = await startDocumentsStack({ gatewayEnv: { CORS_ORIGINS: `${shellUrl},${baselineUrl}` } });
const db = new pg.Client({ connectionString: stack.documentsAdminUrl });
let browser;
try {
  await db.connect();
  await seedLargeFolder(stack, db, FOLDER, total);

  const serve = async (name, dir, args, port) => {
    const served = await serveFrontend(name, dir, port ?? (await freePort()), args);
    children.push(served.child);
    return served.url;
  };
  const remotes = {};
  for (const [name, dist] of [
    ['client', join(frontends, 'client/dist')],
    ['admin', join(frontends, 'admin/dist')],
    ['documents', documentsDist],
  ])
    remotes[name] = `${await serve(name, dist)}/mf-manifest.json`;
  const configFile = join(temp, 'runtime-config.json');
  writeFileSync(configFile, JSON.stringify({ apiUrl: stack.gateway, firmSlug: 'demo-cpa', remotes }));
  await serve('shell', join(frontends, 'shell/dist'), ['--spa', '--config', configFile], shellPort);
  const baselineDir = join(temp, 'baseline');
  mkdirSync(baselineDir);
  writeFileSync(join(baselineDir, 'index.html'), BASELINE_HTML);
  writeFileSync(join(baselineDir, 'baseline.js'), BASELINE_SCRIPT);
  await serve('baseline', baselineDir, [], baselinePort);

  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const signInPage = await context.newPage();
  await signInPage.goto(`${shellUrl}/signin`);
  await signInPage.getByLabel('Email', { exact: true }).fill('partner@demo-cpa.test');
  await signInPage.getByRole('button', { name: 'Continue', exact: true }).click();
  await signInPage.getByRole('textbox', { name: 'Password', exact: true }).fill('Portico-Demo-2026!');
  await signInPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await signInPage.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
  await signInPage.close();

  const openFileManager = async () => {
    const page = await context.newPage();
    await page.goto(`${shellUrl}/admin/${stack.companyHash}/documents?path=/`);
    await page.getByTestId('documents-table').getByText(FOLDER, { exact: true }).waitFor({ timeout: 60_000 });
    const ms = await clickAndTime(
      page,
      { selector: '[data-testid=documents-table] button', text: FOLDER },
      FILE_MANAGER_DONE,
    );
    return { ms, ...(await memoryOf(page)), page };
  };
  const openBaseline = async () => {
    const page = await context.newPage();
    const hash = new URLSearchParams({ api: stack.gateway, token: stack.token, company: stack.companyId });
    await page.goto(`${baselineUrl}/#${hash}`);
    const ms = await clickAndTime(page, { selector: 'button', text: FOLDER }, BASELINE_DONE);
    return { ms, ...(await memoryOf(page)), page };
  };

  const results = { baseline: [], fileManager: [] };
  for (let i = 0; i <= runs; i++) {
    const round = [
      ['baseline', openBaseline],
      ['fileManager', openFileManager],
    ];
    if (i % 2) round.reverse();
    for (const [name, open] of round) {
      const { page, ...result } = await open();
      await page.close();
      if (i > 0) results[name].push(result); // the first round warms up the servers and the caches
    }
  }

  const median = (list, key) =>
    percentile(
      list.map((r) => r[key]),
      50,
    );
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, list]) => [
      name,
      { ms: median(list, 'ms'), heapMb: median(list, 'heapMb'), nodes: median(list, 'nodes') },
    ]),
  );
  const lines = [
    ['', 'open ms', 'JS heap MB', 'DOM nodes'],
    ...[
      [`baseline (same request, first ${ROWS} rows, no framework)`, summary.baseline],
      ['file manager (shell and documents remote)', summary.fileManager],
    ].map(([label, s]) => [label, s.ms.toFixed(0), s.heapMb.toFixed(1), String(Math.round(s.nodes))]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`opening a folder of ${total} items, median of ${runs} runs after one warm-up\n`);
  console.log(lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  const ratio = (key) => (summary.fileManager[key] / summary.baseline[key]).toFixed(2);
  console.log(
    `\nratios (file manager / baseline): open ${ratio('ms')}   heap ${ratio('heapMb')}   DOM nodes ${ratio('nodes')}`,
  );
} finally {
  await browser?.close();
  for (const child of children.reverse()) await stopChild(child);
  await db.end();
  await stack.stop();
  rmSync(temp, { recursive: true, force: true });
}
