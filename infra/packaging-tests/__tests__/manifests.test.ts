import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { containerEnv } from '../lib/contract-check.js';
import { byKind, find, type K8sObject, kustomizeVersion, overlays, render } from '../lib/kustomize.js';
import { contract, deployableServiceDirs, parseYamlDocuments, repoPath } from '../lib/repo.js';
import {
  connectionAllowed,
  deploymentProblems,
  heapFlagProblems,
  imagePinProblem,
  imageProblems,
  namespaceProblems,
  networkProblems,
  podOwners,
  policiesSelecting,
  referenceProblems,
  singleInstancePdbProblems,
} from '../lib/rules.js';
import { cnpgConsistency, validateObject } from '../lib/schema.js';

const c = contract();
/** A service's own drain (it waits for its requests in progress); others (nginx, collectors) 25 s. */
const DRAIN = (deployment: string) => c.deployables[deployment]?.drainSeconds ?? 25;

// Fixtures: small valid objects, broken one rule at a time by the negative checks below.
const fixtureDir = repoPath('infra/packaging-tests/fixtures');
const goodApp = (): K8sObject[] =>
  parseYamlDocuments(readFileSync(`${fixtureDir}/good-app.yaml`, 'utf8'), 'good-app.yaml') as K8sObject[];
const deploymentOf = (objects: K8sObject[]) => find(objects, 'Deployment', 'demo') as K8sObject;
const containerOf = (objects: K8sObject[]) => deploymentOf(objects).spec.template.spec.containers[0];

describe('kubectl kustomize', () => {
  it('is kustomize 5 or later (components, labels)', () => {
    expect(kustomizeVersion()).toMatch(/^v?[5-9]\./);
  });
});

