import {
  type AccessContext,
  buildNavigation,
  Center,
  ErrorFallback,
  isAllowed,
  isApiError,
  Loader,
  putLinkSecret,
  type RemoteDescriptor,
  type RemoteRoute,
  Stack,
  specNav,
  Text,
  Title,
  takeLinkSecret,
  useCurrentFirm,
  useCurrentUser,
} from '@portico/kit';
import { type ReactNode, use, useEffect, useRef, useState } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { AdvisorLayout } from '../layouts/AdvisorLayout.js';
import { CenteredLayout } from '../layouts/CenteredLayout.js';
import { ClientLayout } from '../layouts/ClientLayout.js';
import { RemoteArea } from '../remotes/RemoteArea.js';
import type { AreaStatus } from '../remotes/registry.js';
import { useSession } from '../session/useSession.js';
import type { SignInEntryState } from '../signin/navigation.js';
import { RoutedSignInPage } from '../signin/RoutedSignInPage.js';
import { rememberFirm } from '../signin/remembered-firm.js';
import { AreasContext } from './areas-context.js';
import { homePath } from './home.js';
import { isPublicRoute, pattern } from './public-routes.js';
import { useShellRuntime } from './services.js';
import { useThemePrimary } from './theme-context.js';

interface MountedRoute extends RemoteRoute {
  remote: string;
}

function routesOf(areas: AreaStatus[]): MountedRoute[] {
  return areas.flatMap((a) =>
    a.descriptor ? a.descriptor.routes.map((r) => ({ ...r, remote: a.name })) : [],
  );
}

function areaElement(route: MountedRoute) {
  return <RemoteArea remote={route.remote} module={route.module} basePath={route.path} />;
}

/** Everything but /signin: public area routes, then the signed-in shell. */
export default function AreaRouter() {
  const runtime = useShellRuntime();
  const areas = use(runtime.areas);
  const descriptors = areas.flatMap((a) => (a.descriptor ? [a.descriptor] : []));
  const routes = routesOf(areas);
  const session = useSession(runtime.session);
  // Signed out on a page (with Sign out, here or in another tab, or the session ended): /signin without
  // that page as the redirect, which would take whoever signs in next on this browser to the page of the
  // one who left. Opening a page without a session keeps it as the redirect.
  const hadSession = useRef(false);
  if (session) hadSession.current = true;
  const location = useLocation();

  const publicRoutes = routes.filter(isPublicRoute);
  const failed = areas.filter((a) => a.error);
  // A visitor without a session on a page no loaded area knows (a drop-off link while its area is down)
  // gets the area's fallback: the sign-in form is of no use to them. Someone who just signed out here
  // still goes to /signin.
  const areaMayBeDown =
    failed.length > 0 &&
    !hadSession.current &&
    location.pathname !== '/' &&
    !routes.some((r) => matchPath(pattern(r.path), location.pathname));
  // An emailed confirmation (`email_token`) goes with the entry's fragment, never in `?redirect=`, where the
  // servers would log it on every load of /signin: a link sent before carries it in the query, from which
  // it is taken to the fragment (`#email_token=`, where the profile page reads it once signed in).
  const confirmation = takeLinkSecret('email_token', location);
  const pageHash =
    confirmation.secret === null
      ? location.hash
      : putLinkSecret('email_token', confirmation.secret, confirmation.hash);
  /** Where a visitor without a session sent to sign in goes back to (none from /, or once signed out). */
  const signInRedirect =
    location.pathname === '/' || hadSession.current ? null : location.pathname + confirmation.search;
  return (
    <AreasContext.Provider value={{ areas, descriptors }}>
      <Routes>
        {publicRoutes.map((r) => (
          <Route key={`${r.remote}${r.path}`} path={pattern(r.path)} element={areaElement(r)} />
        ))}
        <Route
          path="*"
          element={
            session ? (
              <SignedIn
                failed={failed}
                descriptors={descriptors}
                routes={routes.filter((r) => !publicRoutes.includes(r))}
              />
            ) : areaMayBeDown ? (
              <AreaDownFallback failed={failed} />
            ) : (
              <Navigate
                to={signInRedirect ? `/signin?redirect=${encodeURIComponent(signInRedirect)}` : '/signin'}
                replace
                // The page's fragment (an emailed link's #email_token=) goes with the entry, not in
                // ?redirect=, where the servers would log it; the sign-in page puts it back on the way there.
                state={
                  signInRedirect && pageHash
                    ? ({ redirectHash: pageHash } satisfies SignInEntryState)
                    : undefined
                }
              />
            )
          }
        />
      </Routes>
    </AreasContext.Provider>
  );
}

