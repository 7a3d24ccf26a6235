import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import { DEFAULT_THEME_CSS } from '../theme/default-theme-css.js';
import { DEFAULT_PRIMARY } from '../theme/theme.js';

interface SignInTheme {
  primary?: string;
  env?: 'default' | 'test';
}
const SignInThemeContext = createContext<SignInTheme | null>(null);

/**
 * The firm's colour the sign-in page is drawn in, for the parts of it that Mantine draws (see below); null
 * outside this provider (the sign-in page inside the signed-in shell, whose Mantine provider has it).
 */
export const useSignInTheme = () => useContext(SignInThemeContext);

type ThemeCssModule = typeof import('../theme/theme-css.js');
let themeCssModule: ThemeCssModule | undefined;
let themeCssLoading: Promise<ThemeCssModule> | undefined;

/**
 * Loads the module that computes a firm's theme variables (Mantine's resolvers, which the later steps
 * load anyway). The sign-in page starts it with the firm's branding request, so that the colour comes
 * with the logo. A failed load is tried again on the next call.
 */
export function loadThemeCss(): Promise<ThemeCssModule> {
  themeCssLoading ??= import('../theme/theme-css.js').then(
    (loaded) => {
      themeCssModule = loaded;
      return loaded;
    },
    (err: unknown) => {
      themeCssLoading = undefined;
      throw err;
    },
  );
  return themeCssLoading;
}

const RETRIES_MS = [2_000, 8_000, 30_000];

/**
 * The theme of the sign-in page without Mantine's provider: the theme's CSS variables and the light colour
 * scheme, which is all Mantine's stylesheet needs to draw the lean components. The default colour's
 * variables are known in advance (`DEFAULT_THEME_CSS`); a firm's are computed by `loadThemeCss`'s module.
 * The sign-in page waits for that module before it applies the firm's branding (see useFirmBranding), so
 * the colour is there in the same render; should it not be loaded yet, or its load have failed, the page
 * shows the portal's own colour until it comes (a failed load is tried again a few times).
 * Parts of the page drawn by Mantine's own components (the later steps, loaded on demand) bring the
 * kit's Mantine provider with them, with this colour (`useSignInTheme`); `env` is for that provider too
 * ('test' turns off its transitions and portals, for Testing Library).
 */
export function SignInThemeProvider({ primary, env, children }: SignInTheme & { children: ReactNode }) {
  const custom = primary && primary.toLowerCase() !== DEFAULT_PRIMARY ? primary : undefined;
  const [loaded, setLoaded] = useState(Boolean(themeCssModule));
  useLayoutEffect(() => {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }, []);
  useEffect(() => {
    if (!custom || themeCssModule) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = (failures: number) => {
      loadThemeCss().then(
        () => live && setLoaded(true),
        () => {
          const wait = RETRIES_MS[failures];
          if (live && wait !== undefined) retry = setTimeout(() => attempt(failures + 1), wait);
        },
      );
    };
    attempt(0);
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [custom]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `loaded` says when the module has come
  const css = useMemo(
    () => (custom && themeCssModule ? themeCssModule.themeCss(custom) : DEFAULT_THEME_CSS),
    [custom, loaded],
  );
  const theme = useMemo(() => ({ primary, env }), [primary, env]);
  return (
    <SignInThemeContext.Provider value={theme}>
      <style data-mantine-styles="">{css}</style>
      {children}
    </SignInThemeContext.Provider>
  );
}