describe('the rules catch bad manifests (fixtures)', () => {
  it('accept the good fixture', async () => {
    const objects = goodApp();
    expect(deploymentProblems(objects, DRAIN)).toEqual([]);
    expect(referenceProblems(objects)).toEqual([]);
    expect(imageProblems(objects)).toEqual([]);
    for (const o of objects) expect(await validateObject(o)).toEqual([]);
  });

  it('reject a Deployment without probes', () => {
    const objects = goodApp();
    delete containerOf(objects).readinessProbe;
    delete containerOf(objects).livenessProbe;
    expect(deploymentProblems(objects, DRAIN)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/no readinessProbe/),
        expect.stringMatching(/no livenessProbe/),
      ]),
    );
  });

  it('reject a Deployment without limits', () => {
    const objects = goodApp();
    delete containerOf(objects).resources.limits;
    expect(deploymentProblems(objects, DRAIN)).toEqual(
      expect.arrayContaining([expect.stringMatching(/no limits.cpu/)]),
    );
  });

  it('reject a Deployment without an HPA or a PDB', () => {
    const objects = goodApp().filter(
      (o) => o.kind !== 'HorizontalPodAutoscaler' && o.kind !== 'PodDisruptionBudget',
    );
    expect(deploymentProblems(objects, DRAIN)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/no HorizontalPodAutoscaler/),
        expect.stringMatching(/no PodDisruptionBudget/),
      ]),
    );
  });

  it('reject a PDB that selects other pods', () => {
    const objects = goodApp();
    (find(objects, 'PodDisruptionBudget', 'demo') as K8sObject).spec.selector.matchLabels = { app: 'other' };
    expect(deploymentProblems(objects, DRAIN)).toEqual([expect.stringMatching(/no PodDisruptionBudget/)]);
  });

  it('reject a grace period shorter than the drain', () => {
    const objects = goodApp();
    deploymentOf(objects).spec.template.spec.terminationGracePeriodSeconds = DRAIN('demo');
    expect(deploymentProblems(objects, DRAIN)).toEqual([
      expect.stringMatching(/terminationGracePeriodSeconds/),
    ]);
  });

  it('reject a Deployment without pod anti-affinity', () => {
    const objects = goodApp();
    delete deploymentOf(objects).spec.template.spec.affinity;
    expect(deploymentProblems(objects, DRAIN)).toEqual([expect.stringMatching(/anti-affinity/)]);
  });

  it('reject a container that may run as root with a writable root filesystem', () => {
    const objects = goodApp();
    const dep = deploymentOf(objects);
    dep.spec.template.spec.securityContext = {};
    containerOf(objects).securityContext = {};
    expect(deploymentProblems(objects, DRAIN)).toEqual(
      expect.arrayContaining([expect.stringMatching(/may run as root/), expect.stringMatching(/writable/)]),
    );
  });

  it('reject unpinned images', () => {
    for (const bad of [
      'nats',
      'nats:latest',
      'nats:2',
      'portico/gateway',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a compose variable, not a template
      'kong:${KONG_TAG}',
      'minio/minio:RELEASE',
    ])
      expect(imagePinProblem(bad)).toBeDefined();
    for (const good of [
      'nats:2.11.4-alpine',
      `kong@sha256:${'a'.repeat(64)}`,
      'minio/minio:RELEASE.2025-04-22T22-12-26Z',
    ])
      expect(imagePinProblem(good)).toBeUndefined();
    const objects = goodApp();
    containerOf(objects).image = 'example/demo:latest';
    expect(imageProblems(objects)).toEqual([expect.stringMatching(/floating tag/)]);
  });

  it('reject a schema violation', async () => {
    const objects = goodApp();
    deploymentOf(objects).spec.replicas = 'two';
    expect(await validateObject(deploymentOf(objects))).toEqual([expect.stringMatching(/replicas/)]);
    const svc = find(objects, 'Service', 'demo') as K8sObject;
    svc.spec.ports[0].port = 'http';
    expect((await validateObject(svc)).length).toBeGreaterThan(0);
  });

  it('reject an unknown kind and a broken CloudNativePG resource', async () => {
    expect(
      await validateObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }),
    ).toEqual(['no schema for example.com/v1/Widget']);
    const cluster: K8sObject = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      spec: { instances: 0, managed: { roles: [{ name: 'a', login: true }] } },
    };
    expect(await validateObject(cluster)).toEqual([
      'spec.instances must be an integer >= 1',
      'spec.storage.size is required',
      'spec.managed.roles[0] logs in but has no passwordSecret',
    ]);
    const db: K8sObject = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: 'd' },
      spec: { name: 'x', owner: 'b', cluster: { name: 'pg' } },
    };
    expect(cnpgConsistency([cluster, db])).toEqual(['Database d: owner b is not a managed role']);
  });

  it('reject references to missing ConfigMaps and a Service that selects nothing', () => {
    const objects = goodApp().filter((o) => o.kind !== 'ConfigMap');
    (find(objects, 'Service', 'demo') as K8sObject).spec.selector = { app: 'nobody' };
    expect(referenceProblems(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ConfigMap demo-config is missing/),
        expect.stringMatching(/selects no pods/),
      ]),
    );
  });

  it('reject a service that can reach more than its contract', () => {
    const objects = render('k8s/overlays/production').map((o) => structuredClone(o));
    const identityPods = (find(objects, 'Deployment', 'identity') as K8sObject).spec.template.metadata.labels;
    identityPods['portico.io/internet-egress'] = 'true';
    expect(networkProblems(objects, c)).toEqual([
      expect.stringMatching(/identity: egress to ip:443,465,587/),
    ]);
    const withoutDeny = objects.filter((o) => o.metadata.name !== 'default-deny');
    expect(networkProblems(withoutDeny, c)).toEqual(
      expect.arrayContaining(['no default-deny NetworkPolicy for the namespace']),
    );
  });
});

