import type { K8sObject } from './kustomize.js';
import type { RuntimeContract } from './repo.js';

// biome-ignore lint/suspicious/noExplicitAny: pod specs are read loosely after schema validation
type PodSpec = any;
type Labels = Record<string, string>;

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod']);

export interface PodOwner {
  owner: K8sObject;
  spec: PodSpec;
  labels: Labels;
}

export function podOwners(objects: K8sObject[]): PodOwner[] {
  return objects
    .filter((o) => WORKLOADS.has(o.kind))
    .map((o) => {
      const template =
        o.kind === 'Pod'
          ? { spec: o.spec, metadata: o.metadata }
          : o.kind === 'CronJob'
            ? o.spec?.jobTemplate?.spec?.template
            : o.spec?.template;
      return { owner: o, spec: template?.spec ?? {}, labels: template?.metadata?.labels ?? {} };
    });
}

const id = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;

export const selectorMatches = (matchLabels: Labels | undefined, labels: Labels): boolean =>
  matchLabels !== undefined &&
  Object.keys(matchLabels).length > 0 &&
  Object.entries(matchLabels).every(([k, v]) => labels[k] === v);

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Kubernetes label-selector semantics, expressions included; an empty selector selects every pod. */
export function labelSelectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (selector === undefined) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const value = labels[key];
    if (operator === 'In') return value !== undefined && values.includes(value);
    if (operator === 'NotIn') return value === undefined || !values.includes(value);
    if (operator === 'Exists') return value !== undefined;
    if (operator === 'DoesNotExist') return value === undefined;
    return false;
  });
  return byLabel && byExpression;
}

/** Why an image reference is not pinned, or undefined when it is (a digest, or an exact version tag). */
export function imagePinProblem(image: unknown): string | undefined {
  if (typeof image !== 'string' || image === '') return 'no image';
  if (image.includes('${')) return `${image}: the tag comes from a variable`;
  if (/@sha256:[a-f0-9]{64}$/.test(image)) return undefined;
  const colon = image.indexOf(':', image.lastIndexOf('/') + 1);
  if (colon < 0) return `${image}: no tag`;
  const tag = image.slice(colon + 1);
  if (/^(latest|stable|mainline|edge|main|master|current|lts)$/i.test(tag)) return `${image}: floating tag`;
  if (!/\d+\.\d+/.test(tag) && !/^RELEASE\.\d{4}-\d{2}-\d{2}T/.test(tag))
    return `${image}: tag is not an exact version`;
  return undefined;
}

export function allImages(objects: K8sObject[]): { where: string; image: unknown }[] {
  const out: { where: string; image: unknown }[] = [];
  for (const { owner, spec } of podOwners(objects)) {
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])])
      out.push({ where: `${id(owner)} container ${c.name}`, image: c.image });
  }
  for (const o of objects.filter(
    (x) => x.kind === 'Cluster' && x.apiVersion.startsWith('postgresql.cnpg.io/'),
  ))
    out.push({ where: id(o), image: o.spec?.imageName });
  return out;
}

export function imageProblems(objects: K8sObject[]): string[] {
  return allImages(objects).flatMap(({ where, image }) => {
    const problem = imagePinProblem(image);
    return problem ? [`${where}: ${problem}`] : [];
  });
}

/**
 * Every Deployment: probes, requests and limits on each container, an HPA and a PDB that select it,
 * pod anti-affinity on its own pods, a grace period longer than the drain time, and a locked-down pod.
 */
