// Reads Kong's declarative configuration and answers "which route and upstream serve this request",
// following Kong's router for plain (non-regex) paths: a route with more conditions (headers, methods)
// wins; among equals, the longest matching path prefix wins.

// biome-ignore lint/suspicious/noExplicitAny: plugin configs differ per plugin
type Config = Record<string, any>;

export interface KongPlugin {
  name: string;
  config?: Config;
  enabled?: boolean;
}

export interface KongRoute {
  name: string;
  paths?: string[];
  methods?: string[];
  headers?: Record<string, string[]>;
  protocols?: string[];
  strip_path?: boolean;
  plugins?: KongPlugin[];
}

export interface KongService {
  name: string;
  url?: string;
  host?: string;
  port?: number;
  protocol?: string;
  routes?: KongRoute[];
  plugins?: KongPlugin[];
}

export interface KongConfig {
  _format_version: string;
  services?: KongService[];
  plugins?: KongPlugin[];
}

export interface KongRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

export interface Match {
  service: KongService;
  route: KongRoute;
  upstream: { host: string; port: number; path: string };
  /** The effective plugin of each name for this request: route over service over global. */
  plugins: Map<string, KongPlugin>;
}

/** Plugins bundled with the open-source Kong image (the ones this project may use). */
export const BUNDLED_PLUGINS = new Set([
  'acl',
  'acme',
  'aws-lambda',
  'azure-functions',
  'basic-auth',
  'bot-detection',
  'correlation-id',
  'cors',
  'datadog',
  'file-log',
  'grpc-gateway',
  'grpc-web',
  'hmac-auth',
  'http-log',
  'ip-restriction',
  'jwt',
  'key-auth',
  'ldap-auth',
  'loggly',
  'oauth2',
  'opentelemetry',
  'post-function',
  'pre-function',
  'prometheus',
  'proxy-cache',
  'rate-limiting',
  'request-size-limiting',
  'request-termination',
  'request-transformer',
  'response-ratelimiting',
  'response-transformer',
  'session',
  'statsd',
  'syslog',
  'tcp-log',
  'udp-log',
  'zipkin',
]);

function upstreamOf(s: KongService): { host: string; port: number; path: string } {
  if (s.url) {
    const u = new URL(s.url);
    return {
      host: u.hostname,
      port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
      path: u.pathname,
    };
  }
  return { host: s.host ?? '', port: s.port ?? (s.protocol === 'https' ? 443 : 80), path: '/' };
}

/** Structural problems of a declarative config (empty when it is usable by Kong in DB-less mode). */
export function configProblems(config: KongConfig): string[] {
  const problems: string[] = [];
  if (config?._format_version !== '3.0') problems.push('_format_version must be "3.0"');
  const serviceNames = new Set<string>();
  const routeNames = new Set<string>();
  const checkPlugins = (where: string, plugins: KongPlugin[] | undefined) => {
    const seen = new Set<string>();
    for (const p of plugins ?? []) {
      if (!BUNDLED_PLUGINS.has(p.name)) problems.push(`${where}: unknown plugin ${p.name}`);
      if (seen.has(p.name)) problems.push(`${where}: plugin ${p.name} twice`);
      seen.add(p.name);
    }
  };
  checkPlugins('global', config?.plugins);
  for (const s of config?.services ?? []) {
    if (!s.name) problems.push('a service has no name');
    if (serviceNames.has(s.name)) problems.push(`service ${s.name} twice`);
    serviceNames.add(s.name);
    try {
      const up = upstreamOf(s);
      if (!up.host) problems.push(`service ${s.name}: no host`);
    } catch {
      problems.push(`service ${s.name}: bad url ${s.url}`);
    }
    checkPlugins(`service ${s.name}`, s.plugins);
    for (const r of s.routes ?? []) {
      if (!r.name) problems.push(`a route of ${s.name} has no name`);
      if (routeNames.has(r.name)) problems.push(`route ${r.name} twice`);
      routeNames.add(r.name);
      if (!r.paths?.length && !r.headers && !r.methods) problems.push(`route ${r.name}: matches nothing`);
      for (const p of r.paths ?? [])
        if (!p.startsWith('/') && !p.startsWith('~'))
          problems.push(`route ${r.name}: path ${p} must start with /`);
      for (const proto of r.protocols ?? [])
        if (!['http', 'https', 'grpc', 'grpcs', 'tcp', 'tls', 'udp', 'ws', 'wss'].includes(proto))
          problems.push(`route ${r.name}: protocol ${proto}`);
      checkPlugins(`route ${r.name}`, r.plugins);
    }
  }
  return problems;
}

