import { type ComposeFile, composeEnv, composePorts } from './compose.js';
import { find, type K8sObject } from './kustomize.js';
import { expectedEnv, frontendImage, frontendNames, type RuntimeContract } from './repo.js';
import { imagePinProblem } from './rules.js';

const sameList = (a: string[], b: string[]) =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
const diff = (actual: string[], expected: string[]) => {
  const missing = expected.filter((x) => !actual.includes(x));
  const extra = actual.filter((x) => !expected.includes(x));
  return `missing [${missing.join(', ')}], extra [${extra.join(', ')}]`;
};

/** What the compose file says that the runtime contract does not (empty when they agree). */
export function composeProblems(compose: ComposeFile, c: RuntimeContract): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  for (const [name, s] of Object.entries(services)) {
    const problem = imagePinProblem(s.image);
    if (problem) problems.push(`compose ${name}: ${problem}`);
  }
  for (const [name, d] of Object.entries(c.deployables)) {
    const s = services[name];
    if (!s) {
      problems.push(`compose: no service ${name}`);
      continue;
    }
    if (s.image !== `${d.image}:${c.imageTag}`)
      problems.push(`compose ${name}: image ${s.image}, contract ${d.image}:${c.imageTag}`);
    if (s.build?.dockerfile !== 'infra/docker/node-app.Dockerfile' || s.build?.args?.APP_DIR !== d.dir)
      problems.push(`compose ${name}: not built from node-app.Dockerfile with APP_DIR=${d.dir}`);
    const env = composeEnv(s);
    const names = Object.keys(env);
    if (!sameList(names, expectedEnv(c, d)))
      problems.push(`compose ${name}: env ${diff(names, expectedEnv(c, d))}`);
    if (env[d.portEnv] !== String(d.httpPort))
      problems.push(`compose ${name}: ${d.portEnv} is ${env[d.portEnv]}, contract ${d.httpPort}`);
    if (env.OTEL_SERVICE_NAME !== name)
      problems.push(`compose ${name}: OTEL_SERVICE_NAME is ${env.OTEL_SERVICE_NAME}`);
    if (!composePorts(s).includes(d.httpPort))
      problems.push(`compose ${name}: port ${d.httpPort} not exposed`);
    if (d.database) {
      const m = services[`${name}-migrate`];
      if (!m) problems.push(`compose: no service ${name}-migrate`);
      else {
        if (m.image !== s.image) problems.push(`compose ${name}-migrate: image ${m.image}`);
        if (JSON.stringify(m.command) !== JSON.stringify(['node', 'dist/migrate.js']))
          problems.push(`compose ${name}-migrate: command ${JSON.stringify(m.command)}`);
        if (!('DATABASE_URL' in composeEnv(m))) problems.push(`compose ${name}-migrate: no DATABASE_URL`);
        if (s.depends_on?.[`${name}-migrate`]?.condition !== 'service_completed_successfully')
          problems.push(`compose ${name}: does not wait for ${name}-migrate`);
      }
    }
  }
  for (const name of frontendNames(c)) {
    const s = services[`frontend-${name}`];
    if (!s) {
      problems.push(`compose: no service frontend-${name}`);
      continue;
    }
    if (s.image !== `${frontendImage(c, name)}:${c.imageTag}`)
      problems.push(`compose frontend-${name}: image ${s.image}`);
    if (
      s.build?.dockerfile !== 'infra/docker/frontend.Dockerfile' ||
      s.build?.args?.APP_DIR !== `frontends/${name}`
    )
      problems.push(
        `compose frontend-${name}: not built from frontend.Dockerfile with APP_DIR=frontends/${name}`,
      );
    if (!composePorts(s).includes(c.frontends.port))
      problems.push(`compose frontend-${name}: port ${c.frontends.port} not exposed`);
  }
  return problems;
}

// biome-ignore lint/suspicious/noExplicitAny: container specs
type Container = any;

