import { toast } from '@portico/kit';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { DocItem } from '../api/documents-api.js';
import { linkedFile, normalizePath } from '../rules/names.js';
import { MESSAGES } from './file-manager.messages.js';

/** The query with `path` set to a folder (none for the root) and no file named. */
function withFolder(prev: URLSearchParams, folder: string): URLSearchParams {
  const p = new URLSearchParams(prev);
  p.delete('file');
  p.delete('previewName');
  const path = normalizePath(folder);
  if (path === '/') p.delete('path');
  else p.set('path', path);
  return p;
}

/**
 * The folder the address names (`?path=`, or the folder of a linked file: `?file=` or `?previewName=`),
 * and a move to another folder, which the browser's history keeps. `onMove` runs before each move.
 */
export function useFolderAddress(onMove: () => void) {
  const [params, setParams] = useSearchParams();
  const linked = linkedFile(params);
  const path = linked ? linked.folder : normalizePath(params.get('path'));

  const goTo = useCallback(
    (next: string) => {
      onMove();
      setParams((prev) => withFolder(prev, next), { replace: false });
    },
    [onMove, setParams],
  );
  /** The address of the folder shown, in place of the one that led to it. */
  const replaceWith = useCallback(
    (folder: string) => setParams((prev) => withFolder(prev, folder), { replace: true }),
    [setParams],
  );
  return { path, linkedName: linked?.name, goTo, replaceWith };
}

/**
 * Keeps the address true to what is listed: a folder asked in another case ('/TAXES') is listed as stored
 * ('/Taxes') and the address follows it; a linked file's preview opens once its folder is listed, and the
 * link becomes the folder's. A file no longer there is said, rather than showing the folder as if the
 * link had worked (a folder it cannot list says so itself). The file is looked for in a listing answered
 * since the page opened, not in one cached earlier in the session: that one may predate the file.
 */
export function useListedAddress({
  path,
  linkedName,
  replaceWith,
  searching,
  listing,
  items,
  onPreview,
}: {
  path: string;
  linkedName: string | undefined;
  replaceWith: (folder: string) => void;
  searching: boolean;
  /**
   * The listing's answer, once it has one, whether its last request succeeded, whether it has answered
   * since the page opened and whether it is being asked again.
   */
  listing: {
    data?: { path?: string };
    isSuccess: boolean;
    isFetchedAfterMount: boolean;
    isFetching: boolean;
  };
  items: DocItem[];
  onPreview: (item: DocItem) => void;
}) {
  const { data: listed, isSuccess } = listing;
  // A listing cached earlier (another visit of the folder) is shown at once while it is asked again.
  const answered = listing.isFetchedAfterMount && !listing.isFetching;
  const listedPath = searching ? undefined : listed?.path;
  useEffect(() => {
    if (!listedPath || listedPath === path || linkedName) return;
    replaceWith(listedPath);
  }, [listedPath, path, linkedName, replaceWith]);

  useEffect(() => {
    if (!linkedName || searching || !listed || !answered) return;
    const item = items.find((i) => i.type !== 'folder' && !i.deleted_at && i.name === linkedName);
    replaceWith(path);
    if (item) onPreview(item);
    else if (isSuccess) toast.info(MESSAGES.linkedFileGone(linkedName));
  }, [linkedName, path, searching, listed, answered, isSuccess, items, replaceWith, onPreview]);
}