describe('the rules catch risky operations settings (fixtures)', () => {
  it('reject a V8 old space the memory limit cannot hold four times over, from the command or NODE_OPTIONS', () => {
    const objects = goodApp();
    const container = containerOf(objects);
    container.command = ['node', '--initial-old-space-size=32', 'main.js'];
    expect(heapFlagProblems(objects)).toEqual([]);
    container.command = ['node', '--max-old-space-size=40', 'main.js'];
    container.env = [{ name: 'NODE_OPTIONS', value: '--initial-old-space-size=48' }];
    expect(heapFlagProblems(objects)).toEqual([
      'Deployment/demo container demo: memory limit 128Mi is under 4 x its V8 old space (48 MiB)',
    ]);
    container.resources.limits.memory = '0.25Gi';
    expect(heapFlagProblems(objects)).toEqual([]);
  });

  it('reject a single-instance PostgreSQL cluster whose PodDisruptionBudget would block node drains', () => {
    const cluster = (spec: object): K8sObject => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      spec: { storage: { size: '1Gi' }, ...spec },
    });
    expect(singleInstancePdbProblems([cluster({ instances: 1 })])).toEqual([
      expect.stringMatching(/Cluster\/pg: one instance with enablePDB/),
    ]);
    expect(singleInstancePdbProblems([cluster({ instances: 1, enablePDB: true })])).toHaveLength(1);
    expect(singleInstancePdbProblems([cluster({ instances: 1, enablePDB: false })])).toEqual([]);
    expect(singleInstancePdbProblems([cluster({ instances: 3, enablePDB: true })])).toEqual([]);
  });

  it('follow NetworkPolicy selection: expressions, both ends of a connection, ports', () => {
    const policy = (name: string, spec: object): K8sObject => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name },
      spec,
    });
    const db = { matchExpressions: [{ key: 'db', operator: 'In', values: ['a', 'b'] }] };
    const objects = [
      policy('deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
      policy('to-db', {
        podSelector: { matchLabels: { client: 'true' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ podSelector: db }], ports: [{ port: 5432 }] }],
      }),
      policy('db', {
        podSelector: db,
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { client: 'true' } } }], ports: [{ port: 5432 }] }],
      }),
    ];
    const client = { client: 'true' };
    expect(connectionAllowed(objects, client, { db: 'b' }, 5432)).toBe(true);
    expect(connectionAllowed(objects, client, { db: 'c' }, 5432)).toBe(false);
    expect(connectionAllowed(objects, client, { db: 'a' }, 5433)).toBe(false);
    expect(connectionAllowed(objects, { other: 'true' }, { db: 'a' }, 5432)).toBe(false);
    expect(policiesSelecting(objects, { db: 'a' })).toEqual(['db', 'deny']);
    expect(policiesSelecting(objects, { db: 'c' })).toEqual(['deny']);
  });
});

describe('k8s/ops (operator tools)', () => {
  it('renders valid, pinned, locked-down objects', async () => {
    const objects = render('k8s/ops');
    expect(objects.map((o) => o.kind)).toEqual(['Pod']);
    for (const o of objects) expect(await validateObject(o)).toEqual([]);
    expect(imageProblems(objects)).toEqual([]);
    expect(namespaceProblems(objects, c.namespace)).toEqual([]);
  });
});

