import type { K8sObject } from './kustomize.js';

type Validatable = { validate(): void };
type ModelClass = new (data: unknown) => Validatable;

/** Models from the kubernetes-models package: apps/v1 Deployment -> kubernetes-models/apps/v1/Deployment. */
async function loadModel(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  if (!/^[a-z0-9.]+(\/[a-z0-9]+)?$/.test(apiVersion) || !/^[A-Za-z]+$/.test(kind)) return undefined;
  try {
    const mod = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, ModelClass>;
    return mod[kind];
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Custom resources have no schema in kubernetes-models; these are the fields the CloudNativePG operator
 * requires or that this project relies on, checked by hand.
 */
const crdRules: Record<string, (o: K8sObject) => string[]> = {
  'postgresql.cnpg.io/v1/Cluster': (o) => {
    const errors: string[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: read loosely, checked field by field
    const spec: any = o.spec;
    if (typeof spec !== 'object' || spec === null) return ['spec is required'];
    if (!Number.isInteger(spec.instances) || spec.instances < 1)
      errors.push('spec.instances must be an integer >= 1');
    if (!isObject(spec.storage) || typeof spec.storage.size !== 'string')
      errors.push('spec.storage.size is required');
    if (spec.imageName !== undefined && typeof spec.imageName !== 'string')
      errors.push('spec.imageName must be a string');
    const roles = spec.managed?.roles;
    if (roles !== undefined) {
      if (!Array.isArray(roles)) errors.push('spec.managed.roles must be a list');
      else
        roles.forEach((r: unknown, i: number) => {
          if (!isObject(r) || typeof r.name !== 'string')
            errors.push(`spec.managed.roles[${i}].name is required`);
          else if (r.login === true && !isObject(r.passwordSecret))
            errors.push(`spec.managed.roles[${i}] logs in but has no passwordSecret`);
          if (isObject(r) && r.ensure !== undefined && !['present', 'absent'].includes(String(r.ensure)))
            errors.push(`spec.managed.roles[${i}].ensure must be present or absent`);
        });
    }
    const store = spec.backup?.barmanObjectStore;
    if (store !== undefined && (!isObject(store) || typeof store.destinationPath !== 'string'))
      errors.push('spec.backup.barmanObjectStore.destinationPath is required');
    return errors;
  },
  'postgresql.cnpg.io/v1/Database': (o) => {
    const errors: string[] = [];
    const spec = o.spec;
    if (!isObject(spec)) return ['spec is required'];
    for (const key of ['name', 'owner'])
      if (typeof spec[key] !== 'string') errors.push(`spec.${key} is required`);
    if (!isObject(spec.cluster) || typeof spec.cluster.name !== 'string')
      errors.push('spec.cluster.name is required');
    return errors;
  },
  'postgresql.cnpg.io/v1/ScheduledBackup': (o) => {
    const errors: string[] = [];
    const spec = o.spec;
    if (!isObject(spec)) return ['spec is required'];
    if (typeof spec.schedule !== 'string' || spec.schedule.trim().split(/\s+/).length !== 6)
      errors.push('spec.schedule must be a six-field cron expression (seconds first)');
    if (!isObject(spec.cluster) || typeof spec.cluster.name !== 'string')
      errors.push('spec.cluster.name is required');
    return errors;
  },
};

/** Schema errors of one object (empty when valid). Unknown kinds are errors: nothing goes unchecked. */
export async function validateObject(o: K8sObject): Promise<string[]> {
  const id = `${o.apiVersion}/${o.kind}`;
  const errors: string[] = [];
  if (!isObject(o.metadata) || typeof o.metadata.name !== 'string' || o.metadata.name === '')
    errors.push('metadata.name is required');
  const rule = crdRules[id];
  if (rule) return [...errors, ...rule(o)];
  const Model = await loadModel(o.apiVersion, o.kind);
  if (!Model) return [...errors, `no schema for ${id}`];
  try {
    new Model(o).validate();
  } catch (error) {
    errors.push((error as Error).message);
  }
  return errors;
}

/** Cross-object checks for the CloudNativePG resources: databases name a managed role of their cluster. */
export function cnpgConsistency(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  const clusters = new Map(
    objects
      .filter((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('postgresql.cnpg.io/'))
      .map((c) => [
        c.metadata.name,
        new Set<string>((c.spec?.managed?.roles ?? []).map((r: { name: string }) => r.name)),
      ]),
  );
  for (const db of objects.filter(
    (o) => o.kind === 'Database' && o.apiVersion.startsWith('postgresql.cnpg.io/'),
  )) {
    const roles = clusters.get(db.spec?.cluster?.name);
    if (!roles) errors.push(`Database ${db.metadata.name}: no Cluster ${db.spec?.cluster?.name}`);
    else if (!roles.has(db.spec?.owner))
      errors.push(`Database ${db.metadata.name}: owner ${db.spec?.owner} is not a managed role`);
  }
  return errors;
}
