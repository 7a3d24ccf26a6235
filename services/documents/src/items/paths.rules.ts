/** The reserved system folder at the root and its subfolders (spec 3 s.9): never deleted or renamed. */
export const SYSTEM_FOLDER = '_portico';
export const SIGNATURE_REQUESTS_FOLDER = `/${SYSTEM_FOLDER}/Signature Requests`;
export const TAX_RETURN_DELIVERY_FOLDER = `/${SYSTEM_FOLDER}/Tax Return Delivery`;
export const SYSTEM_PATHS = [`/${SYSTEM_FOLDER}`, SIGNATURE_REQUESTS_FOLDER, TAX_RETURN_DELIVERY_FOLDER];

/** Prior-year folder (spec 1 s.9): '{year}/Tax Returns and Tax Organizers (STAFF ONLY)'. */
export const priorYearFolder = (year: string) => `/${year}/Tax Returns and Tax Organizers (STAFF ONLY)`;

export const YEAR_PATTERN_FIRST = 2000;
export const YEAR_PATTERN_LAST = 2034;

/**
 * File and folder names keep letters, digits and ! - _ . * ' ( ); every other run of characters becomes
 * one space (spec 1 s.5.5). Leading and trailing spaces go. A name of dots only is no name: '.' and '..'
 * would be path steps, which no path may hold.
 */
export function sanitiseName(name: string): string {
  const sanitised = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}!\-_.*'()]+/gu, ' ')
    .trim();
  return /^\.+$/.test(sanitised) ? '' : sanitised;
}

/**
 * A path as the calls send it ('/A/B', 'A/B/', '' or '/') to its stored form: '' for the root, else
 * '/A/B'. Segments are trimmed; '.' and '..' are refused (undefined).
 */
export function normalisePath(input: string): string | undefined {
  const segments = input
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..')) return undefined;
  return segments.length ? `/${segments.join('/')}` : '';
}

/** '/A/B/c.pdf' to ['/A/B', 'c.pdf']; the root has no parent. */
export function splitPath(full: string): [folder: string, name: string] | undefined {
  const index = full.lastIndexOf('/');
  if (!full || index < 0) return undefined;
  return [full.slice(0, index), full.slice(index + 1)];
}

export const joinPath = (folder: string, name: string) => `${folder}/${name}`;

/** The longest path an item may have: the gateway takes no longer path, so a longer one could not be reached. */
export const MAX_PATH_LENGTH = 2_000;

/** Whether every path fits, each with `below` more characters under it (a folder's deepest contents). */
export const pathsFit = (paths: string[], below = 0) =>
  paths.every((p) => p.length + below <= MAX_PATH_LENGTH);

