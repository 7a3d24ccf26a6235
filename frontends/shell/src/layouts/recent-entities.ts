import type { Entity } from '@portico/kit';

/** An entity's pages, /admin/{hash} and below: the entity navigation (spec 1 s.2.2). */
export const ENTITY_PAGES = '/admin/:companyHash/*';

/** How many recent entities the entity switcher lists while its filter box is empty (spec 1 s.2.2). */
export const RECENT_ENTITIES = 10;

/** What is kept of an entity: enough to list it and go to it. */
export type RecentEntity = Pick<Entity, 'id' | 'hash_id' | 'name' | 'entity_type' | 'inactive'>;

const KEY_PREFIX = 'portico.recent-entities.';
const keyOf = (userId: string) => `${KEY_PREFIX}${userId}`;

// A browser that blocks site data throws from `localStorage` itself: it is read inside each try.

/** This user's recent entities in this browser, most recent first; nothing when unreadable. */
export function readRecentEntities(userId: string, storage?: Storage): RecentEntity[] {
  try {
    const list: unknown = JSON.parse((storage ?? window.localStorage).getItem(keyOf(userId)) ?? '[]');
    if (!Array.isArray(list)) return [];
    return list
      .filter((e): e is RecentEntity => typeof e?.id === 'string' && typeof e?.hash_id === 'string')
      .slice(0, RECENT_ENTITIES);
  } catch {
    return [];
  }
}

/** Puts `entity` first, once, and keeps the list at RECENT_ENTITIES; answers the new list. */
export function rememberEntity(userId: string, entity: RecentEntity, storage?: Storage): RecentEntity[] {
  const { id, hash_id, name, entity_type, inactive } = entity;
  const list = [
    { id, hash_id, name, entity_type, inactive },
    ...readRecentEntities(userId, storage).filter((e) => e.id !== id),
  ].slice(0, RECENT_ENTITIES);
  try {
    (storage ?? window.localStorage).setItem(keyOf(userId), JSON.stringify(list));
  } catch {
    // Storage full or refused: the switcher still works, without recents.
  }
  return list;
}

/**
 * Forgets every user's recent entities in this browser, on any sign-out (the button, the session's end,
 * a forced sign-out) and when someone else signs in here: their names (for individuals, people's
 * names) are not left to the next person at a shared computer.
 */
export function forgetRecentEntities(storage?: Storage): void {
  try {
    const store = storage ?? window.localStorage;
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i));
    for (const key of keys) if (key?.startsWith(KEY_PREFIX)) store.removeItem(key);
  } catch {
    // Storage refused: nothing was kept either.
  }
}
