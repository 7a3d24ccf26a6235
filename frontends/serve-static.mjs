#!/usr/bin/env node
// A small static file server for one built front end (the shell or a remote), for the local stack.
//   node frontends/serve-static.mjs --dir frontends/shell/dist --port 8080 --spa
//   node frontends/serve-static.mjs --dir frontends/client/dist --port 8081
//   node frontends/serve-static.mjs frontends/shell/dist 8080        (positional form)
// With PORTICO_SPA=1 it behaves as --spa. With PORTICO_API_URL set, the shell's /runtime-config.json is
// generated: that API URL, the firm of PORTICO_FIRM_SLUG, and every remote of frontends/ports.json that
// has a build, at http://localhost:<port>/mf-manifest.json (PORTICO_REMOTE_HOST changes the host).
// A file's gzip copy (`<file>.gz`, made by the build) is sent to a client that accepts gzip, as nginx's
// gzip_static does in production, once the copy is checked to hold the file's bytes (a file replaced by
// hand keeps a stale copy beside it).
// Module-federation files (mf-manifest.json, remoteEntry.js, chunks) are readable from any origin and
// the manifests are never cached; with --spa, unknown paths without an extension get index.html.
// --config FILE serves FILE at /runtime-config.json (the shell's runtime configuration).
// Every answer carries the security headers of production's nginx (infra/docker/frontend-security-headers.conf),
// the shell's page with its script-src widened to the origins of the remotes its runtime configuration names.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    spa: { type: 'boolean', default: false },
    config: { type: 'string' },
  },
});
values.dir ??= positionals[0];
values.port ??= positionals[1] ?? '8080';
if (process.env.PORTICO_SPA === '1') values.spa = true;
if (!values.dir) {
  console.error(
    'usage: serve-static.mjs --dir <dist> [--port 8080] [--host 127.0.0.1] [--spa] [--config file.json]',
  );
  process.exit(2);
}
const root = resolve(values.dir);

/** The shell's runtime configuration for the local stack, from frontends/ports.json and the builds. */
function generatedRuntimeConfig() {
  const apiUrl = process.env.PORTICO_API_URL;
  if (!apiUrl) return null;
  const frontends = dirname(import.meta.filename);
  const ports = JSON.parse(readFileSync(join(frontends, 'ports.json'), 'utf8'));
  const host = process.env.PORTICO_REMOTE_HOST ?? 'localhost';
  const firmSlug = process.env.PORTICO_FIRM_SLUG;
  const remotes = {};
  for (const [name, port] of Object.entries(ports)) {
    if (name === 'shell' || !existsSync(join(frontends, name, 'dist', 'mf-manifest.json'))) continue;
    remotes[name] = `http://${host}:${port}/mf-manifest.json`;
  }
  return { apiUrl, ...(firmSlug ? { firmSlug } : {}), remotes };
}

/**
 * The headers of every answer, as production's nginx sends them: read from its snippet
 * (`add_header Name "value" always;` lines), so the local stack and the browser tests run under them.
 */
function securityHeaders() {
  const snippet = join(
    dirname(import.meta.filename),
    '..',
    'infra',
    'docker',
    'frontend-security-headers.conf',
  );
  const headers = {};
  for (const [, name, value] of readFileSync(snippet, 'utf8').matchAll(/^add_header\s+(\S+)\s+"([^"]*)"/gm))
    headers[name] = value;
  if (!Object.keys(headers).length) throw new Error(`no add_header line in ${snippet}`);
  return headers;
}
const SECURITY_HEADERS = securityHeaders();

/**
 * Production serves the remotes from the shell's origin, under a policy of `script-src 'self'`; here
 * each remote has a port of its own, so the shell's policy also names the origins its runtime
 * configuration loads remotes from, for scripts and for workers (pdf.js starts a worker of another origin
 * from a `blob:` that imports it).
 */
function policyWithRemotes(policy, config) {
  const origins = new Set();
  for (const url of Object.values(config?.remotes ?? {})) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // a path: the shell's own origin
    }
  }
  if (!origins.size || !/script-src [^;]*/.test(policy)) return policy;
  const listed = [...origins].join(' ');
  return `${policy.replace(/script-src [^;]*/, (directive) => `${directive} ${listed}`)}; worker-src 'self' blob: ${listed}`;
}

