import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { parseYamlDocuments, repoPath } from './repo.js';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked by schema, then read loosely
  spec?: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  [key: string]: any;
}

export const OVERLAYS_DIR = 'k8s/overlays';

export const overlays = (): string[] => readdirSync(repoPath(OVERLAYS_DIR)).sort();

/** The kustomize that ships inside kubectl; components and the labels field need kustomize 5. */
export function kustomizeVersion(): string {
  let out: string;
  try {
    out = execFileSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(
      `kubectl is needed to render the manifests (kubectl kustomize): ${(error as Error).message}`,
    );
  }
  const version = (JSON.parse(out) as { kustomizeVersion?: string }).kustomizeVersion ?? '';
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
  if (major < 5)
    throw new Error(`kubectl's kustomize is ${version || 'unknown'}; version 5 or later is needed`);
  return version;
}

const cache = new Map<string, K8sObject[]>();

/** Renders a kustomization folder (relative to the repository root) with kubectl kustomize. */
export function render(dir: string): K8sObject[] {
  const hit = cache.get(dir);
  if (hit) return hit;
  const yaml = execFileSync('kubectl', ['kustomize', repoPath(dir)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const objects = parseYamlDocuments(yaml, dir) as K8sObject[];
  cache.set(dir, objects);
  return objects;
}

export const byKind = (objects: K8sObject[], kind: string): K8sObject[] =>
  objects.filter((o) => o.kind === kind);

export const find = (objects: K8sObject[], kind: string, name: string): K8sObject | undefined =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
