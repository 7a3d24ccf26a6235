import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

/** The repository root (this file is infra/packaging-tests/lib/repo.ts). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const repoPath = (...parts: string[]): string => join(ROOT, ...parts);

export const readText = (rel: string): string => readFileSync(repoPath(rel), 'utf8');

export const readJson = <T>(rel: string): T => JSON.parse(readText(rel)) as T;

export const readYaml = <T>(rel: string): T => parse(readText(rel), { merge: true }) as T;

/** Every YAML document of a multi-document string, empty documents dropped; throws on a syntax error. */
export function parseYamlDocuments(text: string, source: string): unknown[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message}`);
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    return value == null ? [] : [value];
  });
}

/** Files under a folder of the repository, recursively, as paths relative to the root. */
export function listFiles(rel: string, keep: (path: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === '.git' || name === 'dist') continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (keep(full)) out.push(relative(ROOT, full));
    }
  };
  if (existsSync(repoPath(rel))) walk(repoPath(rel));
  return out.sort();
}

/** Paths (relative to the root) that git would not ignore, among the given ones. */
export function notIgnoredByGit(paths: string[]): string[] {
  if (paths.length === 0) return [];
  let ignored = '';
  try {
    ignored = execFileSync('git', ['check-ignore', '--stdin'], {
      cwd: ROOT,
      input: paths.join('\n'),
      encoding: 'utf8',
    });
  } catch (error) {
    // Exit status 1 means none of them is ignored.
    const status = (error as { status?: number }).status;
    if (status !== 1) throw error;
  }
  const ignoredSet = new Set(ignored.split('\n').filter(Boolean));
  return paths.filter((p) => !ignoredSet.has(p));
}

export interface Deployable {
  dir: string;
  image: string;
  httpPort: number;
  portEnv: string;
  env: string[];
  secretEnv: string[];
  optionalSecretEnv: string[];
  database: string | null;
  objectStore: boolean;
  internetEgress: boolean;
  drainSeconds: number;
}

export interface RuntimeContract {
  imageTag: string;
  namespace: string;
  commonEnv: string[];
  deployables: Record<string, Deployable>;
  plannedServices: Record<string, number | string>;
  frontends: { image: string; port: number; shell: string; remotes: string[] };
  streams: { name: string; subjects: string[]; productionReplicas: number }[];
  edge: { defaultBodyLimitMb: number };
}

export const contract = (): RuntimeContract =>
  readJson<RuntimeContract>('infra/packaging-tests/runtime-contract.json');

export const frontendNames = (c: RuntimeContract): string[] => [c.frontends.shell, ...c.frontends.remotes];

export const frontendImage = (c: RuntimeContract, name: string): string =>
  c.frontends.image.replace('<name>', name);

/** Every env name a deployable's main process gets. */
export const expectedEnv = (c: RuntimeContract, d: Deployable): string[] =>
  [...new Set([...c.commonEnv, ...d.env, ...d.secretEnv])].sort();

/** services/<name> folders that are deployable: a start script or a src/main.ts (platform is a library). */
export function deployableServiceDirs(): string[] {
  const dir = repoPath('services');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .filter((name) => {
      const pkgPath = join(dir, name, 'package.json');
      const hasStart =
        existsSync(pkgPath) &&
        Boolean(
          (JSON.parse(readFileSync(pkgPath, 'utf8')) as { scripts?: Record<string, string> }).scripts?.start,
        );
      return hasStart || existsSync(join(dir, name, 'src', 'main.ts'));
    })
    .map((name) => `services/${name}`)
    .sort();
}
