// The shell's /signin on production builds in headless chromium, against a bare React 19 page with one
// input (baseline/, built with rspack in a temp folder in the same run):
//   - initial JS: every JavaScript response that finished before the email input is interactive, each
//     compressed here with gzip -9 (independent of the server), summed;
//   - time to interactive: from navigation start until the email input is in the page, visible and
//     enabled, and painted; also the renderer main thread's CPU time (CDP Performance TaskDuration in
//     thread ticks), which the machine's other load disturbs less. It is read once the page has reported
//     the ready mark (a console message), so it also counts what the page did in those few milliseconds.
// Usage: npm run bench -- frontend   (after building the kit, the shell and the remotes).
// BENCH_RUNS (default 9) measured runs of each page after one warm-up round, the two pages in turns; the
// median is reported. BENCH_CPU=4 slows the CPU down fourfold (Chrome DevTools throttling). The remotes
// are served when built and configured as in the local stack; the gateway is a stub answering only
// GET /firms/get_firm_theme_by_slug.
// BENCH_SHELL_DIST=<dir> measures another build of the shell (e.g. of an earlier commit).
// BENCH_TIMELINE=1 prints, for the last run of each page, what happened until it was interactive: each
// request (start and end), the page's performance marks and paints, and the main thread's script, style
// and layout time (CDP Performance).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PrecompressPlugin } from '@portico/kit/build';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '@portico/platform/testing';
import { rspack } from '@rspack/core';
import { chromium } from 'playwright-core';
import { serveFrontend, stopChild } from '../lib.mjs';

const root = resolve(import.meta.dirname, '../../..');
const frontends = join(root, 'frontends');
const runs = Number(process.env.BENCH_RUNS ?? 9);
const cpuSlowdown = Number(process.env.BENCH_CPU ?? 1);
const timeline = process.env.BENCH_TIMELINE === '1';
const KB = 1024;
const GOAL_KB = 150;
const GOAL_RATIO = 1.5;
const REMOTES = ['client', 'admin'];

const shellDist = resolve(process.env.BENCH_SHELL_DIST ?? join(frontends, 'shell/dist'));
if (!existsSync(join(shellDist, 'index.html'))) {
  console.error(
    'No shell build. Build first: npm run build -w @portico/kit -w @portico/shell -w @portico/frontend-client -w @portico/frontend-admin',
  );
  process.exit(1);
}

/** The baseline page, production build, in a temp folder. */
async function buildBaseline(outDir) {
  const compiler = rspack({
    mode: 'production',
    context: join(import.meta.dirname, 'baseline'),
    entry: { main: './index.js' },
    output: { path: outDir, publicPath: '/', filename: 'js/[name].[contenthash:8].js', clean: true },
    plugins: [
      new rspack.HtmlRspackPlugin({ template: join(import.meta.dirname, 'baseline/index.html') }),
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') }),
      // Gzip copies as the shell's build makes them, so both pages travel alike.
      new PrecompressPlugin(),
    ],
    performance: { hints: false },
  });
  const stats = await new Promise((ok, fail) =>
    compiler.run((err, result) => (err ? fail(err) : compiler.close(() => ok(result)))),
  );
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
}

/** The gateway as far as /signin needs it: the firm's branding, nothing else. */
function startStubApi(port) {
  const server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    const url = new URL(req.url ?? '/', 'http://stub');
    if (req.method === 'GET' && url.pathname === '/firms/get_firm_theme_by_slug') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: 'Demo CPA',
          slug: url.searchParams.get('slug'),
          logo_url: '',
          primary: '#1c7ed6',
        }),
      );
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

// Runs in the page before anything else: notes the moment the email input is on screen, visible and
// enabled. DOM mutations are observed (no polling interval); once the input is there, the time is taken
// after the next frame is painted (a message posted from requestAnimationFrame runs after that paint),
// and reported with a console message. The bench does not poll the page (Playwright's waitForFunction
// would compile its injected script on the page's main thread while the page loads, about 15 ms that
// weighed on the bare page more than on the shell, whose main thread is then waiting for its script).
const READY_MESSAGE = 'portico-bench-ready';
const READY_PROBE = (READY_MESSAGE) => {
  let found = false;
  const check = () => {
    if (found) return;
    const input = document.querySelector('input[type="email"]');
    if (input && !input.disabled && input.checkVisibility()) {
      found = true;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          window.__benchReady = performance.now();
          console.debug(READY_MESSAGE);
        };
        channel.port2.postMessage(null);
      });
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
};

