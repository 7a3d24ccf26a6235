import { Center, ErrorBoundary, Loader, type RemoteRouteProps } from '@portico/kit';
import { type ComponentType, lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { type ShellRuntime, useShellRuntime } from '../app/services.js';
import { loadRouteModule } from './registry.js';

const cache = new Map<string, ComponentType<RemoteRouteProps>>();
/** Errors of loading a remote's code, told apart from errors its screens throw once loaded. */
const loadFailures = new WeakSet<object>();

function lazyModule(
  remote: string,
  module: string,
  reportError: ShellRuntime['reportError'],
): ComponentType<RemoteRouteProps> {
  const key = `${remote}/${module}`;
  let component = cache.get(key);
  if (!component) {
    component = lazy(() =>
      // A load that failed once and then worked (a redeployed remote) is still reported: a bad deploy
      // or a CDN losing files shows in the log, not only in a console.
      loadRouteModule(
        remote,
        module,
        (error) => void reportError({ kind: 'remote', error, area: remote }),
      ).catch((error) => {
        cache.delete(key); // a later visit tries again
        if (error !== null && typeof error === 'object') loadFailures.add(error);
        throw error;
      }),
    );
    cache.set(key, component);
  }
  return component;
}

export interface RemoteAreaProps {
  remote: string;
  module?: string;
  basePath: string;
}

/**
 * One route of a remote, in its own error boundary and Suspense: a remote that is down, 404s or throws
 * on mount shows the error fallback here only, while navigation and the other areas keep working.
 */
export function RemoteArea({ remote, module = './App', basePath }: RemoteAreaProps) {
  const location = useLocation();
  const { reportError } = useShellRuntime();
  const Area = lazyModule(remote, module, reportError);
  return (
    <ErrorBoundary
      resetKey={location.pathname}
      onError={(error, info) =>
        reportError({
          // A WeakSet answers false for anything that is not an object.
          kind: loadFailures.has(error as object) ? 'remote' : 'render',
          error,
          area: remote,
          componentStack: info.componentStack,
        })
      }
    >
      <Suspense
        fallback={
          <Center p="xl">
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        <div data-area={remote}>
          <Area basePath={basePath} />
        </div>
      </Suspense>
    </ErrorBoundary>
  );
}