function headerMatches(route: KongRoute, headers: Record<string, string>): boolean {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.entries(route.headers ?? {}).every(([name, values]) => {
    const actual = lower[name.toLowerCase()];
    if (actual === undefined) return false;
    return values.some((v) =>
      v.startsWith('~*')
        ? new RegExp(v.slice(2), 'i').test(actual)
        : v.toLowerCase() === actual.toLowerCase(),
    );
  });
}

export function route(config: KongConfig, req: KongRequest): Match | undefined {
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = req.headers ?? {};
  let best: { score: [number, number]; service: KongService; route: KongRoute; path: string } | undefined;
  for (const service of config.services ?? []) {
    for (const r of service.routes ?? []) {
      if (r.methods && !r.methods.map((m) => m.toUpperCase()).includes(method)) continue;
      if (!headerMatches(r, headers)) continue;
      const paths = (r.paths ?? ['/']).filter((p) => !p.startsWith('~') && req.path.startsWith(p));
      const longest = paths.sort((a, b) => b.length - a.length)[0];
      if (longest === undefined) continue;
      const conditions = Object.keys(r.headers ?? {}).length + (r.methods ? 1 : 0);
      const score: [number, number] = [conditions, longest.length];
      if (!best || score[0] > best.score[0] || (score[0] === best.score[0] && score[1] > best.score[1]))
        best = { score, service, route: r, path: longest };
    }
  }
  if (!best) return undefined;
  const up = upstreamOf(best.service);
  const rest = best.route.strip_path === false ? req.path : req.path.slice(best.path.length);
  const joined = `${up.path.replace(/\/$/, '')}/${rest.replace(/^\//, '')}`;
  const plugins = new Map<string, KongPlugin>();
  for (const p of [...(config.plugins ?? []), ...(best.service.plugins ?? []), ...(best.route.plugins ?? [])])
    if (p.enabled !== false) plugins.set(p.name, p);
  return {
    service: best.service,
    route: best.route,
    upstream: { host: up.host, port: up.port, path: joined },
    plugins,
  };
}

/** The body limit in megabytes the request-size-limiting plugin enforces for a match (Infinity if none). */
export function bodyLimitMb(match: Match): number {
  const p = match.plugins.get('request-size-limiting');
  if (!p) return Number.POSITIVE_INFINITY;
  const size = Number(p.config?.allowed_payload_size ?? 128);
  const unit = p.config?.size_unit ?? 'megabytes';
  return unit === 'kilobytes' ? size / 1024 : unit === 'bytes' ? size / 1024 / 1024 : size;
}

/** Requests per minute the rate-limiting plugin allows for a match (Infinity if none). */
export function perMinuteLimit(match: Match): number {
  const c = match.plugins.get('rate-limiting')?.config;
  if (!c) return Number.POSITIVE_INFINITY;
  const candidates = [c.second && c.second * 60, c.minute, c.hour && c.hour / 60].filter(
    (x) => typeof x === 'number',
  );
  return candidates.length ? Math.min(...candidates) : Number.POSITIVE_INFINITY;
}

/** scheme://host[:port], the default port left out, as Kong's cors plugin compares origins. */
function normalizedOrigin(origin: string): { origin: string; host: string } {
  try {
    const u = new URL(origin);
    return { origin: `${u.protocol}//${u.host}`, host: u.hostname };
  } catch {
    // Not a URL ('null' from a sandboxed page or a file): compared as it is.
    return { origin, host: origin };
  }
}

/**
 * Whether the global cors plugin lets a page of `origin` read the API's responses, as Kong decides it:
 * no origins or '*' let every origin in (with credentials, Kong echoes the caller's origin); an entry
 * of plain characters is an origin, compared after normalising; any other entry is a PCRE pattern,
 * anchored at both ends, matched against the host alone unless the entry holds a ':'.
 */
export function corsAllowsOrigin(config: KongConfig, origin: string): boolean {
  const cors = config.plugins?.find((p) => p.name === 'cors' && p.enabled !== false);
  if (!cors) return false;
  const origins = (cors.config?.origins ?? []) as string[];
  if (origins.length === 0 || origins.includes('*')) return true;
  const caller = normalizedOrigin(origin);
  return origins.some((entry) => {
    if (/^[A-Za-z0-9.:/-]+$/.test(entry)) return normalizedOrigin(entry).origin === caller.origin;
    const pattern = `^(?:${entry.replace(/^\^/, '').replace(/\$?$/, '$')})`;
    return new RegExp(pattern).test(entry.includes(':') ? caller.origin : caller.host);
  });
}
