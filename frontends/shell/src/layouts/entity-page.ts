import type { Entity } from '@portico/kit';

/**
 * A client's pages of one entity name it by its hash in the path (/documents/{hash},
 * /inbox/{hash}/{conversation}, /questionnaire/{hash}). The entity a path names, among the client's
 * active entities, if it names one.
 */
export function entityOfPath(pathname: string, entities: readonly Entity[]): Entity | undefined {
  const segments = new Set(pathname.split('/').filter(Boolean));
  return entities.find((e) => !e.inactive && e.hash_id && segments.has(e.hash_id));
}

/**
 * The same page for another entity: the path up to the entity's hash, with the other hash. What came
 * after it (a conversation, a folder in the query) belongs to the first entity and is left out. Undefined
 * when the path names no entity (the profile).
 */
export function samePageFor(pathname: string, fromHash: string, toHash: string): string | undefined {
  const segments = pathname.split('/');
  const at = segments.indexOf(fromHash);
  return at < 1 ? undefined : [...segments.slice(0, at), toHash].join('/');
}
