/**
 * Whether a navigation item's path is the page shown: the path itself or a page under it ('/' only for
 * itself). The item then carries aria-current="page", so the current page is not told by colour alone.
 */
export function isCurrentPage(pathname: string, itemPath: string): boolean {
  return itemPath === '/' ? pathname === '/' : pathname === itemPath || pathname.startsWith(`${itemPath}/`);
}
