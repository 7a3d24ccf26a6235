import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { composeEnv, parseCompose } from '../lib/compose.js';
import { composeProblems, containerEnv, manifestProblems } from '../lib/contract-check.js';
import { byKind, find, type K8sObject, overlays, render } from '../lib/kustomize.js';
import { contract, deployableServiceDirs, readJson, readText, repoPath } from '../lib/repo.js';

const c = contract();
const compose = () => parseCompose(readText('infra/docker/docker-compose.yml'));
const production = () => render('k8s/overlays/production').map((o) => structuredClone(o));

describe('the contract checks catch disagreements (fixtures)', () => {
  it('report a compose service with a wrong image, a missing env variable or a floating tag', () => {
    const file = compose();
    const identity = file.services.identity as { image: string; environment: Record<string, string> };
    identity.image = 'portico/identity:0.0.9';
    delete identity.environment.JWT_SIGNING_KEYS;
    (file.services.nats as { image: string }).image = 'nats:latest';
    expect(composeProblems(file, c)).toEqual([
      'compose nats: nats:latest: floating tag',
      'compose identity: image portico/identity:0.0.9, contract portico/identity:0.1.0',
      'compose identity: env missing [JWT_SIGNING_KEYS], extra []',
      'compose identity-migrate: image portico/identity:0.1.0',
    ]);
  });

  it('report a Deployment whose env, port or secret source drifted', () => {
    const objects = production();
    const gateway = find(objects, 'Deployment', 'gateway') as K8sObject;
    const container = gateway.spec.template.spec.containers[0];
    container.env.push({ name: 'EXTRA_SETTING', value: '1' });
    container.env = container.env.filter((e: { name: string }) => e.name !== 'STRIPE_WEBHOOK_SECRET');
    container.readinessProbe.httpGet.path = '/ready';
    expect(manifestProblems(objects, c)).toEqual([
      'k8s gateway: env missing [STRIPE_WEBHOOK_SECRET], extra [EXTRA_SETTING]',
      'k8s gateway: STRIPE_WEBHOOK_SECRET is not read from a Secret',
      'k8s gateway: readinessProbe is not /health/ready on 3000',
    ]);
  });
});