describe.each(overlays())('overlay %s', (overlay) => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = render(`k8s/overlays/${overlay}`);
  });

  it('renders', () => {
    expect(objects.length).toBeGreaterThan(20);
  });

  it('validates every object against the Kubernetes schemas (CRDs by their own rules)', async () => {
    const errors: string[] = [];
    for (const o of objects)
      for (const e of await validateObject(o)) errors.push(`${o.kind}/${o.metadata.name}: ${e}`);
    errors.push(...cnpgConsistency(objects));
    expect(errors).toEqual([]);
  });

  it('gives every Deployment probes, requests and limits, an HPA, a PDB, anti-affinity and a long enough grace period', () => {
    expect(byKind(objects, 'Deployment').length).toBeGreaterThan(5);
    expect(deploymentProblems(objects, DRAIN)).toEqual([]);
  });

  it('pins every image', () => {
    expect(imageProblems(objects)).toEqual([]);
  });

  it('resolves every reference and keeps everything in the namespace', () => {
    expect(referenceProblems(objects)).toEqual([]);
    expect(namespaceProblems(objects, c.namespace)).toEqual([]);
  });

  it('lets each service reach only NATS, its database and the object store', () => {
    expect(networkProblems(objects, c)).toEqual([]);
  });

  it('has manifests for every deployable folder in services/ and for the gateway', () => {
    const dirs = [...deployableServiceDirs(), 'gateway'];
    const byDir = new Map(Object.entries(c.deployables).map(([name, d]) => [d.dir, name]));
    for (const dir of dirs) {
      const name = byDir.get(dir);
      expect({ dir, inContract: name !== undefined }).toEqual({ dir, inContract: true });
      const d = c.deployables[name as string];
      for (const kind of [
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'ServiceAccount',
      ])
        expect({ dir, kind, found: Boolean(find(objects, kind, name as string)) }).toEqual({
          dir,
          kind,
          found: true,
        });
      if (d?.database) {
        const job = find(objects, 'Job', `${name}-migrate`);
        expect(job?.spec.template.spec.containers[0].command).toEqual(['node', 'dist/migrate.js']);
      }
    }
  });

  it('runs migrations and stream declarations as Jobs ordered before the rollout', () => {
    const jobs = byKind(objects, 'Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(
      [
        ...Object.entries(c.deployables)
          .filter(([, d]) => d.database)
          .map(([n]) => `${n}-migrate`),
        'nats-streams',
      ].sort(),
    );
    for (const j of jobs) {
      expect(j.metadata.labels?.['app.kubernetes.io/component']).toBe('migration');
      // Argo CD: in the sync, once configuration and infrastructure (wave 0) are there and healthy.
      expect(j.metadata.annotations?.['argocd.argoproj.io/hook']).toBe('Sync');
      expect(j.metadata.annotations?.['argocd.argoproj.io/sync-wave']).toBe('1');
    }
  });

  it('labels the phases the runbook applies in order: config and infrastructure, migrations, rollout', () => {
    const rollout = objects
      .filter((o) => o.metadata.labels?.['portico.io/phase'] === 'rollout')
      .map((o) => `${o.kind}/${o.metadata.name}`);
    const expected = [
      ...Object.keys(c.deployables),
      ...[c.frontends.shell, ...c.frontends.remotes].map((n) => `frontend-${n}`),
    ].map((n) => `Deployment/${n}`);
    expect(rollout.sort()).toEqual(expected.sort());
    // Argo CD rolls them out after the migration Jobs.
    for (const o of objects.filter((x) => x.metadata.labels?.['portico.io/phase'] === 'rollout'))
      expect({ o: o.metadata.name, wave: o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] }).toEqual({
        o: o.metadata.name,
        wave: '2',
      });
  });

  it("mounts the shell's runtime configuration where the shell reads it, and only into the shell", () => {
    const path = '/usr/share/nginx/html/runtime-config.json';
    const mounting = byKind(objects, 'Deployment').filter((d) =>
      d.spec.template.spec.containers.some((k: { volumeMounts?: { mountPath: string }[] }) =>
        k.volumeMounts?.some((m) => m.mountPath === path),
      ),
    );
    expect(mounting.map((d) => d.metadata.name)).toEqual([`frontend-${c.frontends.shell}`]);
    const volume = mounting[0]?.spec.template.spec.volumes.find(
      (v: { configMap?: { name: string } }) => v.configMap,
    );
    const map = byKind(objects, 'ConfigMap').find((m) => m.metadata.name === volume?.configMap.name);
    const config = JSON.parse(map?.data['runtime-config.json'] ?? '{}');
    expect(config.apiUrl).toBe('');
    expect(Object.keys(config.remotes).sort()).toEqual([...c.frontends.remotes].sort());
  });

  it("opens the edge over HTTPS in production, port 80 answering only with Kong's redirect to it", () => {
    const proxy = find(objects, 'Service', 'kong-proxy') as K8sObject;
    const ports = Object.fromEntries(
      (proxy.spec.ports as { port: number; targetPort: string }[]).map((p) => [p.port, p.targetPort]),
    );
    const kong = find(objects, 'Deployment', 'kong') as K8sObject;
    const pod = kong.spec.template.spec;
    const container = pod.containers[0];
    const env = Object.fromEntries(
      (container.env as { name: string; value?: string }[]).map((e) => [e.name, e.value]),
    );
    const containerPort = (name: string) =>
      (container.ports as { name: string; containerPort: number }[]).find((p) => p.name === name)
        ?.containerPort;
    const admitted = (find(objects, 'NetworkPolicy', 'kong') as K8sObject).spec.ingress[0].ports.map(
      (p: { port: number }) => p.port,
    );
    if (overlay === 'local') {
      expect(ports).toEqual({ 80: 'proxy' });
      expect(env.KONG_NGINX_HTTP_INCLUDE).toBeUndefined();
      return;
    }
    expect(ports).toEqual({ 443: 'proxy-tls', 80: 'http-redirect' });
    // The included file is the ConfigMap's, mounted where the variable says, and listens on that port.
    const include = env.KONG_NGINX_HTTP_INCLUDE as string;
    const mount = (container.volumeMounts as { name: string; mountPath: string }[]).find((m) =>
      include.startsWith(`${m.mountPath}/`),
    );
    const volume = pod.volumes.find((v: { name: string }) => v.name === mount?.name);
    const map = find(objects, 'ConfigMap', volume?.configMap?.name) as K8sObject;
    const conf = map.data[include.slice((mount?.mountPath.length ?? 0) + 1)] as string;
    expect(conf).toContain(`listen ${containerPort('http-redirect')};`);
    expect(conf).toMatch(/return 308 https:\/\/\$host\$request_uri;/);
    expect(conf).not.toMatch(/proxy_pass/);
    expect(admitted).toEqual(
      expect.arrayContaining([containerPort('proxy-tls'), containerPort('http-redirect')]),
    );
  });

  it('runs NATS as a StatefulSet with JetStream volumes', () => {
    const nats = find(objects, 'StatefulSet', 'nats') as K8sObject;
    expect(nats.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(nats.spec.replicas).toBe(overlay === 'local' ? 1 : 3);
    const conf = byKind(objects, 'ConfigMap').find((m) => m.metadata.name.startsWith('nats-config-'))?.data[
      'nats.conf'
    ];
    expect(conf).toMatch(/jetstream\s*\{/);
    if (overlay !== 'local') expect(conf).toMatch(/cluster\s*\{[\s\S]*nats-2\.nats-headless:6222/);
    const streamsJob = find(objects, 'Job', 'nats-streams') as K8sObject;
    const replicas = streamsJob.spec.template.spec.containers[0].env.find(
      (e: { name: string }) => e.name === 'STREAM_REPLICAS',
    );
    expect(Number(replicas.value)).toBe(overlay === 'local' ? 1 : c.streams[0]?.productionReplicas);
  });

  it('counts a NATS node started only once its streams have caught up (startup probe: the full /healthz)', () => {
    const nats = find(objects, 'StatefulSet', 'nats') as K8sObject;
    const container = nats.spec.template.spec.containers.find((x: { name: string }) => x.name === 'nats');
    expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
  });

  it('gives every container with a V8 old-space flag a memory limit of four times that flag or more', () => {
    const flagged = podOwners(objects).filter(({ spec }) =>
      JSON.stringify(spec.containers).includes('old-space-size'),
    );
    expect(flagged.map(({ owner }) => owner.metadata.name)).toEqual(
      expect.arrayContaining(['documents', 'gateway']),
    );
    expect(heapFlagProblems(objects)).toEqual([]);
  });

  it('keeps the edge inside the cluster where the development routes (sign-in codes) are on', () => {
    const devRoutes = byKind(objects, 'Deployment').some((d) =>
      d.spec.template.spec.containers.some(
        (k: object) => containerEnv(objects, k).get('DEV_ROUTES_ENABLED')?.value === 'true',
      ),
    );
    expect(devRoutes).toBe(overlay === 'local');
    if (!devRoutes) return;
    const proxy = find(objects, 'Service', 'kong-proxy') as K8sObject;
    expect(proxy.spec.type ?? 'ClusterIP').toBe('ClusterIP');
  });

  it('lets a single-instance PostgreSQL cluster be drained (no PodDisruptionBudget)', () => {
    expect(singleInstancePdbProblems(objects)).toEqual([]);
  });

  it("lets the runbook's restored PostgreSQL cluster (portico-pg-restore) reach and be reached as the cluster itself", () => {
    const cluster = byKind(objects, 'Cluster')[0];
    if (!cluster) return;
    const instance = (name: string) => ({ 'cnpg.io/cluster': name });
    const reach = (self: Record<string, string>) => {
      const peers = [
        ...podOwners(objects).map((p) => [`${p.owner.kind}/${p.owner.metadata.name}`, p.labels] as const),
        ['its own instances', self] as const,
      ];
      return peers.flatMap(([peer, labels]) =>
        [443, 5432, 6443, 8000].flatMap((port) => [
          `${peer} -> it:${port} ${connectionAllowed(objects, labels, self, port)}`,
          `it -> ${peer}:${port} ${connectionAllowed(objects, self, labels, port)}`,
        ]),
      );
    };
    const name = cluster.metadata.name;
    const restore = instance(`${name}-restore`);
    // Policies with namespace or address peers (the operator, the object store) apply alike.
    expect(policiesSelecting(objects, restore)).toEqual(policiesSelecting(objects, instance(name)));
    expect(reach(restore)).toEqual(reach(instance(name)));
    expect(reach(restore)).toContain('Deployment/identity -> it:5432 true');
    // Only those two: a cluster of another name is not let in.
    expect(reach(instance(`${name}-other`))).toContain('Deployment/identity -> it:5432 false');
  });

  it('has a database and role per service (CloudNativePG) or an external database policy', () => {
    const withDb = Object.entries(c.deployables).filter(([, d]) => d.database);
    const cluster = byKind(objects, 'Cluster')[0];
    if (overlay === 'production-external-db') {
      expect(cluster).toBeUndefined();
      expect(find(objects, 'NetworkPolicy', 'db-clients-to-external-db')).toBeDefined();
      return;
    }
    expect(cluster?.spec.instances).toBe(overlay === 'local' ? 1 : 3);
    const roles = cluster?.spec.managed.roles.map((r: { name: string }) => r.name);
    const dbs = byKind(objects, 'Database').map((d) => [d.spec.name, d.spec.owner]);
    for (const [, d] of withDb) {
      expect(roles).toContain(d.database);
      expect(dbs).toContainEqual([d.database, d.database]);
    }
    // lower() folds case beyond ASCII (unique names, lookups) only under a Unicode locale; the builtin one
    // is the same on every node, as the test servers' initdb sets it.
    for (const db of byKind(objects, 'Database'))
      expect(db.spec).toMatchObject({
        template: 'template0',
        encoding: 'UTF8',
        localeProvider: 'builtin',
        builtinLocale: 'C.UTF-8',
      });
  });
});

describe('database connections', () => {
  /** Connections one pod opens at most (the platform's pool) and what a migration Job holds. */
  const POOL = 10;
  const MIGRATION_JOB = 2;
  const yamlAt = (path: string) =>
    parseYamlDocuments(readFileSync(repoPath(path), 'utf8'), path) as K8sObject[];

  it("give each service's role room for every pod its HPA allows, one more during a rollout, and its migration", () => {
    const cluster = yamlAt('k8s/components/cnpg/cluster.yaml')[0] as K8sObject;
    const roles = cluster.spec.managed.roles as { name: string; connectionLimit: number }[];
    let total = 0;
    for (const service of ['identity', 'notifications', 'documents']) {
      const hpa = yamlAt(`k8s/base/${service}/hpa.yaml`).find((o) => o.kind === 'HorizontalPodAutoscaler');
      const needed = ((hpa?.spec.maxReplicas as number) + 1) * POOL + MIGRATION_JOB;
      const limit = roles.find((r) => r.name === service)?.connectionLimit ?? 0;
      expect({ service, enough: limit >= needed }).toEqual({ service, enough: true });
      total += limit;
    }
    expect(Number(cluster.spec.postgresql.parameters.max_connections)).toBeGreaterThan(total);
  });
});
