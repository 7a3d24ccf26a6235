import { describe, expect, it } from '@jest/globals';
import * as contracts from '@portico/proto';
import { parse } from 'yaml';
import { composePorts, parseCompose } from '../lib/compose.js';
import { bodyLimitMb, configProblems, type KongConfig, perMinuteLimit, route } from '../lib/kong.js';
import { byKind, find, overlays, render } from '../lib/kustomize.js';
import { contract, frontendNames, readJson, readText } from '../lib/repo.js';

const KONG_FILE = 'gateway/kong/kong.yml';
const c = contract();
const gatewayPort = c.deployables.gateway?.httpPort;
const prefixes = readJson<string[]>('gateway/route-prefixes.json');
const load = (): KongConfig => {
  const text = readText(KONG_FILE);
  // Kong reads plain YAML: no anchors or aliases, so what is checked here is what Kong sees.
  expect(text).not.toMatch(/^\s*[\w-]+:\s*[&*]/m);
  return parse(text) as KongConfig;
};
const must = <T>(value: T | undefined | null): T => {
  if (value === undefined || value === null) throw new Error('expected a value');
  return value;
};
const multipart = { 'Content-Type': 'multipart/form-data; boundary=----x' };
const json = { 'Content-Type': 'application/json' };

describe('the Kong checks catch a bad config (fixtures)', () => {
  it('report a route prefix that is not routed to the gateway', () => {
    const config = load();
    const api = config.services?.find((s) => s.name === 'gateway')?.routes?.find((r) => r.name === 'api');
    must(api).paths = must(must(api).paths).filter((p) => p !== '/tax_returns');
    // The shell's catch-all takes it instead: the API would be unreachable.
    expect(route(config, { path: '/tax_returns/1' })?.service.name).toBe('frontend-shell');
  });

  it('report structural mistakes', () => {
    const config = load();
    config._format_version = '2.1';
    config.plugins = [...(config.plugins ?? []), { name: 'cors' }, { name: 'no-such-plugin' }];
    config.services?.push({ name: 'gateway', url: 'http://gateway:3000', routes: [{ name: 'api' }] });
    expect(configProblems(config)).toEqual([
      '_format_version must be "3.0"',
      'global: plugin cors twice',
      'global: unknown plugin no-such-plugin',
      'service gateway twice',
      'route api twice',
      'route api: matches nothing',
    ]);
  });

  it('report a lax sign-in limit', () => {
    const config = load();
    const gateway = config.services?.find((s) => s.name === 'gateway');
    const sessions = must(must(gateway).routes).find((r) => r.name === 'sessions');
    must(sessions).plugins = [];
    const global = perMinuteLimit(must(route(config, { path: '/users/1' })));
    expect(perMinuteLimit(must(route(config, { path: '/sessions', method: 'POST' })))).toBe(global);
  });
});

