import { ApiClient, createErrorReporter, SessionStore, watchPageErrors } from '@portico/kit/signin';
import { createRoot } from 'react-dom/client';
import { ShellRoot } from './app/ShellRoot.js';
import type { ShellRuntime } from './app/services.js';
import { pendingRuntimeConfig } from './config/pending.js';
import type { AreaStatus } from './remotes/registry.js';

async function start() {
  const config = await pendingRuntimeConfig;
  const session = new SessionStore();
  const apiUrl = config.apiUrl || window.location.origin;
  const client = new ApiClient({ baseUrl: apiUrl, session });
  const reportError = createErrorReporter({
    // As every call is addressed, a path prefix of the gateway's address included.
    endpoint: client.url('/client_errors'),
    token: () => session.accessToken,
  });
  watchPageErrors(reportError);
  // Remotes register from the runtime configuration and their descriptors load in the background, on
  // first use: the sign-in page never waits for them.
  let areas: Promise<AreaStatus[]> | undefined;
  const runtime: ShellRuntime = {
    config,
    session,
    client,
    reportError,
    get areas() {
      // A registry that failed to load (the network gone) is asked for again on the next use.
      areas ??= import('./remotes/registry.js')
        .then((m) => m.loadAreas(config.remotes))
        // An area that did not load is reported once, here, whichever page then shows its fallback.
        .then((statuses) =>
          statuses.map((area) =>
            area.error
              ? { ...area, reference: reportError({ kind: 'remote', area: area.name, error: area.error }) }
              : area,
          ),
        )
        .catch((err: unknown) => {
          areas = undefined;
          throw err;
        });
      return areas;
    },
  };
  // A first load of /signin renders the sign-in page alone (see ShellRoot), with or without a session
  // (signed in, /signin is the same page): whether there is one is not read before the first frame, as
  // a first read of localStorage waits for the browser to load the site's storage.
  const signInFirst = window.location.pathname === '/signin';
  if (!signInFirst) void runtime.areas;
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<ShellRoot runtime={runtime} signInFirst={signInFirst} />);
}

void start();
