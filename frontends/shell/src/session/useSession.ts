import type { SessionStore, StoredSession } from '@portico/kit';
import { useSyncExternalStore } from 'react';

/**
 * The stored session, re-rendering when it changes in this tab or another. Read through the store (the
 * same object while it is unchanged), which keeps it in the tab's memory where the browser refuses
 * localStorage.
 */
export function useSession(store: SessionStore): StoredSession | null {
  return useSyncExternalStore(
    (onChange) => store.onChange(onChange),
    () => store.get(),
    () => null,
  );
}