function SignedIn({
  failed,
  descriptors,
  routes,
}: {
  /** The areas that did not load. */
  failed: AreaStatus[];
  descriptors: RemoteDescriptor[];
  routes: MountedRoute[];
}) {
  const user = useCurrentUser();
  const firm = useCurrentFirm();
  const setPrimary = useThemePrimary();
  const primary = firm.data?.preferences?.theme?.primary;
  useEffect(() => {
    if (primary) setPrimary(primary);
  }, [primary, setPrimary]);
  const slug = firm.data?.slug;
  useEffect(() => {
    if (slug) rememberFirm(slug);
  }, [slug]);

  if (user.isPending || firm.isPending) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (user.isError || firm.isError || !user.data || !firm.data) {
    const failure = user.error ?? firm.error;
    return <ErrorFallback reference={isApiError(failure) ? failure.traceId : undefined} />;
  }

  const me = user.data;
  const ctx: AccessContext = {
    signedIn: true,
    isAdvisor: me.is_advisor,
    firmAccess: me.firm_access,
    preferences: firm.data.preferences ?? {},
  };
  if (me.set_password_required) {
    return (
      <Routes>
        <Route path="/set-sign-in-method" element={<RoutedSignInPage initial="set-sign-in-method" />} />
        <Route path="*" element={<Navigate to="/set-sign-in-method" replace />} />
      </Routes>
    );
  }
  const allowed = routes.filter((r) => isAllowed({ ...r, audience: r.audience ?? 'any' }, ctx));
  const byLayout = (layout: RemoteRoute['layout']) => allowed.filter((r) => r.layout === layout);
  const Layout = ctx.isAdvisor ? AdvisorLayout : ClientLayout;
  const home = homePath(descriptors, ctx);

  const mainRoutes = ctx.isAdvisor ? byLayout('advisor') : byLayout('client');
  const homeRoute = mainRoutes.find((r) => r.home);
  return (
    <Routes>
      {/* The chooser is for set_password_required only: for anyone else the server asks for the current
          password, which it has no field for. They change their method in Profile Settings. */}
      <Route path="/set-sign-in-method" element={<Navigate to={profilePath(ctx)} replace />} />
      <Route element={<CenteredLayout />}>
        {byLayout('centered').map((r) => (
          <Route key={`${r.remote}${r.path}`} path={pattern(r.path)} element={areaElement(r)} />
        ))}
      </Route>
      <Route element={<Layout user={me} firm={firm.data} ctx={ctx} />}>
        {mainRoutes
          .filter((r) => r.path !== '/')
          .map((r) => (
            <Route key={`${r.remote}${r.path}`} path={pattern(r.path)} element={areaElement(r)} />
          ))}
        {ctx.isAdvisor && !mainRoutes.some((r) => r.path === ENTITY_HOME) && (
          <Route
            path={ENTITY_HOME}
            element={<EntityHome descriptors={descriptors} ctx={ctx} failed={failed} />}
          />
        )}
        <Route
          index
          element={
            homeRoute ? (
              areaElement(homeRoute)
            ) : home && home !== '/' ? (
              <Navigate to={home} replace />
            ) : failed.length ? (
              <AreaDownFallback failed={failed} />
            ) : (
              <Welcome name={me.fname} />
            )
          }
        />
        <Route
          path="*"
          element={
            <Unmatched
              otherRoles={routes.filter((r) => !allowed.includes(r))}
              home={home && home !== '/' ? home : '/'}
              failed={failed}
            />
          }
        />
      </Route>
    </Routes>
  );
}

/** The user's Profile Settings (advisors) or Profile (clients), where the sign-in method is changed. */
const profilePath = (ctx: AccessContext) =>
  specNav(ctx.isAdvisor ? 'profile-settings' : 'client-profile').path;

/** An entity's own page: the entity navigation's Dashboard, which no area serves yet. */
const ENTITY_HOME = '/admin/:companyHash';

/**
 * Until an area serves /admin/{hash}, it opens the entity's first page that one does (its Documents).
 * With none, and an area down, that area's fallback: the entity's pages are likely its own.
 */
function EntityHome({
  descriptors,
  ctx,
  failed,
}: {
  descriptors: RemoteDescriptor[];
  ctx: AccessContext;
  failed: AreaStatus[];
}) {
  const { companyHash = '' } = useParams();
  const own = `/admin/${companyHash}/`;
  const first = buildNavigation(descriptors, 'entity', ctx, { companyHash }).find((item) =>
    item.path.startsWith(own),
  );
  if (first) return <Navigate to={first.path} replace />;
  return failed.length ? <AreaDownFallback failed={failed} /> : <NotFound />;
}

function Welcome({ name }: { name: string }) {
  return (
    <Stack p="xl">
      <Title order={1} size="h2">
        Welcome{name ? `, ${name}` : ''}
      </Title>
    </Stack>
  );
}

/**
 * A path nobody has is 'Page not found'; a path of another role's area (a redirect left by someone
 * else's session in this browser) sends this user to their own home instead.
 */
function Unmatched({
  otherRoles,
  home,
  failed,
}: {
  otherRoles: MountedRoute[];
  home: string;
  /** Areas that did not load: the path may be one of theirs. */
  failed: AreaStatus[];
}) {
  const { pathname } = useLocation();
  if (otherRoles.some((r) => r.path !== '/' && matchPath(pattern(r.path), pathname)))
    return <Navigate to={home} replace />;
  return failed.length ? <AreaDownFallback failed={failed} /> : <NotFound />;
}

/** The fallback of a page an area that did not load may serve, with that area's report's reference. */
function AreaDownFallback({ failed }: { failed: AreaStatus[] }) {
  const [reference, setReference] = useState<string>();
  useEffect(() => {
    let live = true;
    void failed[0]?.reference?.then((found) => {
      if (live) setReference(found);
    });
    return () => {
      live = false;
    };
  }, [failed]);
  return <ErrorFallback reference={reference} />;
}

function NotFound(): ReactNode {
  return (
    <Stack p="xl" data-testid="not-found">
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text>The page you are looking for does not exist.</Text>
    </Stack>
  );
}
