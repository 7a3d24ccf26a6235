import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { listFiles, notIgnoredByGit, parseYamlDocuments, repoPath } from './repo.js';

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

/** The folders kustomize reads: the manifests, and Kong's declarative configuration they mount. */
const MANIFEST_DIRS = ['k8s', 'gateway/kong'];

/**
 * Files an operator writes beside their committed `.example` (gitignored, as portal.env): the tests render
 * with these fixtures in their place, whatever this checkout holds.
 */
export const OPERATOR_FILE_FIXTURES: Record<string, string> = {
  'portal.env': 'infra/packaging-tests/fixtures/portal.env',
};

/**
 * A copy of the manifests as the repository holds them (the files git does not ignore, so no operator's
 * values or secrets), in a temporary folder removed when the process exits; with `operatorFiles`, each
 * operator file is the test fixture, written beside its `.example`.
 */
export function stageManifests(options: { operatorFiles: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'portico-manifests-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  for (const path of notIgnoredByGit(MANIFEST_DIRS.flatMap((dir) => listFiles(dir)))) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(repoPath(path), join(root, path));
    const operatorFile = basename(path).replace(/\.example$/, '');
    const fixture = OPERATOR_FILE_FIXTURES[operatorFile];
    if (options.operatorFiles && path.endsWith('.example') && fixture)
      copyFileSync(repoPath(fixture), join(root, dirname(path), operatorFile));
  }
  return root;
}

/** Renders a kustomization folder (relative to a copy made by stageManifests) with kubectl kustomize. */
export function renderStaged(root: string, dir: string): string {
  return execFileSync('kubectl', ['kustomize', join(root, dir)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let staged: string | undefined;
const cache = new Map<string, K8sObject[]>();

/**
 * Renders a kustomization folder (relative to the repository root) with kubectl kustomize, from a copy
 * of the manifests with the operator files' test fixtures (stageManifests).
 */
export function render(dir: string): K8sObject[] {
  const hit = cache.get(dir);
  if (hit) return hit;
  staged ??= stageManifests({ operatorFiles: true });
  const objects = parseYamlDocuments(renderStaged(staged, dir), dir) as K8sObject[];
  cache.set(dir, objects);
  return objects;
}

export const byKind = (objects: K8sObject[], kind: string): K8sObject[] =>
  objects.filter((o) => o.kind === kind);

export const find = (objects: K8sObject[], kind: string, name: string): K8sObject | undefined =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