export function deploymentProblems(
  objects: K8sObject[],
  drainSecondsOf: (deployment: string) => number,
): string[] {
  const problems: string[] = [];
  const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  for (const { owner, spec, labels } of podOwners(objects).filter((p) => p.owner.kind === 'Deployment')) {
    const where = id(owner);
    if (!selectorMatches(owner.spec?.selector?.matchLabels, labels))
      problems.push(`${where}: selector does not match its pods`);
    for (const c of spec.containers ?? []) {
      const cw = `${where} container ${c.name}`;
      if (!c.readinessProbe) problems.push(`${cw}: no readinessProbe`);
      if (!c.livenessProbe) problems.push(`${cw}: no livenessProbe`);
      for (const kind of ['requests', 'limits'])
        for (const res of ['cpu', 'memory'])
          if (!c.resources?.[kind]?.[res]) problems.push(`${cw}: no ${kind}.${res}`);
      const sc = c.securityContext ?? {};
      if (sc.allowPrivilegeEscalation !== false)
        problems.push(`${cw}: allowPrivilegeEscalation is not false`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${cw}: root filesystem is writable`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${cw}: capabilities not dropped`);
      if (sc.runAsNonRoot !== true && spec.securityContext?.runAsNonRoot !== true)
        problems.push(`${cw}: may run as root`);
      const uid = sc.runAsUser ?? spec.securityContext?.runAsUser;
      if (uid === 0) problems.push(`${cw}: runs as uid 0`);
    }
    const drainSeconds = drainSecondsOf(owner.metadata?.name ?? '');
    if (!((spec.terminationGracePeriodSeconds ?? 30) > drainSeconds))
      problems.push(`${where}: terminationGracePeriodSeconds must exceed the ${drainSeconds} s drain`);
    const anti = spec.affinity?.podAntiAffinity;
    const terms = [
      ...(anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: PodSpec) => t.podAffinityTerm),
    ];
    if (!terms.some((t: PodSpec) => t?.topologyKey && selectorMatches(t.labelSelector?.matchLabels, labels)))
      problems.push(`${where}: no pod anti-affinity on its own pods`);
    const hpa = hpas.find(
      (h) =>
        h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === owner.metadata.name,
    );
    if (!hpa) problems.push(`${where}: no HorizontalPodAutoscaler`);
    else {
      const min = hpa.spec.minReplicas ?? 1;
      if (!(hpa.spec.maxReplicas >= min)) problems.push(`${id(hpa)}: maxReplicas below minReplicas`);
      const cpu = (hpa.spec.metrics ?? []).some(
        (m: PodSpec) => m.type === 'Resource' && m.resource?.name === 'cpu',
      );
      if (!cpu) problems.push(`${id(hpa)}: does not scale on CPU`);
    }
    if (!pdbs.some((p) => selectorMatches(p.spec?.selector?.matchLabels, labels)))
      problems.push(`${where}: no PodDisruptionBudget`);
  }
  return problems;
}

/** Services select existing pods; HPAs target existing Deployments; referenced ConfigMaps and ServiceAccounts exist. */
export function referenceProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const owners = podOwners(objects);
  const names = (kind: string) => new Set(objects.filter((o) => o.kind === kind).map((o) => o.metadata.name));
  const configMaps = names('ConfigMap');
  const accounts = names('ServiceAccount');
  const deployments = names('Deployment');
  for (const svc of objects.filter((o) => o.kind === 'Service' && o.spec?.selector)) {
    if (!owners.some((p) => selectorMatches(svc.spec.selector, p.labels)))
      problems.push(`${id(svc)}: selects no pods`);
  }
  for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler'))
    if (!deployments.has(h.spec?.scaleTargetRef?.name))
      problems.push(`${id(h)}: targets a missing Deployment`);
  for (const { owner, spec } of owners) {
    const where = id(owner);
    if (spec.serviceAccountName && !accounts.has(spec.serviceAccountName))
      problems.push(`${where}: ServiceAccount ${spec.serviceAccountName} is missing`);
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      for (const from of c.envFrom ?? [])
        if (from.configMapRef && !configMaps.has(from.configMapRef.name))
          problems.push(`${where}: ConfigMap ${from.configMapRef.name} is missing`);
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.configMapKeyRef;
        if (ref && !configMaps.has(ref.name)) problems.push(`${where}: ConfigMap ${ref.name} is missing`);
      }
    }
    for (const v of spec.volumes ?? [])
      if (v.configMap && !configMaps.has(v.configMap.name))
        problems.push(`${where}: ConfigMap ${v.configMap.name} is missing`);
  }
  return problems;
}

/** Namespaced objects all land in the project's namespace. */
export function namespaceProblems(objects: K8sObject[], namespace: string): string[] {
  return objects
    .filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace)
    .map((o) => `${id(o)}: namespace ${o.metadata.namespace ?? '(none)'}`);
}

/** Secrets are referenced, never rendered: no Secret object may come out of an overlay. */
export function renderedSecretProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'Secret')
    .map((o) => `${id(o)}: Secret rendered from the repository`);
}

export interface SecretRef {
  where: string;
  name: string;
  key?: string;
}

