import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { containerEnv } from '../lib/contract-check.js';
import { corsAllowsOrigin, type KongConfig } from '../lib/kong.js';
import {
  byKind,
  find,
  type K8sObject,
  OPERATOR_FILE_FIXTURES,
  overlays,
  render,
  renderStaged,
  stageManifests,
} from '../lib/kustomize.js';
import { contract, notIgnoredByGit, readText } from '../lib/repo.js';

const c = contract();
const productionOverlays = () => overlays().filter((o) => o !== 'local');
const PORTAL_FILE = 'k8s/components/production/portal.env';

/** KEY=value lines of an env file, comments and blank lines left out. */
const envFile = (rel: string): Record<string, string> =>
  Object.fromEntries(
    readText(rel)
      .split('\n')
      .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
const fixture = () => envFile(OPERATOR_FILE_FIXTURES['portal.env'] as string);

/** The value a Deployment's main container gets for `key` (its ConfigMaps and its own env). */
const deploymentEnv = (objects: K8sObject[], name: string, key: string) =>
  containerEnv(
    objects,
    find(objects, 'Deployment', name)?.spec.template.spec.containers.find(
      (x: { name: string }) => x.name === name,
    ),
  ).get(key)?.value;

/** Placeholder and loopback addresses: none may reach a production cluster. */
const NOT_PRODUCTION_ADDRESS = /example\.(com|org|net)|localhost|127\.0\.0\.1|\[::1\]/i;

/** Where `pattern` occurs in the rendered objects, as Kind/name: the matching text. */
function occurrences(objects: K8sObject[], pattern: RegExp): string[] {
  const found: string[] = [];
  const visit = (where: string, value: unknown) => {
    if (typeof value === 'string') {
      const m = new RegExp(pattern.source, 'gi').exec(value);
      if (m) found.push(`${where}: ${value.slice(Math.max(0, m.index - 30), m.index + 40)}`);
    } else if (value && typeof value === 'object') for (const v of Object.values(value)) visit(where, v);
  };
  for (const o of objects) visit(`${o.kind}/${o.metadata.name}`, o);
  return found;
}

describe('the checks of the portal address catch a bad render (fixtures)', () => {
  it('report a placeholder or loopback address anywhere in an object', () => {
    const objects = structuredClone(render('k8s/overlays/production'));
    const gateway = byKind(objects, 'ConfigMap').find((m) => m.metadata.name.startsWith('gateway-config-'));
    (gateway as K8sObject).data.CORS_ORIGINS = 'https://portal.example.com,http://localhost:8000';
    expect(occurrences(objects, NOT_PRODUCTION_ADDRESS)).toEqual([
      expect.stringMatching(/^ConfigMap\/gateway-config-\w+: .*portal\.example\.com/),
    ]);
  });

  it("follow Kong's matching of origins: plain origins, patterns, and an empty list letting every origin in", () => {
    const withOrigins = (origins: string[]): KongConfig => ({
      _format_version: '3.0',
      plugins: [{ name: 'cors', config: { origins, credentials: true } }],
    });
    expect(corsAllowsOrigin(withOrigins([]), 'https://evil.test')).toBe(true);
    expect(corsAllowsOrigin(withOrigins(['*']), 'https://evil.test')).toBe(true);
    const listed = withOrigins(['https://portal.firm.test', 'http://localhost:8000']);
    expect(corsAllowsOrigin(listed, 'https://portal.firm.test:443')).toBe(true);
    expect(corsAllowsOrigin(listed, 'http://localhost:8000')).toBe(true);
    expect(corsAllowsOrigin(listed, 'http://localhost:8001')).toBe(false);
    const pattern = withOrigins(['.*\\.firm\\.test']);
    expect(corsAllowsOrigin(pattern, 'https://a.firm.test')).toBe(true);
    expect(corsAllowsOrigin(pattern, 'https://a.firm.test.evil.test')).toBe(false);
  });
});

describe.each(productionOverlays())('overlay %s', (overlay) => {
  it('renders no example.com, localhost or loopback address', () => {
    expect(occurrences(render(`k8s/overlays/${overlay}`), NOT_PRODUCTION_ADDRESS)).toEqual([]);
  });

  it("takes the portal's address and mail sender from portal.env", () => {
    const objects = render(`k8s/overlays/${overlay}`);
    const { PORTAL_URL, MAIL_FROM } = fixture();
    expect(PORTAL_URL).toMatch(/^https:\/\/[^/]+$/);
    expect({
      identity: deploymentEnv(objects, 'identity', 'PUBLIC_URL'),
      documents: deploymentEnv(objects, 'documents', 'PUBLIC_URL'),
      gateway: deploymentEnv(objects, 'gateway', 'CORS_ORIGINS'),
      notifications: deploymentEnv(objects, 'notifications', 'MAIL_FROM'),
    }).toEqual({
      identity: PORTAL_URL,
      documents: PORTAL_URL,
      gateway: PORTAL_URL,
      notifications: MAIL_FROM,
    });
    // Read while rendering only: nothing named after it is applied.
    expect(objects.filter((o) => o.metadata.name.startsWith('portal'))).toEqual([]);
  });

  it('does not render without portal.env, and says which file is missing', () => {
    const root = stageManifests({ operatorFiles: false });
    let failure = '';
    try {
      renderStaged(root, `k8s/overlays/${overlay}`);
    } catch (err) {
      failure = `${(err as { stderr?: string }).stderr ?? ''}${(err as Error).message}`;
    }
    expect(failure).toContain('k8s/components/production/portal.env');
  });
});

describe('portal.env', () => {
  it('is kept out of git; its example, listing the keys the manifests read, is not', () => {
    expect(notIgnoredByGit([PORTAL_FILE, 'k8s/overlays/production/portal.env'])).toEqual([]);
    expect(notIgnoredByGit([`${PORTAL_FILE}.example`])).toEqual([`${PORTAL_FILE}.example`]);
    const component = parse(readText('k8s/components/production/kustomization.yaml')) as {
      replacements: { source: { name: string; fieldPath: string } }[];
    };
    const read = component.replacements
      .filter((r) => r.source.name === 'portal')
      .map((r) => r.source.fieldPath.replace(/^data\./, ''));
    expect(Object.keys(envFile(`${PORTAL_FILE}.example`)).sort()).toEqual([...read].sort());
    expect(Object.keys(fixture()).sort()).toEqual([...read].sort());
  });
});

describe("Kong's CORS (gateway/kong/kong.yml, the same file in every environment)", () => {
  const kong = () => parse(readText('gateway/kong/kong.yml')) as KongConfig;

  it('lets no other origin call the API with credentials: no local or placeholder origin, not every origin', () => {
    for (const origin of [
      'http://localhost:8000',
      'http://127.0.0.1:8000',
      'https://portal.example.com',
      'https://evil.test',
      'null',
    ])
      expect({ origin, allowed: corsAllowsOrigin(kong(), origin) }).toEqual({ origin, allowed: false });
  });
});

describe('migrations before a rollout', () => {
  const withDatabase = Object.entries(c.deployables)
    .filter(([, d]) => d.database)
    .map(([name]) => name);

  it.each(overlays())(
    'overlay %s: the services leave them to the Jobs in production, and apply them at start locally',
    (overlay) => {
      const objects = render(`k8s/overlays/${overlay}`);
      const expected = overlay === 'local' ? 'true' : 'false';
      expect(withDatabase.length).toBeGreaterThan(0);
      for (const name of withDatabase)
        expect({ name, value: deploymentEnv(objects, name, 'MIGRATE_ON_START') }).toEqual({
          name,
          value: expected,
        });
    },
  );

  it.each(overlays())('overlay %s: a finished Job is kept a while for its logs, then removed', (overlay) => {
    const jobs = byKind(render(`k8s/overlays/${overlay}`), 'Job');
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs)
      expect({ job: job.metadata.name, ttl: job.spec.ttlSecondsAfterFinished }).toEqual({
        job: job.metadata.name,
        ttl: expect.any(Number),
      });
    for (const job of jobs) expect(job.spec.ttlSecondsAfterFinished).toBeGreaterThanOrEqual(3_600);
  });

  it.each(productionOverlays())(
    "overlay %s: its header sends operators to the runbook's phases, not to apply everything in one go",
    (overlay) => {
      const header = readText(`k8s/overlays/${overlay}/kustomization.yaml`)
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) => line.replace(/^#\s*/, ''))
        .join(' ');
      expect(header).not.toMatch(/\|\s*kubectl apply -f -/);
      expect(header).toContain('three phases of k8s/README.md, "Deploy"');
    },
  );
});
