import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, waitFor } from '@portico/platform/testing';
import { type Browser, chromium } from 'playwright-core';
import { reportPolicyRefusals } from '../../../frontends/e2e/browser.js';

// The front ends' server configuration (infra/docker/frontend-nginx.conf and its security headers) in a
// real nginx, Debian's, with its stock mime.types as the image has them, over the built shell and the
// built documents remote (needs npm run build). infra/local/ensure-tools.sh unpacks nginx when it is not
// installed. Only the listening address, the site folder and the snippet's path differ from the image.
const root = resolve(import.meta.dirname, '../../..');
const unpacked = join(root, '.data/tools/nginx');
const NGINX = ['/usr/sbin/nginx', join(unpacked, 'usr/sbin/nginx')].find((p) => existsSync(p));
const MIME_TYPES = ['/etc/nginx/mime.types', join(unpacked, 'etc/nginx/mime.types')].find((p) =>
  existsSync(p),
);
const SITE_CONF = join(root, 'infra/docker/frontend-nginx.conf');
const SNIPPET = join(root, 'infra/docker/frontend-security-headers.conf');
const SNIPPET_IN_IMAGE = '/etc/nginx/snippets/portico-security-headers.conf';
/** Production's port 80, included in Kong's nginx; here in Debian's, which reads it the same way. */
const HTTPS_REDIRECT_CONF = join(root, 'k8s/components/production/https-redirect.conf');

function httpsRedirectFor(port: number): string {
  const conf = readFileSync(HTTPS_REDIRECT_CONF, 'utf8');
  if (!conf.includes('listen 8080;')) throw new Error("https-redirect.conf no longer has 'listen 8080;'");
  return conf.replace('listen 8080;', `listen 127.0.0.1:${port};`);
}

/** The site's server block with this run's address, folder and snippet path (each must be found). */
function siteFor(port: number, dist: string): string {
  let conf = readFileSync(SITE_CONF, 'utf8');
  for (const [from, to] of [
    ['listen 8080;', `listen 127.0.0.1:${port};`],
    ['root /usr/share/nginx/html;', `root ${dist};`],
    [`include ${SNIPPET_IN_IMAGE};`, `include ${SNIPPET};`],
  ] as const) {
    if (!conf.includes(from)) throw new Error(`frontend-nginx.conf no longer has '${from}'`);
    conf = conf.replaceAll(from, to);
  }
  return conf;
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A GET with node's http client (no decompression, exact path), as a browser would send it. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; script-src 'self'",
};

/**
 * The edge as Kong routes it in production: a remote under /remotes/<name>/ of the portal's origin, the
 * shell for the rest, and the runtime configuration the deployment mounts into the shell.
 */
function edgeFor(port: number, shell: number, remote: number, runtimeConfig: string): string {
  return `server {
    listen 127.0.0.1:${port};
    location = /runtime-config.json { default_type application/json; alias ${runtimeConfig}; }
    location /remotes/documents/ { proxy_pass http://127.0.0.1:${remote}/; }
    location / { proxy_pass http://127.0.0.1:${shell}; }
  }`;
}

/** Opens `url` in a fresh page and answers what the page's security policy refused while it ran. */
async function refusalsWhileOpening(browser: Browser, url: string, shows: string) {
  const context = await browser.newContext();
  try {
    const refused: string[] = [];
    await reportPolicyRefusals(context, (r) => refused.push(`${r.directive} ${r.blocked}`));
    const page = await context.newPage();
    await page.goto(url);
    await page.getByText(shows, { exact: true }).waitFor({ timeout: 15_000 });
    return refused;
  } finally {
    await context.close();
  }
}

