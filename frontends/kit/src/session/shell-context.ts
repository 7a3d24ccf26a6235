import { createContext, useContext } from 'react';

/** What the shell offers every area. */
export interface ShellServices {
  /** Signs out here and in every other tab. */
  signOut: () => Promise<void>;
  apiUrl: string;
  /** The firm this portal belongs to (runtime configuration), for public pages with no firm in the URL. */
  firmSlug?: string;
}

export const ShellContext = createContext<ShellServices | null>(null);

export function useShell(): ShellServices {
  const ctx = useContext(ShellContext);
  if (!ctx) throw new Error('useShell is only available inside the shell');
  return ctx;
}
