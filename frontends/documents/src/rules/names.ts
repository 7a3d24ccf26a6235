import type { DocItem } from '../api/documents-api.js';

/** Items created within this time show the New badge. */
export const NEW_FOR_MS = 3 * 24 * 60 * 60 * 1000;

export const isStaffOnly = (item: Pick<DocItem, 'name' | 'staff_only'>) =>
  item.staff_only || /STAFF ONLY/i.test(item.name);

/** The firm's reserved system folder at the root (spec 3 s.9) with 'Signature Requests' and 'Tax Return Delivery'. */
export const SYSTEM_FOLDER = '/_portico';

/**
 * Whether a path is the system folder or below it (in any case, as the service compares it): only the
 * product files there, so nothing is uploaded, created, moved or copied into it by hand.
 */
export function isSystemFolderPath(path: string): boolean {
  const p = normalizePath(path).toLowerCase();
  return p === SYSTEM_FOLDER || p.startsWith(`${SYSTEM_FOLDER}/`);
}

/**
 * The system folder or anything below it: the product files signature requests and delivered returns
 * there, so it is never a move or copy target (the service refuses it too).
 */
export function isInSystemFolder(item: Pick<DocItem, 'is_system' | 'link'>): boolean {
  return item.is_system || isSystemFolderPath(item.link);
}

export const isDeleted = (item: Pick<DocItem, 'deleted_at'>) => Boolean(item.deleted_at);

export function isNew(item: Pick<DocItem, 'created_at' | 'deleted_at'>, now = Date.now()): boolean {
  if (item.deleted_at || !item.created_at) return false;
  const created = Date.parse(item.created_at);
  return Number.isFinite(created) && now - created >= 0 && now - created < NEW_FOR_MS;
}

/** 'report.final.pdf' -> { base: 'report.final', ext: '.pdf' }; folders and dot files keep no extension. */
export function splitExtension(name: string, isFolder = false): { base: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (isFolder || dot <= 0 || dot === name.length - 1) return { base: name, ext: '' };
  return { base: name.slice(0, dot), ext: name.slice(dot) };
}

export const RENAME_MESSAGES = { required: 'Name is required' } as const;

/**
 * A name as the documents service stores it (spec 1 s.5.5): letters, digits and ! - _ . * ' ( ) kept,
 * every other run of characters one space, spaces at the ends gone; a name of dots only is no name. A
 * name this leaves empty ('###') is refused as a blank one is, before the call.
 */
export function sanitisedName(name: string): string {
  const sanitised = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}!\-_.*'()]+/gu, ' ')
    .trim();
  return /^\.+$/.test(sanitised) ? '' : sanitised;
}

/**
 * Rename keeps the extension (shown read-only): the new name is the edited base plus the old extension.
 * Returns the error for a name empty once sanitised (a file's base also loses its trailing dots there).
 */
export function renamedName(
  oldName: string,
  newBase: string,
  isFolder = false,
): { name: string; error?: undefined } | { name?: undefined; error: string } {
  const base = newBase.trim();
  if (!base) return { error: RENAME_MESSAGES.required };
  const { ext } = splitExtension(oldName, isFolder);
  const withoutRepeat =
    ext && base.toLowerCase().endsWith(ext.toLowerCase()) ? base.slice(0, -ext.length) : base;
  const kept = sanitisedName(withoutRepeat);
  if (!(isFolder ? kept : kept.replace(/\.+$/, '').trim())) return { error: RENAME_MESSAGES.required };
  return { name: `${withoutRepeat.trim()}${ext}` };
}

/** '/a/b' + 'c' -> '/a/b/c'; the root is '' or '/'. */
export function joinPath(folder: string, name: string): string {
  const base = normalizePath(folder);
  return base === '/' ? `/${name}` : `${base}/${name}`;
}

export function normalizePath(path: string | null | undefined): string {
  const trimmed = (path ?? '').trim().replace(/\/+$/, '');
  if (!trimmed) return '/';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** A folder as the documents API names it: the root, '/' in listings and addresses, is ''. */
export const apiFolder = (path: string) => (path === '/' ? '' : path);

export function parentPath(path: string): string {
  const p = normalizePath(path);
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/**
 * The file a documents link names (spec 1 s.2.1: /documents/{companyHash} with the query path, file or
 * previewName), whose preview the page opens: `file` is the file's path ('/2024/W-2.pdf') or a name in
 * the folder `path`; `previewName` is a name in `path`. Null when the link names no file.
 */
export function linkedFile(query: URLSearchParams): { folder: string; name: string } | null {
  const file = query.get('file')?.trim() ?? '';
  const name = file || (query.get('previewName')?.trim() ?? '');
  if (!name) return null;
  if (file.includes('/')) {
    const full = normalizePath(file);
    return { folder: parentPath(full), name: full.slice(full.lastIndexOf('/') + 1) };
  }
  return { folder: normalizePath(query.get('path')), name };
}

/** Breadcrumbs of a folder path: [{ name: 'All Files', path: '/' }, { name: '2024', path: '/2024' }, …]. */
export function crumbs(path: string): { name: string; path: string }[] {
  const parts = normalizePath(path).split('/').filter(Boolean);
  return [
    { name: 'All Files', path: '/' },
    ...parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` })),
  ];
}

export type PreviewKind = 'pdf' | 'image' | 'heic' | 'sheet' | 'none';

export function previewKind(name: string): PreviewKind {
  const ext = splitExtension(name).ext.toLowerCase().slice(1);
  if (ext === 'pdf') return 'pdf';
  if (['jpg', 'jpeg', 'png', 'gif', 'avif'].includes(ext)) return 'image';
  if (ext === 'heic') return 'heic';
  if (ext === 'xlsx' || ext === 'xls') return 'sheet';
  return 'none';
}

export function formatSize(size: string | number): string {
  const n = Number(size);
  if (!Number.isFinite(n) || n <= 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
