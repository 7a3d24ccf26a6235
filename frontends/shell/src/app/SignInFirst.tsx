import { ApiProvider, SignInThemeProvider } from '@portico/kit/signin';
import { useEffect } from 'react';
import { loadLaterSteps } from '../signin/first-steps.js';
import { SignInNavigationContext, useWindowNavigation } from '../signin/navigation.js';
import { SignInPage } from '../signin/SignInPage.js';
import { type ShellRuntime, ShellRuntimeContext } from './services.js';
import { ThemePrimaryContext } from './theme-context.js';

export interface SignInFirstProps {
  runtime: ShellRuntime;
  primary: string | undefined;
  setPrimary: (primary: string | undefined) => void;
  /** The user signed in: the URL is already the landing path; the signed-in shell takes over. */
  onLeave: () => void;
}

/**
 * While idle on the form, the sign-in's later steps, the signed-in shell and the areas' descriptors load
 * in the background. Code that fails to load here is asked for again when it is needed (and then shows
 * the error fallback if it fails again), so a failure here is not an error of its own.
 */
function prefetchSignedIn(runtime: ShellRuntime) {
  const ignore = () => {};
  loadLaterSteps().catch(ignore);
  import('./App.js').catch(ignore);
  runtime.areas.catch(ignore);
}

/**
 * A first load of /signin (with or without a session): the sign-in page alone, with the theme, the API client
 * and `@portico/kit/signin`. The router, the data-fetching client, the rest of the kit and the areas
 * load once the form is on screen (see `App`).
 */
export function SignInFirst({ runtime, primary, setPrimary, onLeave }: SignInFirstProps) {
  const navigation = useWindowNavigation(onLeave);
  useEffect(() => {
    // After the form is painted, when the page is idle.
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (typeof window.requestIdleCallback === 'function')
          idle = window.requestIdleCallback(() => prefetchSignedIn(runtime), { timeout: 3000 });
        else prefetchSignedIn(runtime);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [runtime]);

  return (
    <ShellRuntimeContext.Provider value={runtime}>
      <ApiProvider client={runtime.client}>
        <ThemePrimaryContext.Provider value={setPrimary}>
          <SignInThemeProvider primary={primary}>
            <SignInNavigationContext.Provider value={navigation}>
              <SignInPage />
            </SignInNavigationContext.Provider>
          </SignInThemeProvider>
        </ThemePrimaryContext.Provider>
      </ApiProvider>
    </ShellRuntimeContext.Provider>
  );
}
