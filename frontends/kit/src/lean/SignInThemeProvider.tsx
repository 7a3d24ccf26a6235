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

/**
 * The theme of the sign-in page without Mantine's provider: the theme's CSS variables and the light colour
 * scheme, which is all Mantine's stylesheet needs to draw the lean components. The default colour's
 * variables are known in advance (`DEFAULT_THEME_CSS`); a firm's are computed by a module loaded when the
 * colour is known (after the form's first frame), and until then the default ones stand.
 * Parts of the page drawn by Mantine's own components (the later steps, loaded on demand) bring the
 * kit's Mantine provider with them, with this colour (`useSignInTheme`); `env` is for that provider too
 * ('test' turns off its transitions and portals, for Testing Library).
 */
export function SignInThemeProvider({ primary, env, children }: SignInTheme & { children: ReactNode }) {
  const custom = primary && primary.toLowerCase() !== DEFAULT_PRIMARY ? primary : undefined;
  const [computed, setComputed] = useState<{ primary: string; css: string }>();
  useLayoutEffect(() => {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }, []);
  useEffect(() => {
    if (!custom) return;
    let current = true;
    import('../theme/theme-css.js')
      .then(({ themeCss }) => {
        if (current) setComputed({ primary: custom, css: themeCss(custom) });
      })
      // Not loaded (the network gone): the page stays in the portal's own colour.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [custom]);
  const css = custom && computed?.primary === custom ? computed.css : DEFAULT_THEME_CSS;
  const theme = useMemo(() => ({ primary, env }), [primary, env]);
  return (
    <SignInThemeContext.Provider value={theme}>
      <style data-mantine-styles="">{css}</style>
      {children}
    </SignInThemeContext.Provider>
  );
}
