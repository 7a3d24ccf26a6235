import type { QueryClient } from '@tanstack/react-query';

/**
 * The `meta` of a query whose answer is the same for anyone (a public page's: the drop-off page's firm
 * and link), kept when a session ends: clearing it would put a visitor's half-filled form back to its
 * loader and lose what they typed and chose.
 */
export const PUBLIC_QUERY = { public: true } as const;

/** Drops every cached answer but the public ones: a session ended, its user's data goes with it. */
export function forgetSignedInQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.meta?.public !== true });
  queryClient.getMutationCache().clear();
}