describe('gateway/kong/kong.yml', () => {
  it('parses as a DB-less declarative config with bundled plugins only', () => {
    expect(configProblems(load())).toEqual([]);
  });

  it('sets the edge plugins globally: correlation id, Prometheus, CORS, rate limit, body size, trace headers, HSTS', () => {
    const names = (load().plugins ?? []).map((p) => p.name).sort();
    expect(names).toEqual([
      'correlation-id',
      'cors',
      'prometheus',
      'rate-limiting',
      'request-size-limiting',
      'request-transformer',
      'response-transformer',
    ]);
    // No route has its own request-transformer, which would replace the global one there.
    const traceHeaders = (load().plugins ?? []).find((p) => p.name === 'request-transformer') as
      | { config?: { remove?: { headers?: string[] } } }
      | undefined;
    expect(traceHeaders?.config?.remove?.headers).toEqual(['traceparent', 'tracestate']);
    const routePlugins = (load().services ?? []).flatMap((s) =>
      (s.routes ?? []).flatMap((r) => (r.plugins ?? []).map((p) => p.name)),
    );
    expect(routePlugins).not.toContain('request-transformer');
    const hsts = (load().plugins ?? []).find((p) => p.name === 'response-transformer') as
      | { config?: { add?: { headers?: string[] } } }
      | undefined;
    expect(hsts?.config?.add?.headers).toEqual([
      expect.stringMatching(/^Strict-Transport-Security:max-age=\d{8,}/),
    ]);
  });

  it('lets a portal of another origin read the headers it shows: the error reference and Retry-After', () => {
    const cors = (load().plugins ?? []).find((p) => p.name === 'cors') as
      | { config?: { exposed_headers?: string[] } }
      | undefined;
    const exposed = (cors?.config?.exposed_headers ?? []).map((h) => h.toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['x-trace-id', 'retry-after']));
  });

  it('lists the route prefixes as absolute, distinct paths', () => {
    expect(prefixes.length).toBeGreaterThan(10);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const p of prefixes) expect(p).toMatch(/^\/[\w.-]+$/);
  });

  it.each(prefixes)('routes %s (and everything under it) to the gateway, path unchanged', (prefix) => {
    const config = load();
    for (const path of [prefix, `${prefix}/`, `${prefix}/123/sub_path`]) {
      for (const req of [
        { path, method: 'GET' },
        { path, method: 'POST', headers: json },
        { path, method: 'POST', headers: multipart },
      ]) {
        const m = route(config, req);
        expect({ path, upstream: m && `${m.upstream.host}:${m.upstream.port}${m.upstream.path}` }).toEqual({
          path,
          upstream: `gateway:${gatewayPort}${path}`,
        });
      }
    }
  });

  it('keeps every request body small, multipart ones too: files go to object storage by presigned links', () => {
    const config = load();
    for (const prefix of prefixes.filter((p) => p !== '/realtime'))
      for (const headers of [json, multipart]) {
        const limit = bodyLimitMb(must(route(config, { path: `${prefix}/x`, method: 'POST', headers })));
        expect({ prefix, limit }).toEqual({ prefix, limit: expect.any(Number) });
        expect(limit).toBeLessThanOrEqual(c.edge.defaultBodyLimitMb);
      }
    for (const path of ['/sessions', '/client_errors'])
      for (const headers of [json, multipart])
        expect(bodyLimitMb(must(route(config, { path, method: 'POST', headers })))).toBeLessThan(1);
  });

  it('rate-limits sign-in much more strictly than the rest of the API', () => {
    const config = load();
    const sessions = perMinuteLimit(must(route(config, { path: '/sessions/two_factor', method: 'POST' })));
    const api = perMinuteLimit(must(route(config, { path: '/companies', method: 'GET' })));
    expect(Number.isFinite(api)).toBe(true);
    expect(sessions * 10).toBeLessThanOrEqual(api);
    const reports = perMinuteLimit(must(route(config, { path: '/client_errors', method: 'POST' })));
    expect(reports).toBeLessThan(api);
  });

  it("limits the drop link's anonymous uploaders and the lookup of firms by slug more strictly than the API", () => {
    const config = load();
    const api = perMinuteLimit(must(route(config, { path: '/companies', method: 'GET' })));
    for (const path of [
      '/integrations/drop_link/abc/upload_links',
      '/integrations/drop_link/abc/process',
      '/integrations/secure_upload/demo-cpa',
    ]) {
      const match = must(route(config, { path, method: 'POST' }));
      expect({ path, service: match.service.name }).toEqual({ path, service: 'gateway' });
      expect(perMinuteLimit(match) * 10).toBeLessThanOrEqual(api);
      expect(bodyLimitMb(match)).toBeLessThanOrEqual(0.5);
    }
    const theme = must(route(config, { path: '/firms/get_firm_theme_by_slug', method: 'GET' }));
    expect(theme.service.name).toBe('gateway');
    expect(perMinuteLimit(theme)).toBeLessThan(api);
    // The signed-in documents calls under /integrations keep the API's limit.
    expect(perMinuteLimit(must(route(config, { path: '/integrations/get_documents', method: 'POST' })))).toBe(
      api,
    );
  });

  it("waits for the gateway longer than the gateway waits for its slowest service, so its 504 (with the spec's text and a reference) is what users get", () => {
    // The slow contracts (zips, uploads' validation, moves) declare their own timeout.
    const timeoutOf = (contract: unknown) =>
      contract && typeof contract === 'object' && 'timeoutMs' in contract ? Number(contract.timeoutMs) : 0;
    const slowest = Math.max(
      ...Object.values(contracts as Record<string, unknown>)
        .filter((group) => !!group && typeof group === 'object')
        .flatMap((group) => Object.values(group as Record<string, unknown>).map(timeoutOf)),
    );
    expect(slowest).toBeGreaterThan(10_000);
    for (const overlay of overlays()) {
      const config = byKind(render(`k8s/overlays/${overlay}`), 'ConfigMap').find((m) =>
        m.metadata.name.startsWith('gateway-config-'),
      );
      const gatewayWait = Math.max(slowest, Number(config?.data.REQUEST_TIMEOUT_MS));
      const api = must(route(load(), { path: '/integrations/download_folder', method: 'POST' }));
      // Kong counts from its request's last write; the gateway from its own, after auth: a margin.
      const kongWait = (api.service as { read_timeout?: number }).read_timeout ?? 60_000;
      expect({ overlay, enough: kongWait >= gatewayWait + 5_000 }).toEqual({ overlay, enough: true });
    }
  });

  it('keeps the realtime WebSocket open for long', () => {
    const m = must(
      route(load(), { path: '/realtime', headers: { Upgrade: 'websocket', Connection: 'Upgrade' } }),
    );
    expect(m.service.name).toBe('gateway-realtime');
    expect((m.service as { read_timeout?: number }).read_timeout).toBeGreaterThanOrEqual(600_000);
  });

  it('serves the shell at / and for client-side routes, each remote at /remotes/<name>/ from its own Service', () => {
    const config = load();
    const port = c.frontends.port;
    expect(route(config, { path: '/' })?.upstream).toEqual({ host: 'frontend-shell', port, path: '/' });
    expect(route(config, { path: '/sign-in' })?.upstream.host).toBe('frontend-shell');
    expect(route(config, { path: '/runtime-config.json' })?.upstream.host).toBe('frontend-shell');
    for (const name of c.frontends.remotes)
      expect(route(config, { path: `/remotes/${name}/mf-manifest.json` })?.upstream).toEqual({
        host: `frontend-${name}`,
        port,
        path: '/mf-manifest.json',
      });
  });

  it("points the shell's runtime configuration at this origin's API and at paths Kong routes to each remote", () => {
    const config = readJson<{ apiUrl: string; remotes: Record<string, string> }>(
      'k8s/base/frontends/runtime-config.json',
    );
    expect(config.apiUrl).toBe('');
    expect(Object.keys(config.remotes).sort()).toEqual([...c.frontends.remotes].sort());
    for (const [name, url] of Object.entries(config.remotes))
      expect(route(load(), { path: url })?.service.name).toBe(`frontend-${name}`);
  });

  it('names upstreams that exist as Services (every overlay) and compose services, on the same ports', () => {
    const config = load();
    const compose = parseCompose(readText('infra/docker/docker-compose.yml'));
    const upstreams = (config.services ?? [])
      .map((s) => new URL(s.url as string))
      .map((u) => [u.hostname, Number(u.port)] as const);
    expect(upstreams.map(([h]) => h)).toEqual(
      expect.arrayContaining(['gateway', ...frontendNames(c).map((n) => `frontend-${n}`)]),
    );
    for (const overlay of overlays()) {
      const objects = render(`k8s/overlays/${overlay}`);
      for (const [host, port] of upstreams) {
        const svc = find(objects, 'Service', host);
        expect({ overlay, host, ports: svc?.spec.ports.map((p: { port: number }) => p.port) }).toEqual({
          overlay,
          host,
          ports: expect.arrayContaining([port]),
        });
      }
      // Kong in the cluster mounts this very file.
      const kongCm = byKind(objects, 'ConfigMap').find((m) =>
        m.metadata.name.startsWith('kong-declarative-'),
      );
      expect(kongCm?.data['kong.yml']).toBe(readText(KONG_FILE));
    }
    for (const [host, port] of upstreams)
      expect({ host, ports: composePorts(compose.services[host] ?? {}) }).toEqual({
        host,
        ports: expect.arrayContaining([port]),
      });
  });
});
