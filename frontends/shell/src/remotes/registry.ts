import type { NavItem, RemoteDescriptor, RemoteRoute, RemoteRouteModule } from '@portico/kit';
import { federation } from './federation.js';

export interface AreaStatus {
  name: string;
  descriptor?: RemoteDescriptor;
  error?: unknown;
  /** For an area that did not load: the reference of its error report (see the kit's error-reports). */
  reference?: Promise<string | undefined>;
}

const DESCRIPTOR_TIMEOUT_MS = 8000;

/** Every layout the shell has; a record so that a layout added to the kit must be added here. */
const LAYOUTS: Record<RemoteRoute['layout'], true> = {
  advisor: true,
  client: true,
  centered: true,
  public: true,
};

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * What is wrong with a descriptor, if anything: the router and the navigation read each route's path and
 * layout and each item's id, label, path and section while rendering, so one bad entry would take every
 * page down instead of its own area.
 */
export function descriptorProblem(descriptor: unknown): string | undefined {
  const { routes, nav } = (descriptor ?? {}) as { routes?: unknown; nav?: unknown };
  if (!Array.isArray(routes)) return 'no routes';
  for (const route of routes as Partial<Record<keyof RemoteRoute, unknown>>[]) {
    if (!isString(route?.path) || !route.path.startsWith('/'))
      return `a route without a path: ${JSON.stringify(route)}`;
    if (!isString(route.layout) || !Object.hasOwn(LAYOUTS, route.layout))
      return `route ${route.path} has no known layout`;
    if (route.module !== undefined && !isString(route.module)) return `route ${route.path} has a bad module`;
  }
  if (nav === undefined) return undefined;
  if (!Array.isArray(nav)) return 'nav is not a list';
  for (const item of nav as Partial<Record<keyof NavItem, unknown>>[])
    if (![item?.id, item?.label, item?.path, item?.section].every(isString))
      return `a navigation item without an id, label, path or section: ${JSON.stringify(item)}`;
  return undefined;
}

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
  for (const [name, entry] of Object.entries(remotes)) entries.set(name, entry);
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
        const problem = descriptor ? descriptorProblem(descriptor) : 'no descriptor';
        if (problem) throw new Error(`${name}: ${problem}`);
        return { name, descriptor };
      } catch (error) {
        console.error(`[portico] area ${name} is unavailable`, error);
        return { name, error };
      }
    }),
  );
}

/** Each remote's manifest URL, as registered. */
const entries = new Map<string, string>();

/** Re-registrations under way, by remote: areas of one remote failing together share one. */
const registeringAgain = new Map<string, Promise<void>>();

/**
 * Whether an error is a failure to fetch a remote's code (a chunk, its entry or its manifest), which a
 * new registration may mend, rather than a module that loaded and is wrong (no default export, threw).
 */
export function isLoadFailure(error: unknown): boolean {
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  return (
    name === 'ChunkLoadError' ||
    name === 'ScriptNetworkError' ||
    /Loading (css )?chunk|ScriptNetworkError|Failed to fetch|RUNTIME-00\d/i.test(String(message))
  );
}

/**
 * Loads one route module of a remote ('./App' -> 'client/App'). A module whose code fails to load is
 * tried once more with the remote registered again: a remote redeployed since the page loaded it still
 * has its old container, which asks for chunks the new release no longer has (404); registered again,
 * its manifest is read anew and the module comes from the new release, where before every later visit
 * of the area failed alike until the page was reloaded. `recovered` is told the first failure when the
 * second try works (a failure of both reaches the area's error boundary, which reports it).
 */
export async function loadRouteModule(
  remote: string,
  module = './App',
  recovered?: (error: unknown) => void,
): Promise<RemoteRouteModule> {
  const id = `${remote}/${module.replace(/^\.\//, '')}`;
  const load = async () => {
    const mod = await federation().loadRemote<RemoteRouteModule>(id);
    if (!mod?.default) throw new Error(`${remote}/${module} has no default export`);
    return mod;
  };
  try {
    return await load();
  } catch (error) {
    const entry = entries.get(remote);
    if (!entry || !isLoadFailure(error)) throw error;
    let again = registeringAgain.get(remote);
    if (!again) {
      again = Promise.resolve().then(() => {
        federation().registerRemotes([{ name: remote, entry }], { force: true });
      });
      registeringAgain.set(remote, again);
    }
    try {
      await again;
      const mod = await load();
      recovered?.(error);
      return mod;
    } finally {
      if (registeringAgain.get(remote) === again) registeringAgain.delete(remote);
    }
  }
}