describe('runtime contract', () => {
  it('covers every deployable folder: services/* with a start script or src/main.ts, and the gateway', () => {
    const inContract = Object.values(c.deployables)
      .map((d) => d.dir)
      .sort();
    expect(inContract).toEqual([...deployableServiceDirs(), 'gateway'].sort());
    for (const dir of inContract) expect(existsSync(repoPath(dir, 'package.json'))).toBe(true);
  });

  it('deploys only front ends that exist: an image is built from each frontends/<name>', () => {
    for (const name of [c.frontends.shell, ...c.frontends.remotes])
      expect([name, existsSync(repoPath('frontends', name, 'package.json'))]).toEqual([name, true]);
  });

  it('gives every service its own health port', () => {
    const ports = [
      ...Object.values(c.deployables).map((d) => d.httpPort),
      ...Object.values(c.plannedServices).filter(Number.isInteger),
    ];
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe('docker-compose.yml and the manifests agree with the contract and each other', () => {
  it('compose names the contract images, ports and env variables', () => {
    expect(composeProblems(compose(), c)).toEqual([]);
  });

  it.each(overlays())('overlay %s names the contract images, ports and env variables', (overlay) => {
    expect(manifestProblems(render(`k8s/overlays/${overlay}`), c)).toEqual([]);
  });

  it.each(overlays())('overlay %s runs the same infrastructure images as compose', (overlay) => {
    const objects = render(`k8s/overlays/${overlay}`);
    const services = compose().services;
    const image = (kind: string, name: string) =>
      (kind === 'Job' || kind === 'StatefulSet' || kind === 'Deployment') &&
      find(objects, kind, name)?.spec.template.spec.containers[0].image;
    const pairs: [string, string, string][] = [
      ['nats', 'StatefulSet', 'nats'],
      ['nats-streams', 'Job', 'nats-streams'],
      ['kong', 'Deployment', 'kong'],
      ['otel-collector', 'Deployment', 'otel-collector'],
    ];
    if (overlay === 'local')
      pairs.push(['object-store', 'StatefulSet', 'object-store'], ['jaeger', 'StatefulSet', 'jaeger']);
    for (const [svc, kind, name] of pairs)
      expect({ svc, image: image(kind, name) }).toEqual({ svc, image: services[svc]?.image });
  });

  it.each(overlays())('overlay %s gives Node processes the same shared settings as compose', (overlay) => {
    const objects = render(`k8s/overlays/${overlay}`);
    const common = byKind(objects, 'ConfigMap').find((m) => m.metadata.name.startsWith('portico-common-'));
    const composeGateway = composeEnv(compose().services.gateway ?? {});
    for (const key of c.commonEnv.filter((k) => k !== 'OTEL_SERVICE_NAME'))
      expect({ key, value: common?.data[key] }).toEqual({ key, value: composeGateway[key] });
    const gateway = find(objects, 'Deployment', 'gateway')?.spec.template.spec.containers[0];
    expect(containerEnv(objects, gateway).get('NATS_URL')?.value).toBe('nats://nats:4222');
  });

  it('declares the JetStream streams once, used by the Kubernetes job and by compose', () => {
    for (const s of c.streams) {
      const config = readJson<{ name: string; subjects: string[]; num_replicas: number; storage: string }>(
        `k8s/base/nats/streams/${s.name}.json`,
      );
      expect(config).toMatchObject({
        name: s.name,
        subjects: s.subjects,
        num_replicas: s.productionReplicas,
        storage: 'file',
      });
    }
    const box = compose().services['nats-streams'];
    expect(box?.volumes).toContain('../../k8s/base/nats/streams:/streams:ro');
    expect(composeEnv(box ?? {}).STREAM_REPLICAS).toBe('1');
  });

  it("gives compose's NATS the cluster's message size, shutdown and disk syncs, and every app the cluster's grace period", () => {
    const setting = (text: string, key: string) => new RegExp(`^${key}:\\s*(\\S+)`, 'm').exec(text)?.[1];
    const cluster = readText('k8s/base/nats/nats.conf');
    const local = readText('infra/docker/nats.conf');
    for (const key of ['max_payload', 'lame_duck_duration', 'lame_duck_grace_period'])
      expect([key, setting(local, key)]).toEqual([key, setting(cluster, key)]);
    // An event acknowledged is on disk: the outbox counts it published then, and keeps no other copy.
    for (const conf of [cluster, local])
      expect(/jetstream\s*\{[^}]*^\s*sync_interval:\s*always\s*$/m.test(conf)).toBe(true);
    const services = compose().services;
    expect(services.nats?.volumes).toContain('./nats.conf:/etc/nats/nats.conf:ro');
    const seconds = (grace: unknown) => Number(/^(\d+)s$/.exec(String(grace))?.[1] ?? 0);
    const rendered = render('k8s/overlays/production');
    for (const name of [...Object.keys(c.deployables), 'kong']) {
      const deployment = find(rendered, 'Deployment', name);
      const grace = deployment?.spec.template.spec.terminationGracePeriodSeconds;
      expect([name, seconds(services[name]?.stop_grace_period) >= grace]).toEqual([name, true]);
    }
  });

  it('mounts the same Kong config and collector config in compose as in the cluster', () => {
    const services = compose().services;
    expect(services.kong?.volumes).toContain('../../gateway/kong/kong.yml:/kong/declarative/kong.yml:ro');
    expect(services['otel-collector']?.volumes).toContain(
      '../../k8s/base/otel-collector/config.yaml:/etc/otelcol/config.yaml:ro',
    );
    expect(composeEnv(services.kong ?? {}).KONG_DECLARATIVE_CONFIG).toBe('/kong/declarative/kong.yml');
    const kong = find(render('k8s/overlays/production'), 'Deployment', 'kong')?.spec.template.spec
      .containers[0];
    expect(kong.env.find((e: { name: string }) => e.name === 'KONG_DECLARATIVE_CONFIG')?.value).toBe(
      '/kong/declarative/kong.yml',
    );
  });
});