const gzipCache = new Map();
async function gzipSize(url) {
  if (!gzipCache.has(url)) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    gzipCache.set(url, gzipSync(body, { level: 9 }).length);
  }
  return gzipCache.get(url);
}

/** What a chunk is made of, from its source map: the largest packages or source folders in it. */
const describeCache = new Map();
async function describe(url) {
  if (!describeCache.has(url)) {
    let text = '';
    try {
      const map = await (await fetch(`${url}.map`)).json();
      const weights = new Map();
      map.sources.forEach((source, i) => {
        const modules = source.split('node_modules/');
        let owner;
        if (modules.length > 1) {
          const parts = modules.at(-1).split('/');
          owner = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
        } else {
          // webpack://portico_shell/./src/signin/SignInPage.tsx -> signin; ../kit/src/api/x.ts -> kit/api
          const path = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^(\.\.?\/)+/, '');
          owner =
            path
              .replace(/(^|\/)src\//, '$1')
              .split('/')
              .slice(0, -1)
              .join('/') || path;
        }
        weights.set(owner, (weights.get(owner) ?? 0) + (map.sourcesContent?.[i]?.length ?? 1));
      });
      text = [...weights]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([owner]) => owner)
        .join(', ');
    } catch {
      // no source map
    }
    describeCache.set(url, text);
  }
  return describeCache.get(url);
}

