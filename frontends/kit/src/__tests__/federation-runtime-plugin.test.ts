import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createInstance } from '@module-federation/enhanced/runtime';
import sharedVersionReporter from '../../build/federation-runtime-plugin.js';
import { SHARED_MISMATCH_EVENT_NAME, type SharedMismatch } from '../federation/mismatch.js';

/** A federation instance sharing `react` as a singleton at `version`, with the kit's runtime plugin. */
function instance(name: string, version: string, requiredVersion: string, lib: object) {
  return createInstance({
    name,
    remotes: [],
    shared: {
      react: {
        version,
        lib: () => lib,
        shareConfig: { singleton: true, requiredVersion, strictVersion: false, eager: false },
      },
    },
    shareStrategy: 'loaded-first',
    plugins: [sharedVersionReporter()],
  });
}

let instances = 0;
/**
 * As in the portal: the host loads its react (19.3.1) first, then a remote built against `requires`
 * joins the host's share scope. `load` asks for react as the remote does.
 */
function remoteLoadsReact(requires: string, remote = 'client') {
  instances += 1;
  const hostCopy = { copy: 'host' };
  const host = instance(`host-${instances}`, '19.3.1', '19.3.1', hostCopy);
  host.loadShareSync('react');
  const remoteInstance = instance(remote, requires.replace(/^[\^~=]/, ''), requires, { copy: 'remote' });
  const hostScope = host.shareScopeMap.default;
  if (!hostScope) throw new Error('the host shares nothing');
  remoteInstance.initShareScopeMap('default', hostScope);
  const load = () => remoteInstance.loadShareSync<object>('react')();
  return { hostCopy, load };
}

describe('the shared version reporter (federation runtime plugin)', () => {
  let errors: jest.SpiedFunction<typeof console.error>;
  let events: SharedMismatch[];
  const onMismatch = (event: Event) => events.push((event as CustomEvent<SharedMismatch>).detail);

  beforeEach(() => {
    delete window.__PORTICO_SHARED_MISMATCHES__;
    events = [];
    window.addEventListener(SHARED_MISMATCH_EVENT_NAME, onMismatch);
    errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    // The federation runtime's own warning of a singleton that does not satisfy a requirement.
    jest.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    window.removeEventListener(SHARED_MISMATCH_EVENT_NAME, onMismatch);
    jest.restoreAllMocks();
  });

  it("reports a remote built against another version once, and gives it the host's copy, not its own", () => {
    const { hostCopy, load } = remoteLoadsReact('19.2.0');
    expect(load()).toBe(hostCopy);
    // Asked again (another module of the remote): the same copy, reported no more.
    expect(load()).toBe(hostCopy);
    const mismatch = { pkgName: 'react', required: '19.2.0', loaded: '19.3.1', from: 'client' };
    expect(errors.mock.calls).toEqual([
      ['[portico] shared singleton react: client requires 19.2.0 but 19.3.1 is loaded'],
    ]);
    expect(events).toEqual([mismatch]);
    expect(window.__PORTICO_SHARED_MISMATCHES__).toEqual([mismatch]);
  });

  it('reports the same mismatch of another remote on its own', () => {
    remoteLoadsReact('19.2.0', 'client').load();
    remoteLoadsReact('^19.2.0', 'admin').load();
    expect(events.map((m) => [m.from, m.required])).toEqual([
      ['client', '19.2.0'],
      ['admin', '^19.2.0'],
    ]);
    expect(errors).toHaveBeenCalledTimes(2);
  });

  it('says nothing of a remote built against the loaded version, with or without a range prefix', () => {
    for (const requires of ['19.3.1', '^19.3.1', '~19.3.1']) {
      const { hostCopy, load } = remoteLoadsReact(requires);
      expect(load()).toBe(hostCopy);
    }
    expect(errors).not.toHaveBeenCalled();
    expect(events).toEqual([]);
    expect(window.__PORTICO_SHARED_MISMATCHES__).toBeUndefined();
  });
});
