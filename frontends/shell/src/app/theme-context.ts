import { createContext, useContext } from 'react';

/** Lets the sign-in page (firm branding) and the signed-in shell (firm preferences) set the colour. */
export const ThemePrimaryContext = createContext<(primary: string | undefined) => void>(() => {});
export const useThemePrimary = () => useContext(ThemePrimaryContext);