/** Every Secret (and key, where one is named) the rendered objects refer to. */
export function secretRefs(objects: K8sObject[]): SecretRef[] {
  const refs: SecretRef[] = [];
  for (const { owner, spec } of podOwners(objects)) {
    const where = id(owner);
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) refs.push({ where, name: ref.name, key: ref.key });
      }
      for (const from of c.envFrom ?? []) if (from.secretRef) refs.push({ where, name: from.secretRef.name });
    }
    for (const v of spec.volumes ?? []) if (v.secret) refs.push({ where, name: v.secret.secretName });
  }
  for (const o of objects.filter(
    (x) => x.apiVersion.startsWith('postgresql.cnpg.io/') && x.kind === 'Cluster',
  )) {
    for (const r of o.spec?.managed?.roles ?? [])
      if (r.passwordSecret) refs.push({ where: id(o), name: r.passwordSecret.name, key: 'password' });
    const creds = o.spec?.backup?.barmanObjectStore?.s3Credentials ?? {};
    for (const ref of Object.values(creds) as { name: string; key: string }[])
      refs.push({ where: id(o), name: ref.name, key: ref.key });
  }
  return refs;
}

// biome-ignore lint/suspicious/noExplicitAny: NetworkPolicy rules
type Rule = any;

/**
 * Network reach of each deployable: it sits behind the default deny, and the egress policies that select
 * its pods are only those its contract allows (NATS; its database; the object store; internet for mail/SMS).
 */
export function networkProblems(objects: K8sObject[], c: RuntimeContract): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const deny = policies.find(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((t) => (p.spec?.policyTypes ?? []).includes(t)) &&
      !p.spec?.ingress?.length &&
      !p.spec?.egress?.length,
  );
  if (!deny) problems.push('no default-deny NetworkPolicy for the namespace');
  const egressTargets = (p: K8sObject): string[] =>
    (p.spec?.egress ?? []).flatMap((rule: Rule) => {
      const ports = (rule.ports ?? []).map((x: Rule) => x.port).join(',');
      if (!rule.to || rule.to.length === 0) return [`any:${ports}`];
      return rule.to.map((t: Rule) => {
        if (t.ipBlock) return `ip:${ports}`;
        const l = t.podSelector?.matchLabels ?? {};
        if (t.namespaceSelector)
          return `ns(${JSON.stringify(t.namespaceSelector.matchLabels ?? {})}):${ports}`;
        const expressions = (t.podSelector?.matchExpressions ?? []).map((e: Rule) =>
          `${e.key} ${e.operator} ${(e.values ?? []).join('|')}`.trim(),
        );
        const named = l['app.kubernetes.io/name'] ?? l['cnpg.io/cluster'];
        return `pod(${named ?? (expressions.length > 0 ? expressions.join(', ') : JSON.stringify(l))}):${ports}`;
      });
    });
  for (const [name, d] of Object.entries(c.deployables)) {
    const owner = podOwners(objects).find(
      (p) => p.owner.kind === 'Deployment' && p.owner.metadata.name === name,
    );
    if (!owner) continue;
    const targets = policies.filter((p) => selects(p, owner.labels)).flatMap(egressTargets);
    const allowed = (t: string) =>
      t === 'ns({"kubernetes.io/metadata.name":"kube-system"}):53,53' ||
      t.startsWith('pod(otel-collector):') ||
      t === 'pod(nats):4222' ||
      (d.database !== null && t.endsWith(':5432') && (t.startsWith('pod(') || t.startsWith('ip:'))) ||
      (d.objectStore && (t === 'pod(object-store):9000' || t === 'ip:443')) ||
      (d.internetEgress && t === 'ip:443,465,587');
    for (const t of targets) if (!allowed(t)) problems.push(`${name}: egress to ${t} is not in its contract`);
    if (!targets.includes('pod(nats):4222')) problems.push(`${name}: cannot reach NATS`);
    if (d.database !== null && !targets.some((t) => t.endsWith(':5432')))
      problems.push(`${name}: cannot reach its database`);
    if (d.objectStore && !targets.some((t) => t === 'pod(object-store):9000' || t === 'ip:443'))
      problems.push(`${name}: cannot reach the object store`);
  }
  return problems;
}

const policyTypes = (p: K8sObject): string[] =>
  p.spec?.policyTypes ?? ['Ingress', ...(p.spec?.egress ? ['Egress'] : [])];

/** NetworkPolicies whose podSelector selects pods with these labels, by name. */
export const policiesSelecting = (objects: K8sObject[], labels: Labels): string[] =>
  objects
    .filter((o) => o.kind === 'NetworkPolicy' && selects(o, labels))
    .map((o) => o.metadata.name)
    .sort();

/** Whether a NetworkPolicy applies to pods with these labels. */
const selects = (p: K8sObject, labels: Labels) => labelSelectorMatches(p.spec?.podSelector ?? {}, labels);

