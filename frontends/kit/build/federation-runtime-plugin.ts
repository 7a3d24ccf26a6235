import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { SHARED_MISMATCH_EVENT_NAME, type SharedMismatch } from '../src/federation/mismatch.js';

declare global {
  interface Window {
    __PORTICO_SHARED_MISMATCHES__?: SharedMismatch[];
  }
}

/**
 * Reports a shared singleton loaded at another version than a build required: a console error and a
 * window event the shell turns into a visible warning. The singleton is still used (never duplicated).
 */
export default function sharedVersionReporter(): ModuleFederationRuntimePlugin {
  return {
    name: 'portico-shared-version-reporter',
    resolveShare(args) {
      const required = args.shareInfo?.shareConfig?.requiredVersion;
      const loaded = args.version;
      if (typeof required === 'string' && loaded && required.replace(/^[\^~=]/, '') !== loaded) {
        const mismatch: SharedMismatch = {
          pkgName: args.pkgName,
          required,
          loaded,
          from: String(args.shareInfo?.from ?? 'unknown'),
        };
        window.__PORTICO_SHARED_MISMATCHES__ ??= [];
        const list = window.__PORTICO_SHARED_MISMATCHES__;
        if (!list.some((m) => m.pkgName === mismatch.pkgName && m.from === mismatch.from)) {
          list.push(mismatch);
          console.error(
            `[portico] shared singleton ${mismatch.pkgName}: ${mismatch.from} requires ${required} but ${loaded} is loaded`,
          );
          window.dispatchEvent(new CustomEvent(SHARED_MISMATCH_EVENT_NAME, { detail: mismatch }));
        }
      }
      return args;
    },
  };
}
