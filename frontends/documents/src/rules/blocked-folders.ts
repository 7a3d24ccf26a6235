import { normalizePath } from './names.js';

/** The years a '{year}' in the company setting stands for (spec 1 s.4.3). */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2034;

/**
 * The company setting folders_where_client_actions_disabled as lower-case path prefixes: each entry is a
 * path prefix, or a pattern whose {year} is any year from 2000 to 2034 (the documents service reads it
 * the same way and refuses the actions). '/' is the root, so every folder (the prefix ''); an empty entry
 * is no folder.
 */
export function blockedPrefixes(entries: readonly string[]): string[] {
  const prefixes: string[] = [];
  for (const entry of entries) {
    if (entry.trim() === '/') return [''];
    const years = entry.includes('{year}')
      ? Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => String(FIRST_YEAR + i))
      : [''];
    for (const year of years) {
      const prefix = normalizePath(entry.replaceAll('{year}', year)).toLowerCase();
      if (prefix !== '/') prefixes.push(prefix);
    }
  }
  return prefixes;
}

/** Whether `path` is a blocked folder or lies inside one (paths compare without case, as folders do). */
export function isInBlockedFolder(path: string, prefixes: readonly string[]): boolean {
  const p = normalizePath(path).toLowerCase();
  return prefixes.some((prefix) => prefix === '' || p === prefix || p.startsWith(`${prefix}/`));
}