describe('the front ends behind nginx with the image configuration (needs npm run build)', () => {
  const shellDist = join(root, 'frontends/shell/dist');
  const remoteDist = join(root, 'frontends/documents/dist');
  let prefix: string;
  let nginx: ChildProcess;
  let output = '';
  const writeRuntimeConfig = (documents: string) =>
    writeFileSync(
      join(prefix, 'runtime-config.json'),
      JSON.stringify({ apiUrl: '', remotes: { documents } }),
    );
  let shell: number;
  let remote: number;
  let edge: number;
  let plainHttp: number;

  beforeAll(async () => {
    if (!NGINX || !MIME_TYPES)
      throw new Error(
        'nginx is needed: install it, or run npm test, which unpacks Debian nginx into .data/tools',
      );
    prefix = mkdtempSync(join(tmpdir(), 'portico-nginx-'));
    mkdirSync(join(prefix, 'temp'));
    [shell, remote, edge, plainHttp] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    writeRuntimeConfig('/remotes/documents/mf-manifest.json');
    // As the image's nginx.conf: the stock types, octet-stream otherwise, the site's server blocks.
    writeFileSync(
      join(prefix, 'nginx.conf'),
      `daemon off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log stderr warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 64; }
http {
  include ${MIME_TYPES};
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  ${siteFor(shell, shellDist)}
  ${siteFor(remote, remoteDist)}
  ${edgeFor(edge, shell, remote, join(prefix, 'runtime-config.json'))}
  ${httpsRedirectFor(plainHttp)}
}
`,
    );
    // stdout is /dev/null, not the socket node makes for 'pipe': the redirect's server logs to
    // /dev/stdout, as Kong's own do in their container, and a socket cannot be opened by that path.
    nginx = spawn(NGINX, ['-p', prefix, '-e', 'stderr', '-c', join(prefix, 'nginx.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx.stderr?.on('data', (c) => {
      output += c;
    });
    await waitFor(
      async () => nginx.exitCode !== null || (await get(remote, '/healthz')).status === 200,
      10_000,
      'nginx',
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${output}`);
    });
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${output}`);
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  it("answers production's plain HTTP port with a permanent redirect (308) to the same address over HTTPS", async () => {
    const answer = await get(plainHttp, '/admin/abc/documents?path=%2F2024&x=1', {
      Host: 'portal.firm.example',
    });
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe('https://portal.firm.example/admin/abc/documents?path=%2F2024&x=1');
  });

  it("serves the shell's page for its routes, never cached, with the security headers", async () => {
    for (const path of [
      '/',
      '/signin?email=a%40b.test',
      '/admin/abc123/documents?path=%2F2024',
      '/profile',
    ]) {
      const res = await get(shell, path);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({
        path,
        status: 200,
        type: 'text/html',
      });
      expect(res.body.toString()).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers).toMatchObject(SECURITY);
    }
  });

  it('serves hashed scripts and styles as they are or as their gzip copy, cached for a year', async () => {
    const page = (await get(shell, '/signin')).body.toString();
    const assets = [...page.matchAll(/(?:src|href)="(\/(?:js|css)\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const plain = await get(shell, asset);
      const packed = await get(shell, asset, { 'accept-encoding': 'gzip, deflate, br' });
      expect({ asset, status: plain.status, encoding: packed.headers['content-encoding'] }).toEqual({
        asset,
        status: 200,
        encoding: 'gzip',
      });
      expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
      expect(plain.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers).toMatchObject(SECURITY);
    }
  });

  it('serves no source map, and its scripts name none', async () => {
    const page = (await get(shell, '/signin')).body.toString();
    const scripts = [...page.matchAll(/src="(\/js\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(scripts.length).toBeGreaterThanOrEqual(1);
    for (const script of scripts) {
      // The build writes the map beside the script (for reading reported stacks): it is there, and
      // refused.
      expect(existsSync(join(shellDist, `${script}.map`))).toBe(true);
      const map = await get(shell, `${script}.map`);
      expect({ script, status: map.status }).toEqual({ script, status: 404 });
      expect(map.headers).toMatchObject(SECURITY);
      expect((await get(shell, script)).body.toString()).not.toContain('sourceMappingURL');
    }
  });

  it('answers 404 for a missing script or JSON file, not the page (a stale release fails visibly)', async () => {
    for (const path of ['/js/main.00000000.js', '/runtime-config.json', '/css/gone.css']) {
      const res = await get(shell, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.toString()).not.toContain('<div id="root">');
    }
    const outside = await get(shell, '/../../../../etc/passwd');
    expect([400, 404]).toContain(outside.status);
  });

  it("serves a remote's manifest and entry uncached and readable from the shell's origin", async () => {
    for (const path of ['/mf-manifest.json', '/remoteEntry.js']) {
      const res = await get(remote, path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await get(remote, '/mf-manifest.json')).headers['content-type']).toBe('application/json');
  });

  it("serves every script of a remote as JavaScript, modules (.mjs, the PDF viewer's worker) too", async () => {
    const scripts = readdirSync(remoteDist, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.m?js$/.test(f),
    );
    expect(scripts.some((f) => f.endsWith('.mjs'))).toBe(true);
    for (const file of scripts) {
      const res = await get(remote, `/${file}`);
      expect({ file, status: res.status, type: res.headers['content-type'] }).toEqual({
        file,
        status: 200,
        type: expect.stringMatching(/^(text|application)\/javascript/),
      });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it("lets a browser start the PDF viewer's worker as a module from it", async () => {
    const worker = readdirSync(remoteDist).find((f) => f.endsWith('.mjs')) as string;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      // Any page of the remote's origin: a worker script must be of the same origin.
      await page.goto(`http://127.0.0.1:${remote}/healthz`);
      // pdf.js starts it so; a module the browser refuses fires `error` at once.
      const outcome = await page.evaluate(`new Promise((done) => {
        const started = new Worker(${JSON.stringify(`/${worker}`)}, { type: 'module' });
        started.addEventListener('error', () => done('refused'));
        setTimeout(() => done('running'), 1500);
      })`);
      expect(outcome).toBe('running');
    } finally {
      await browser.close();
    }
  });

  it("runs the shell and a remote from the portal's origin under the policy; another origin's script is refused", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      // The documents remote's public page, with no link id: the remote loaded, mounted and answered.
      const sameOrigin = await refusalsWhileOpening(
        browser,
        `http://127.0.0.1:${edge}/drop-link`,
        'This drop link is incomplete. Please ask the firm for the full link.',
      );
      expect(sameOrigin).toEqual([]);

      // The remote's descriptor is refused, so the shell does not know the public page: with an area
      // down, it shows the error fallback in place (not a sign-in the visitor could not use).
      writeRuntimeConfig(`http://127.0.0.1:${remote}/mf-manifest.json`);
      const otherOrigin = await refusalsWhileOpening(
        browser,
        `http://127.0.0.1:${edge}/drop-link`,
        'Something went wrong. Please refresh this page to try again.',
      );
      expect(otherOrigin).toContain(`script-src-elem http://127.0.0.1:${remote}/remoteEntry.js`);
    } finally {
      writeRuntimeConfig('/remotes/documents/mf-manifest.json');
      await browser.close();
    }
  });
});
