import { ONE_YEAR_SECONDS, readCookie, writeCookie } from '@portico/kit';

export type DocumentsView = 'list' | 'grid';

/** The cookie that remembers the documents view (spec 1 s.9: default list, one year). */
export const VIEW_COOKIE = 'portico_documents_view';

export function readView(): DocumentsView {
  return readCookie(VIEW_COOKIE) === 'grid' ? 'grid' : 'list';
}

export function saveView(view: DocumentsView): void {
  writeCookie(VIEW_COOKIE, view, ONE_YEAR_SECONDS);
}