/** Every folder above and including `folder`, outermost first: '/A/B' gives ['/A', '/A/B']. */
export function ancestors(folder: string): string[] {
  const parts = folder.split('/').filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/**
 * A name as it is compared with STAFF ONLY: its compatibility form (NFKC: 'ﬀ' is 'ff', 'ＳＴＡＦＦ' is
 * 'STAFF') with ASCII letters in capitals. The trigger of migration 0009 computes the same in
 * PostgreSQL, whose upper() follows the database's collation, where JavaScript's follows Unicode's full
 * case mapping: a name the two read differently was listed to clients and refused to them elsewhere.
 */
export const staffOnlyForm = (name: string) =>
  // Most names are ASCII, which NFKC leaves as it is and whose upper case is ASCII capitals: a listing
  // reads thousands of them.
  ASCII.test(name)
    ? name.toUpperCase()
    : name.normalize('NFKC').replace(/[a-z]+/g, (letters) => letters.toUpperCase());

const ASCII = /^\p{ASCII}*$/u;

/**
 * Folders whose name contains STAFF ONLY, and everything inside them, are hidden from clients. Read
 * on the whole path at once: 'STAFF ONLY' holds no '/', so no match spans two segments.
 */
export const isStaffOnly = (path: string) => staffOnlyForm(path).includes('STAFF ONLY');

/**
 * A path with each segment sanitised: a request's folders are also found by their sanitised names
 * (ItemsService.storedFolder), so '(STAFF  ONLY)' typed reaches the '(STAFF ONLY)' folder. For checks
 * only; a segment left empty leaves an empty step.
 */
export const sanitisedPath = (path: string) => path.split('/').map(sanitiseName).join('/');

export const isSystemPath = (path: string) =>
  SYSTEM_PATHS.some((p) => p.toLowerCase() === path.toLowerCase());

/** True when `path` is `prefix` or inside it. */
export const isWithin = (path: string, prefix: string) =>
  path.toLowerCase() === prefix.toLowerCase() || path.toLowerCase().startsWith(`${prefix.toLowerCase()}/`);

/**
 * The system folder or anything below it. The product files signature requests and delivered returns
 * there; nothing is moved or copied into it by hand.
 */
export const isInSystemFolder = (path: string) => isWithin(path, `/${SYSTEM_FOLDER}`);

/**
 * The company setting folders_where_client_actions_disabled (spec 1 s.4.3) as path prefixes: each entry
 * is a path prefix, or a pattern whose {year} stands for any year from 2000 to 2034. '/' is the root, so
 * every folder; an empty entry is no folder.
 */
export function clientBlockedPrefixes(entries: readonly string[]): string[] {
  const prefixes: (string | undefined)[] = [];
  for (const entry of entries) {
    if (entry.trim() === '/') return [''];
    if (entry.includes('{year}')) {
      for (let year = YEAR_PATTERN_FIRST; year <= YEAR_PATTERN_LAST; year++)
        prefixes.push(normalisePath(entry.replaceAll('{year}', String(year))));
    } else prefixes.push(normalisePath(entry));
  }
  return prefixes.filter((prefix): prefix is string => !!prefix);
}

/** Whether `path` lies in a folder the company setting blocks for clients. */
export const clientActionsDisabledIn = (path: string, entries: readonly string[]) =>
  clientBlockedPrefixes(entries).some((prefix) => isWithin(path, prefix));

/** The extension of a name, lower case, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The longest name an item may have, in UTF-16 units as the gateway counts them: it takes no longer
 * item name, so an item named longer could not be renamed or deleted by its name.
 */
export const MAX_NAME_LENGTH = 255;

/**
 * `text` cut to at most `room` UTF-16 units, never inside a surrogate pair, without the spaces or dots
 * the cut leaves at its end ('W 2 .pdf', 'W-2..pdf').
 */
function cutTo(text: string, room: number): string {
  if (text.length <= room) return text;
  if (room <= 0) return '';
  const cut = text.slice(0, room);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).replace(/[\s.]+$/, '');
}

/**
 * A name that fits MAX_NAME_LENGTH: when too long, its stem is cut and its extension kept, with
 * `suffix` (a copy's number) between the two. A name whose extension leaves the stem no room is cut as
 * a whole, the suffix kept.
 */
export function fittedName(name: string, suffix = ''): string {
  const ext = extensionOf(name);
  const tail = ext ? name.slice(name.length - ext.length - 1) : '';
  const stem = name.slice(0, name.length - tail.length);
  if (stem.length + suffix.length + tail.length <= MAX_NAME_LENGTH) return `${stem}${suffix}${tail}`;
  const cutStem = cutTo(stem, MAX_NAME_LENGTH - suffix.length - tail.length);
  if (cutStem) return `${cutStem}${suffix}${tail}`;
  return `${cutTo(name, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/**
 * A rename keeps the extension (spec 1 s.5.5): the new base name is sanitised and the old extension
 * put back, the base cut where the two together would pass MAX_NAME_LENGTH. Typing the extension again
 * does not double it. Undefined when nothing is left.
 */
export function renamedFileName(oldName: string, newName: string): string | undefined {
  const ext = extensionOf(oldName);
  let base = newName.trim();
  if (ext && base.toLowerCase().endsWith(`.${ext}`)) base = base.slice(0, -(ext.length + 1));
  const clean = sanitiseName(base).replace(/\.+$/, '').trim();
  if (!clean) return undefined;
  return fittedName(ext ? `${clean}.${oldName.slice(oldName.lastIndexOf('.') + 1)}` : clean);
}

/**
 * 'report.pdf' taken: 'report (1).pdf', then 'report (2).pdf'; within MAX_NAME_LENGTH, the stem cut
 * and the number and extension kept, so each number still gives another name.
 */
export const numberedName = (name: string, n: number): string => fittedName(name, ` (${n})`);
