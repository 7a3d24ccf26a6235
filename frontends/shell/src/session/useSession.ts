import { SESSION_KEY, type SessionStore, type StoredSession } from '@portico/kit';
import { useMemo, useSyncExternalStore } from 'react';

/** The stored session, re-rendering when it changes in this tab or another. */
export function useSession(store: SessionStore): StoredSession | null {
  const raw = useSyncExternalStore(
    (onChange) => store.onChange(onChange),
    () => window.localStorage.getItem(SESSION_KEY),
    () => null,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the raw value is the cache key
  return useMemo(() => store.get(), [raw, store]);
}