/** Env names of a container: explicit env plus the keys of the ConfigMaps it loads with envFrom. */
export function containerEnv(
  objects: K8sObject[],
  container: Container,
): Map<string, { value?: string; secret?: boolean; optional?: boolean }> {
  const out = new Map<string, { value?: string; secret?: boolean; optional?: boolean }>();
  for (const from of container.envFrom ?? []) {
    const cm = from.configMapRef && find(objects, 'ConfigMap', from.configMapRef.name);
    for (const [k, v] of Object.entries(cm?.data ?? {})) out.set(k, { value: String(v) });
  }
  for (const e of container.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    out.set(e.name, ref ? { secret: true, optional: ref.optional === true } : { value: e.value });
  }
  return out;
}

const portNumber = (container: Container, port: unknown): number | undefined =>
  typeof port === 'number'
    ? port
    : container.ports?.find((p: { name: string }) => p.name === port)?.containerPort;

/** What a rendered overlay says that the runtime contract does not (empty when they agree). */
export function manifestProblems(objects: K8sObject[], c: RuntimeContract): string[] {
  const problems: string[] = [];
  for (const [name, d] of Object.entries(c.deployables)) {
    const dep = find(objects, 'Deployment', name);
    const container = dep?.spec.template.spec.containers.find((x: { name: string }) => x.name === name);
    if (!container) {
      problems.push(`k8s: no Deployment ${name} with a container ${name}`);
      continue;
    }
    if (container.image !== `${d.image}:${c.imageTag}`)
      problems.push(`k8s ${name}: image ${container.image}`);
    const env = containerEnv(objects, container);
    const names = [...env.keys()];
    if (!sameList(names, expectedEnv(c, d)))
      problems.push(`k8s ${name}: env ${diff(names, expectedEnv(c, d))}`);
    for (const key of d.secretEnv) {
      const e = env.get(key);
      if (!e?.secret) problems.push(`k8s ${name}: ${key} is not read from a Secret`);
      else if (e.optional !== d.optionalSecretEnv.includes(key))
        problems.push(`k8s ${name}: ${key} optional is ${e.optional}`);
    }
    for (const [key, e] of env)
      if (e.secret && !d.secretEnv.includes(key))
        problems.push(`k8s ${name}: ${key} is a Secret but not in the contract`);
    if (env.get(d.portEnv)?.value !== String(d.httpPort))
      problems.push(`k8s ${name}: ${d.portEnv} is ${env.get(d.portEnv)?.value}`);
    if (env.get('OTEL_SERVICE_NAME')?.value !== name)
      problems.push(`k8s ${name}: OTEL_SERVICE_NAME is ${env.get('OTEL_SERVICE_NAME')?.value}`);
    if (!container.ports?.some((p: { containerPort: number }) => p.containerPort === d.httpPort))
      problems.push(`k8s ${name}: containerPort ${d.httpPort} missing`);
    for (const [probe, path] of [
      ['readinessProbe', '/health/ready'],
      ['livenessProbe', '/health/live'],
    ] as const) {
      const get = container[probe]?.httpGet;
      if (get?.path !== path || portNumber(container, get?.port) !== d.httpPort)
        problems.push(`k8s ${name}: ${probe} is not ${path} on ${d.httpPort}`);
    }
    if (d.database) {
      const job = find(objects, 'Job', `${name}-migrate`);
      const jc = job?.spec.template.spec.containers[0];
      if (jc?.image !== container.image) problems.push(`k8s ${name}-migrate: image ${jc?.image}`);
      if (!containerEnv(objects, jc ?? {}).get('DATABASE_URL')?.secret)
        problems.push(`k8s ${name}-migrate: no DATABASE_URL Secret`);
    }
  }
  for (const name of frontendNames(c)) {
    const container = find(objects, 'Deployment', `frontend-${name}`)?.spec.template.spec.containers[0];
    if (container?.image !== `${frontendImage(c, name)}:${c.imageTag}`)
      problems.push(`k8s frontend-${name}: image ${container?.image}`);
    if (!container?.ports?.some((p: { containerPort: number }) => p.containerPort === c.frontends.port))
      problems.push(`k8s frontend-${name}: containerPort ${c.frontends.port} missing`);
  }
  return problems;
}