async function measure(url) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    await context.addInitScript(READY_PROBE, READY_MESSAGE);
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    if (cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    // Main-thread time as CPU time of that thread (threadTicks): less sensitive to other load than the
    // wall-clock time to interactive.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const readySeen = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${url}: not interactive within 30 s`)), 30_000);
      page.on('console', (message) => {
        if (message.text() !== READY_MESSAGE) return;
        clearTimeout(timer);
        resolve();
      });
    });
    await page.goto(url, { waitUntil: 'commit' });
    // The CPU time below is read as soon as the page reports the ready mark.
    await readySeen;
    const { ready, scripts, requests, marks } = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const entries = [nav, ...performance.getEntriesByType('resource')];
      return {
        ready: window.__benchReady,
        scripts: entries
          .filter((e) => /\.m?js$/.test(new URL(e.name).pathname) && e.responseEnd <= window.__benchReady)
          .map((e) => e.name),
        requests: entries
          .filter((e) => e.startTime <= window.__benchReady)
          .map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd })),
        marks: [...performance.getEntriesByType('mark'), ...performance.getEntriesByType('paint')]
          .filter((e) => e.startTime <= window.__benchReady)
          .map((e) => ({ name: e.name, at: e.startTime })),
      };
    });
    const files = await Promise.all(scripts.map(async (name) => ({ name, gzip: await gzipSize(name) })));
    // Read after the ready mark, so they cover a little more than the measured span.
    const { metrics } = await cdp.send('Performance.getMetrics');
    const seconds = Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    const result = {
      ms: ready,
      cpu: (seconds.TaskDuration ?? 0) * 1000,
      bytes: files.reduce((sum, f) => sum + f.gzip, 0),
      files,
    };
    if (timeline) {
      result.timeline = {
        requests,
        marks,
        main: ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration'].map(
          (name) => `${name.replace('Duration', '')} ${Math.round((seconds[name] ?? 0) * 1000)} ms`,
        ),
      };
    }
    return result;
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const temp = mkdtempSync(join(tmpdir(), 'bench-frontend-'));
const children = [];
let stub;
try {
  const baselineDir = join(temp, 'baseline');
  await buildBaseline(baselineDir);

  const apiPort = await freePort();
  stub = await startStubApi(apiPort);
  const remotes = {};
  const serve = async (name, dir, args) => {
    const served = await serveFrontend(name, dir, await freePort(), args);
    children.push(served.child);
    return served.url;
  };
  for (const name of REMOTES) {
    const dist = join(frontends, name, 'dist');
    if (existsSync(join(dist, 'mf-manifest.json')))
      remotes[name] = `${await serve(name, dist)}/mf-manifest.json`;
  }
  const configFile = join(temp, 'runtime-config.json');
  writeFileSync(
    configFile,
    JSON.stringify({ apiUrl: `http://127.0.0.1:${apiPort}`, firmSlug: 'demo-cpa', remotes }),
  );
  const shellUrl = await serve('shell', shellDist, ['--spa', '--config', configFile]);
  const baselineUrl = await serve('baseline', baselineDir);

  const targets = {
    baseline: `${baselineUrl}/`,
    shell: `${shellUrl}/signin`,
  };
  const results = { baseline: [], shell: [] };
  // One run of each page per round, in turns (baseline first in even rounds, shell first in odd ones), so a
  // change in the machine's load falls on both alike.
  for (let i = 0; i <= runs; i++) {
    const round = Object.entries(targets);
    if (i % 2) round.reverse();
    for (const [name, url] of round) {
      const result = await measure(url);
      if (i > 0) results[name].push(result); // the first round warms up the servers and the disk cache
    }
  }

  const summary = {};
  for (const [name, list] of Object.entries(results)) {
    summary[name] = {
      kb: median(list.map((r) => r.bytes)) / KB,
      files: median(list.map((r) => r.files.length)),
      ms: median(list.map((r) => r.ms)),
      cpu: median(list.map((r) => r.cpu)),
      min: Math.min(...list.map((r) => r.ms)),
      max: Math.max(...list.map((r) => r.ms)),
    };
  }

  console.log(
    `/signin until the email input is interactive, ${runs} runs (median)` +
      `${cpuSlowdown > 1 ? `, CPU ${cpuSlowdown}x slower` : ''}; KB = ${KB} bytes of gzip -9\n`,
  );
  const rows = [
    ['', 'JS KB gzip', 'files', 'interactive ms', 'min-max ms', 'main-thread CPU ms'],
    ...Object.entries(summary).map(([name, s]) => [
      name === 'baseline' ? 'baseline (bare React 19, one input)' : 'shell /signin',
      s.kb.toFixed(1),
      String(s.files),
      s.ms.toFixed(0),
      `${s.min.toFixed(0)}-${s.max.toFixed(0)}`,
      s.cpu.toFixed(0),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));

  const last = results.shell.at(-1);
  console.log('\nshell JS before interactive (last run):');
  for (const file of [...last.files].sort((a, b) => b.gzip - a.gzip)) {
    const path = new URL(file.name);
    const where =
      path.origin === shellUrl
        ? ''
        : `${Object.keys(remotes).find((r) => remotes[r].includes(`:${path.port}/`)) ?? path.host} `;
    console.log(
      `  ${(file.gzip / KB).toFixed(1).padStart(6)}  ${where}${path.pathname}  ${await describe(file.name)}`,
    );
  }

  if (timeline) {
    for (const [name, list] of Object.entries(results)) {
      const last = list.at(-1);
      console.log(
        `\n${name}, last run: interactive at ${last.ms.toFixed(0)} ms; main thread: ${last.timeline.main.join(', ')}`,
      );
      const lines = [
        ...last.timeline.requests.map((r) => {
          const path = new URL(r.name);
          return [
            r.start,
            `${r.start.toFixed(0).padStart(5)}-${r.end.toFixed(0).padEnd(5)} ${path.port}${path.pathname}`,
          ];
        }),
        ...last.timeline.marks.map((m) => [m.at, `${m.at.toFixed(0).padStart(5)}       ${m.name}`]),
      ];
      for (const [, line] of lines.sort((a, b) => a[0] - b[0])) console.log(`  ${line}`);
    }
  }

  const { shell, baseline } = summary;
  console.log(
    `\ninitial JS: ${shell.kb.toFixed(1)} KB gzip   goal < ${GOAL_KB} KB   (${(shell.kb / GOAL_KB).toFixed(2)} of the goal, ${(shell.kb / baseline.kb).toFixed(2)}x the baseline's ${baseline.kb.toFixed(1)} KB)`,
  );
  console.log(
    `interactive: ${shell.ms.toFixed(0)} ms vs ${baseline.ms.toFixed(0)} ms   ratio ${(shell.ms / baseline.ms).toFixed(2)}   goal <= ${GOAL_RATIO}`,
  );
  // The same comparison round by round (each round ran both pages one after the other, so under about
  // the same load), and on the main thread's CPU time, which other load disturbs less.
  const paired = median(results.shell.map((r, i) => r.ms / results.baseline[i].ms));
  console.log(
    `             median of the ${runs} rounds' ratios ${paired.toFixed(2)}; main-thread CPU ${shell.cpu.toFixed(0)} ms vs ${baseline.cpu.toFixed(0)} ms, ratio ${(shell.cpu / baseline.cpu).toFixed(2)}`,
  );
} finally {
  for (const child of children) await stopChild(child);
  stub?.close();
  rmSync(temp, { recursive: true, force: true });
}
