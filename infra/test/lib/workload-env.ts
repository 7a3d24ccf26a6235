import { find, type K8sObject } from '../../packaging-tests/lib/kustomize.js';

type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { key: string; optional?: boolean } };
};

/**
 * The environment a rendered Deployment or Job gives its first container: the ConfigMaps it loads
 * (envFrom), its own values, and its Secrets' keys from `secrets`. A Secret it needs and `secrets`
 * lacks is an error (an optional one is left out), so a test runs with what the cluster would give.
 */
export function workloadEnvironment(
  objects: K8sObject[],
  kind: 'Deployment' | 'Job',
  name: string,
  secrets: Record<string, string>,
) {
  const container = find(objects, kind, name)?.spec.template.spec.containers[0];
  if (!container) throw new Error(`No ${kind} ${name} in the manifests`);
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? [])
    Object.assign(env, find(objects, 'ConfigMap', from.configMapRef.name)?.data ?? {});
  for (const entry of (container.env ?? []) as EnvVar[]) {
    const secret = entry.valueFrom?.secretKeyRef;
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (secret && secrets[secret.key] !== undefined) env[entry.name] = secrets[secret.key] as string;
    else if (!secret?.optional)
      throw new Error(`${name} reads ${entry.name}, which the test does not provide`);
  }
  return { container, env };
}
