import { ErrorBoundary, ErrorFallback, SignInThemeProvider } from '@portico/kit/signin';
import { lazy, Suspense, startTransition, useCallback, useState } from 'react';
import { SignInFirst } from './SignInFirst.js';
import type { ShellRuntime } from './services.js';

const App = lazy(() => import('./App.js').then((m) => ({ default: m.App })));

/**
 * The sign-in page alone on a first load of /signin (`signInFirst`), then, once signed in, the whole
 * shell (`App`). The switch is a transition: the form stays on screen until the shell's code is there.
 * Code that fails to load (the network gone, or a release that replaced the files this page still asks
 * for) shows the error fallback instead of an empty page.
 */
export function ShellRoot({ runtime, signInFirst }: { runtime: ShellRuntime; signInFirst: boolean }) {
  const [mode, setMode] = useState<'signin' | 'app'>(signInFirst ? 'signin' : 'app');
  const [primary, setPrimary] = useState<string | undefined>();
  const leave = useCallback(() => startTransition(() => setMode('app')), []);
  return (
    <ErrorBoundary
      onError={(error, info) =>
        runtime.reportError({ kind: 'render', error, componentStack: info.componentStack })
      }
      fallback={(reference) => (
        <SignInThemeProvider primary={primary}>
          <ErrorFallback reference={reference} />
        </SignInThemeProvider>
      )}
    >
      <Suspense fallback={null}>
        {mode === 'signin' ? (
          <SignInFirst runtime={runtime} primary={primary} setPrimary={setPrimary} onLeave={leave} />
        ) : (
          <App runtime={runtime} initialPrimary={primary} />
        )}
      </Suspense>
    </ErrorBoundary>
  );
}
