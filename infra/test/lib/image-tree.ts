import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The workspace folders of the root package.json ('services/*' read as each folder with a package.json). */
function workspaceFolders(root: string): string[] {
  const patterns = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, parent, d.name, 'package.json')))
      .map((d) => `${parent}/${d.name}`);
  });
}

export interface ImageTree {
  /** The app's folder in the tree, where the image starts it. */
  app: string;
  /** The built code the image ships: the `dist/` of proto, the platform and the app. */
  shipped: string[];
}

/**
 * The runtime tree of a Node deployable's image, as the prune stage of infra/docker/node-app.Dockerfile
 * makes it from the built checkout at `root`: the manifests and the lock file, `npm ci --omit=dev` of
 * the app's workspace (no scripts), then the built `dist/` and `migrations/` of proto, the platform
 * and the app. Only production dependencies are there, so an import of a development-only package on a
 * path the service runs fails as it would in the image.
 */
export async function imageRuntimeTree(root: string, appDir: string, into: string): Promise<ImageTree> {
  mkdirSync(into, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(into, file));
  for (const folder of workspaceFolders(root)) {
    mkdirSync(join(into, folder), { recursive: true });
    cpSync(join(root, folder, 'package.json'), join(into, folder, 'package.json'));
  }
  await run(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '-w', appDir],
    { cwd: into, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const shippedPackages = ['proto', 'services/platform', appDir];
  for (const folder of shippedPackages)
    for (const built of ['dist', 'migrations'])
      if (existsSync(join(root, folder, built)))
        cpSync(join(root, folder, built), join(into, folder, built), { recursive: true });
  return { app: join(into, appDir), shipped: shippedPackages.map((folder) => join(into, folder, 'dist')) };
}

const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"./][^'"]*)['"]/g;

/**
 * The packages that files under `folders` import (static, dynamic or required) and that do not resolve
 * from `appTree`, as the app would resolve them there. The test helpers (`testing/` folders) are left
 * out: they load development-only servers and never run in an image.
 */
export async function unresolvedImports(appTree: string, folders: string[]): Promise<string[]> {
  const specifiers = new Set<string>();
  for (const folder of folders)
    for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js') || file.split(/[\\/]/).includes('testing')) continue;
      for (const match of readFileSync(join(folder, file), 'utf8').matchAll(BARE_IMPORT))
        if (!match[1]?.startsWith('node:')) specifiers.add(match[1] as string);
    }
  // Resolved by node in the app's folder, as the app's own imports are.
  const script = `const out = [];
for (const s of ${JSON.stringify([...specifiers].sort())}) { try { import.meta.resolve(s); } catch { out.push(s); } }
console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: appTree });
  return JSON.parse(stdout) as string[];
}
