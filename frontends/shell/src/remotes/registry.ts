import type { RemoteDescriptor, RemoteRouteModule } from '@portico/kit';
import { federation } from './federation.js';

export interface AreaStatus {
  name: string;
  descriptor?: RemoteDescriptor;
  error?: unknown;
  /** For an area that did not load: the reference of its error report (see the kit's error-reports). */
  reference?: Promise<string | undefined>;
}

const DESCRIPTOR_TIMEOUT_MS = 8000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not load within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * Registers every remote of the runtime configuration (name -> mf-manifest.json URL) and loads each
 * one's descriptor. A remote that is down, answers 404 or has a bad descriptor is reported with its
 * error and left out; the others load.
 */
export async function loadAreas(remotes: Record<string, string>): Promise<AreaStatus[]> {
  const mf = federation();
  mf.registerRemotes(
    Object.entries(remotes).map(([name, entry]) => ({ name, entry })),
    { force: true },
  );
  return Promise.all(
    Object.keys(remotes).map(async (name): Promise<AreaStatus> => {
      try {
        const mod = await withTimeout(
          mf.loadRemote<{ default: RemoteDescriptor }>(`${name}/descriptor`),
          DESCRIPTOR_TIMEOUT_MS,
          `${name}/descriptor`,
        );
        const descriptor = mod?.default;
        if (!descriptor || !Array.isArray(descriptor.routes)) throw new Error(`${name}: no descriptor`);
        return { name, descriptor };
      } catch (error) {
        console.error(`[portico] area ${name} is unavailable`, error);
        return { name, error };
      }
    }),
  );
}

/** Loads one route module of a remote ('./App' -> 'client/App'). */
export async function loadRouteModule(remote: string, module = './App'): Promise<RemoteRouteModule> {
  const mod = await federation().loadRemote<RemoteRouteModule>(`${remote}/${module.replace(/^\.\//, '')}`);
  if (!mod?.default) throw new Error(`${remote}/${module} has no default export`);
  return mod;
}