/** One direction of a connection: the policies that isolate `self` for `type` let `peer` through on `port`. */
function admits(policies: K8sObject[], type: 'Ingress' | 'Egress', self: Labels, peer: Labels, port: number) {
  const isolating = policies.filter((p) => policyTypes(p).includes(type) && selects(p, self));
  if (isolating.length === 0) return true;
  const [rulesKey, peersKey] = type === 'Ingress' ? ['ingress', 'from'] : ['egress', 'to'];
  return isolating.some((p) =>
    (p.spec?.[rulesKey] ?? []).some(
      (rule: Rule) =>
        (!rule.ports?.length || rule.ports.some((x: Rule) => x.port === undefined || x.port === port)) &&
        (!rule[peersKey]?.length ||
          rule[peersKey].some(
            // A pod of this namespace: a podSelector alone (namespace and address peers are other places).
            (x: Rule) =>
              x.podSelector &&
              !x.namespaceSelector &&
              !x.ipBlock &&
              labelSelectorMatches(x.podSelector, peer),
          )),
    ),
  );
}

/** Whether a pod labelled `from` may connect to a pod labelled `to` on `port`, both in the namespace. */
export function connectionAllowed(objects: K8sObject[], from: Labels, to: Labels, port: number): boolean {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  return admits(policies, 'Egress', from, to, port) && admits(policies, 'Ingress', to, from, port);
}

/** Bytes of a Kubernetes quantity (512Mi, 1Gi, 1G, 536870912); undefined when it is not one. */
export function quantityBytes(quantity: unknown): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity ?? ''));
  if (!m) return undefined;
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * (m[2] ? unit[m[2] as keyof typeof unit] : 1);
}

const V8_OLD_SPACE_FLAG = /--(?:initial|max)[-_]old[-_]space[-_]size[= ](\d+)/g;

/**
 * V8 sizes its heap's ceiling from the container's memory (about half of it): a first old-generation
 * budget (in MiB) near that ceiling leaves no full collection before it, and the kernel kills the pod
 * first. A limit of four times the flag keeps the ceiling at twice the budget, with room for the rest.
 */
export function heapFlagProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  for (const { owner, spec } of podOwners(objects)) {
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      const nodeOptions = [
        ...(c.envFrom ?? []).map(
          (f: Rule) => configMaps.find((m) => m.metadata.name === f.configMapRef?.name)?.data?.NODE_OPTIONS,
        ),
        ...(c.env ?? []).filter((e: Rule) => e.name === 'NODE_OPTIONS').map((e: Rule) => e.value),
      ];
      const text = [...(c.command ?? []), ...(c.args ?? []), ...nodeOptions].filter(Boolean).join(' ');
      const mib = Math.max(0, ...[...text.matchAll(V8_OLD_SPACE_FLAG)].map((m) => Number(m[1])));
      if (mib === 0) continue;
      const limit = c.resources?.limits?.memory;
      if (!((quantityBytes(limit) ?? 0) >= 4 * mib * 2 ** 20))
        problems.push(
          `${id(owner)} container ${c.name}: memory limit ${limit ?? 'none'} is under 4 x its V8 old space (${mib} MiB)`,
        );
    }
  }
  return problems;
}

/**
 * CloudNativePG's PodDisruptionBudget for a single instance allows no eviction, so it blocks every node
 * drain; such a cluster must turn it off.
 */
export function singleInstancePdbProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('postgresql.cnpg.io/'))
    .filter((o) => o.spec?.instances === 1 && o.spec?.enablePDB !== false)
    .map((o) => `${id(o)}: one instance with enablePDB (the default), which blocks node drains`);
}

/** Keys in *.env.example files that name something but hold nothing secret. */
const NON_SECRET_KEYS = new Set(['username', 'MINIO_ROOT_USER']);

/** Secret material in a repository file: Secret objects with data, private keys, filled-in example env files. */
export function secretTextProblems(path: string, text: string): string[] {
  const problems: string[] = [];
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----(\s|\\n)+[A-Za-z0-9+/=]{16,}/.test(text))
    problems.push(`${path}: contains a private key`);
  if (/\.ya?ml$/.test(path)) {
    for (const doc of text.split(/^---\s*$/m)) {
      if (/^kind:\s*Secret\s*$/m.test(doc) && /^(data|stringData):\s*\S*\s*$/m.test(doc))
        problems.push(`${path}: a Secret with values`);
    }
  }
  if (/\.env\.example$/.test(path)) {
    for (const line of text.split('\n')) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
      if (m && m[2]?.trim() !== '' && !NON_SECRET_KEYS.has(m[1] ?? ''))
        problems.push(`${path}: ${m[1]} has a value`);
    }
  }
  return problems;
}