/**
 * The shell's runtime configuration as /runtime-config.json answers it, or null when none is served or
 * its file cannot be read as JSON.
 */
async function servedRuntimeConfig() {
  if (!values.spa) return null;
  if (!values.config) return generatedRuntimeConfig();
  try {
    return JSON.parse(await readFile(values.config, 'utf8'));
  } catch {
    return null;
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const NO_CACHE = /(^|\/)(index\.html|mf-manifest\.json|mf-stats\.json|remoteEntry\.js|runtime-config\.json)$/;

/** Whether the request takes gzip (a q of 0 refuses it). */
const acceptsGzip = (req) =>
  /(^|,)\s*(gzip|\*)\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(
    req.headers['accept-encoding'] ?? '',
  );

async function fileAt(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null; // a malformed escape names no file
  }
  const path = normalize(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) return null;
  try {
    const info = await stat(path);
    if (info.isFile()) return { path, size: info.size, modified: info.mtimeMs };
    if (info.isDirectory()) {
      const index = join(path, 'index.html');
      const indexInfo = await stat(index);
      return { path: index, size: indexInfo.size, modified: indexInfo.mtimeMs };
    }
  } catch {
    // not there
  }
  return null;
}

/** Whether the gzip copy holds the file's bytes; checked once per version of the two files. */
const checkedCopies = new Map();
async function isCopyOf(copy, file) {
  const key = `${file.path}:${file.modified}:${file.size}:${copy.modified}:${copy.size}`;
  if (!checkedCopies.has(key)) {
    const [plain, packed] = await Promise.all([readFile(file.path), readFile(copy.path)]);
    let same = false;
    try {
      same = gunzipSync(packed).equals(plain);
    } catch {
      // not gzip
    }
    checkedCopies.set(key, same);
  }
  return checkedCopies.get(key);
}

// A failure while answering ends that answer with 500, never the server (the handler is async: a throw
// would be an unhandled rejection).
const server = createServer((req, res) =>
  answer(req, res).catch((err) => {
    console.error(`${req.method} ${req.url}: ${err?.stack ?? err}`);
    if (res.headersSent) res.destroy();
    else res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Server error\n');
  }),
);

async function answer(req, res) {
  const url = new URL(req.url ?? '/', 'http://local');
  res.setHeader('Access-Control-Allow-Origin', '*');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': '*',
    });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\n');
    return;
  }
  // Read when asked for, not kept: a test rewrites the configuration to point a remote elsewhere.
  const config = url.pathname === '/runtime-config.json' ? await servedRuntimeConfig() : null;
  if (config) {
    const body = JSON.stringify(config, null, 2);
    res.writeHead(200, { 'Content-Type': TYPES['.json'], 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  let file = await fileAt(url.pathname);
  if (!file && values.spa && !extname(url.pathname)) file = await fileAt('/index.html');
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
    return;
  }
  // The policy that counts is the page's: the shell's page names the remotes of the configuration now.
  const policy = SECURITY_HEADERS['Content-Security-Policy'];
  if (policy && values.spa && extname(file.path) === '.html')
    res.setHeader('Content-Security-Policy', policyWithRemotes(policy, await servedRuntimeConfig()));
  const relative = file.path.slice(root.length).replaceAll(sep, '/');
  const copy = acceptsGzip(req) ? await fileAt(`${relative}.gz`) : null;
  const gzipped = copy && (await isCopyOf(copy, file)) ? copy : null;
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file.path)] ?? 'application/octet-stream',
    'Content-Length': (gzipped ?? file).size,
    'Cache-Control': NO_CACHE.test(relative) ? 'no-cache' : 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
  });
  if (req.method === 'HEAD') res.end();
  else
    createReadStream((gzipped ?? file).path)
      .on('error', () => res.destroy()) // gone since it was found: the answer is cut short
      .pipe(res);
}

server.listen(Number(values.port), values.host, () => {
  const { port } = server.address();
  console.log(`serving ${root} on http://${values.host}:${port}${values.spa ? ' (SPA fallback)' : ''}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
