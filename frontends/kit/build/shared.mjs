// The one allow-list of module-federation singletons, used by the shell and by every remote.
// Versions come from the kit's package.json, so bumping a shared library is one edit there.
// Everything not listed here is the remote's own code.
//
// The component library (Mantine) is shared through @portico/kit: the kit re-exports the components
// the portal uses, and remotes import them from '@portico/kit', never from '@mantine/*'. Sharing the
// library package itself would ship all of it (a shared module cannot be tree-shaken); sharing it
// through the kit keeps one copy, one theme context and only the parts in use.
import { readFileSync } from 'node:fs';

const kitPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const deps = kitPackage.dependencies;

/** Package name -> the exact version every build must agree on. */
export const SHARED_VERSIONS = {
  react: deps.react,
  'react/jsx-runtime': deps.react,
  'react-dom': deps['react-dom'],
  'react-dom/client': deps['react-dom'],
  'react-router': deps['react-router'],
  '@tanstack/react-query': deps['@tanstack/react-query'],
  '@portico/kit': kitPackage.version,
  // The sign-in part of the kit (the same modules), so /signin loads only that.
  '@portico/kit/signin': kitPackage.version,
};

/** Packages a remote must not depend on directly (they reach it through the kit). */
export const KIT_ONLY_PACKAGES = ['@mantine/core', '@mantine/hooks', '@mantine/notifications'];

/** The `shared` option of ModuleFederationPlugin. */
export function sharedSingletons() {
  const shared = {};
  for (const [name, version] of Object.entries(SHARED_VERSIONS)) {
    shared[name] = {
      singleton: true,
      requiredVersion: version,
      // A mismatch is reported by the runtime plugin (see federation-runtime-plugin), not thrown, so a
      // remote one patch behind still works while the warning tells the team to rebuild it.
      strictVersion: false,
      eager: false,
    };
  }
  return shared;
}
