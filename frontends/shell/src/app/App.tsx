import '@portico/kit/styles.css';
import {
  ApiProvider,
  Center,
  forgetSignedInQueries,
  GlobalNotice,
  KitProvider,
  Loader,
  type SharedMismatch,
  ShellContext,
  type ShellServices,
  shouldRetryRead,
} from '@portico/kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { forgetRecentEntities } from '../layouts/recent-entities.js';
import { Realtime } from '../realtime/Realtime.js';
import { RoutedSignInPage } from '../signin/RoutedSignInPage.js';
import { SignedOutWatcher } from './SignedOutWatcher.js';
import { type ShellRuntime, ShellRuntimeContext } from './services.js';
import { earlierSharedMismatches, onSharedMismatch, reportSharedMismatches } from './shared-mismatches.js';
import { ThemePrimaryContext } from './theme-context.js';

// Everything past sign-in (layouts, areas, navigation) loads on demand, keeping /signin small.
const AreaRouter = lazy(() => import('./AreaRouter.js'));

/**
 * A shared singleton at another version than a build asked for: visible in development builds. Every
 * build also sends it to the error reports (see `App`).
 */
function SharedMismatchWarning() {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (process.env.NODE_ENV === 'production') return;
    const show = (d: SharedMismatch) =>
      setText(
        `Shared ${d.pkgName}: ${d.from} requires ${d.required}, ${d.loaded} is loaded. Rebuild that remote.`,
      );
    // Remotes may have loaded before the shell did (in the background of the sign-in page).
    const earlier = earlierSharedMismatches().at(-1);
    if (earlier) show(earlier);
    return onSharedMismatch(show);
  }, []);
  return text ? <GlobalNotice text={text} color="orange" testId="shared-mismatch" /> : null;
}

/** The whole shell: router, data-fetching client, kit, realtime, areas. */
export function App({ runtime, initialPrimary }: { runtime: ShellRuntime; initialPrimary?: string }) {
  const [primary, setPrimary] = useState<string | undefined>(initialPrimary);
  const queryClient = useMemo(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: shouldRetryRead, refetchOnWindowFocus: false } },
      }),
    [],
  );
  const shell = useMemo<ShellServices>(
    () => ({
      apiUrl: runtime.config.apiUrl,
      firmSlug: runtime.config.firmSlug,
      signOut: async () => {
        // Signed out here and in the other tabs first, then the server told: its revocation closes this
        // session's sockets, and a tab still signed in when that arrives would take it for a forced sign-out.
        const refresh = runtime.session.get()?.refresh_token;
        runtime.session.signOut('user');
        forgetSignedInQueries(queryClient);
        if (refresh) {
          await runtime.client
            .post('/sessions/sign_out', { refresh_token: refresh }, { auth: false })
            .catch(() => {});
        }
      },
    }),
    [runtime, queryClient],
  );
  useEffect(
    () =>
      runtime.session.onSignedOut(() => {
        forgetSignedInQueries(queryClient);
        forgetRecentEntities();
      }),
    [runtime, queryClient],
  );
  // Someone else signed in in another tab: this tab's pages and caches are the previous user's, so it
  // starts again as the new user, at their home. After the other listeners of the change (a microtask
  // later): leaving fires `beforeunload` at once, and an upload still listening would ask 'Leave site?'.
  useEffect(
    () => runtime.session.onUserChanged(() => queueMicrotask(() => window.location.replace('/'))),
    [runtime],
  );
  // Every build, production included: the operators learn which remote to rebuild.
  useEffect(() => reportSharedMismatches(runtime.reportError), [runtime]);

  return (
    <ShellRuntimeContext.Provider value={runtime}>
      <ShellContext.Provider value={shell}>
        <QueryClientProvider client={queryClient}>
          <ApiProvider client={runtime.client}>
            <ThemePrimaryContext.Provider value={setPrimary}>
              <KitProvider primary={primary}>
                <BrowserRouter>
                  <SignedOutWatcher session={runtime.session} areas={runtime.areas} />
                  <SharedMismatchWarning />
                  <Realtime />
                  <Routes>
                    <Route path="/signin" element={<RoutedSignInPage />} />
                    <Route
                      path="*"
                      element={
                        // The areas' descriptors may take a few seconds (a remote's host slow to
                        // answer): a loader meanwhile, not a white page.
                        <Suspense
                          fallback={
                            <Center mih="60vh">
                              <Loader aria-label="Loading" />
                            </Center>
                          }
                        >
                          <AreaRouter />
                        </Suspense>
                      }
                    />
                  </Routes>
                </BrowserRouter>
              </KitProvider>
            </ThemePrimaryContext.Provider>
          </ApiProvider>
        </QueryClientProvider>
      </ShellContext.Provider>
    </ShellRuntimeContext.Provider>
  );
}
