import { type Entity, isApiError, newProgressId, onProgress, toast } from '@portico/kit';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocItem, DocumentsApi, LinkResponse } from '../api/documents-api.js';
import { failureText } from '../rules/failure-text.js';
import { inParallel } from '../rules/in-parallel.js';
import { apiFolder, normalizePath, parentPath } from '../rules/names.js';
import { FOLDERS_NOT_DOWNLOADABLE } from '../rules/selection.js';
import type { DialogState, DownloadChoice } from './dialog-state.js';
import type { BulkProgress, Destination } from './dialogs.js';
import { clickLink } from './download-link.js';
import { BULK_PARALLEL_CALLS, MESSAGES } from './file-manager.messages.js';

interface CommandsInput {
  api: DocumentsApi;
  company: Entity;
  /** The folder listed, where a new folder goes. */
  path: string;
  /** The dialog open now (`close` closes it). */
  dialog: DialogState;
  /** Asks again for everything listed of this company. */
  refresh: () => Promise<void>;
  /** Closes the open dialog. */
  close: () => void;
  /** Leaves exactly these items selected (none: an empty list). */
  selectOnly: (ids: string[]) => void;
  /** Whose documents page a copied folder URL opens: the advisor's or the client's. */
  isAdvisor: boolean;
}

/** Where the user is: the folder shown and the dialog open. */
interface Place {
  path: string;
  dialog: DialogState;
}

/**
 * What the file manager's buttons and dialogs do: each call to the documents API with its toasts, the
 * dialog closed and the listing asked again on success; a dialog stays open on failure, so its input
 * can be corrected. A change still running once the user has gone to another folder or dialog (Back
 * closes the dialog it began in) still tells how it ended, but leaves the dialog, the selection and the
 * progress shown there alone: they are no longer its own.
 */
export function useDocumentCommands({
  api,
  company,
  path,
  dialog,
  refresh,
  close,
  selectOnly,
  isAdvisor,
}: CommandsInput) {
  const companyId = company.id;
  /** A bulk action's progress, with the dialog it is shown in. */
  const [bulk, setBulk] = useState<BulkProgress & { dialog: DialogState }>();
  const here = useRef<Place>({ path, dialog });
  useEffect(() => {
    here.current = { path, dialog };
  }, [path, dialog]);
  /** Whether the user is still where a change began: the same folder ('/TAXES' is '/Taxes'), the same dialog. */
  const stillAt = (began: Place) =>
    here.current.dialog === began.dialog && here.current.path.toLowerCase() === began.path.toLowerCase();

  const download = useCallback(
    async (item: DocItem) => {
      try {
        const res = await api.downloadLink(companyId, item.link, true);
        const link = res.document?.data?.link;
        if (!link) return void toast.error(MESSAGES.noLink);
        clickLink(link, res.document.data.file_name || item.name);
      } catch (err) {
        toast.error(failureText(err, MESSAGES.documentDownloadFailed));
      }
    },
    [api, companyId],
  );

  /**
   * A zip (a folder, or several files) can take a while to build: the dialog closes at once with the
   * spec's notice, which stays with a spinner while the work goes on and the user does something else,
   * then says the zip is ready as the download starts. A refusal (the size limits) or a failure ends it
   * the same way. Meanwhile the notice shows how many files are in the zip so far, as the service tells
   * over the realtime socket under the id the request names it by. That word is best effort (late, out
   * of order or none at all): the count never goes back, and the zip's own answer ends the wait.
   */
  const zip = (request: (progressId: string) => Promise<LinkResponse>) => {
    close();
    const building = toast.pending(MESSAGES.zipPending);
    const progressId = newProgressId();
    let shownDone = -1;
    const stopFollowing = onProgress(progressId, ({ done, total }) => {
      if (done < shownDone) return;
      shownDone = done;
      building.progress(done, total);
    });
    void (async () => {
      try {
        const res = await request(progressId);
        const link = res.document?.data?.link;
        if (!link) return building.done('error', MESSAGES.noLink);
        clickLink(link, res.document.data.file_name);
        building.done('success', MESSAGES.zipReady(res.document.data.file_name));
      } catch (err) {
        building.done('error', failureText(err, MESSAGES.folderDownloadFailed));
      } finally {
        stopFollowing();
      }
    })();
  };

  /** The convert-and-download dialog's answer: one file as it is, or a zip (folders only as a whole folder). */
  const downloadChoice = async (choice: DownloadChoice, convert: boolean): Promise<void> => {
    if (choice.kind === 'downloadFolder') {
      const folder = choice.item ? choice.item.link : apiFolder(path);
      return zip((progressId) => api.downloadFolder(companyId, folder, convert, progressId));
    }
    const [only, ...others] = choice.items;
    if (only && !others.length && !convert) {
      close();
      return download(only);
    }
    if (choice.items.some((i) => i.type === 'folder')) return void toast.error(FOLDERS_NOT_DOWNLOADABLE);
    zip((progressId) =>
      api.downloadMultiple(
        companyId,
        choice.items.map((i) => i.link),
        convert,
        progressId,
      ),
    );
  };

  /** Runs a call that changes the listing: the toast, the dialog closed and the listing asked again. */
  const change = async (work: () => Promise<unknown>, failed: (err: unknown) => string) => {
    const began = here.current;
    try {
      await work();
      toast.success(MESSAGES.updated);
      if (stillAt(began)) close();
      await refresh();
    } catch (err) {
      toast.error(failed(err));
    }
  };

  const createFolder = (name: string) =>
    change(
      () => api.createFolder(companyId, apiFolder(path), name),
      // The service's refusal of a name says what is wrong with it.
      (err) => failureText(err, isApiError(err) && err.status < 500 ? err.message : MESSAGES.updateFailed),
    );

  const rename = (item: DocItem, newName: string) =>
    change(
      () => api.rename(companyId, item.path || parentPath(item.link), item.name, newName),
      (err) => failureText(err, MESSAGES.updateFailed),
    );

  /** Saves a file's description or tags. */
  const saveItem = (item: DocItem, changes: { description?: string; tags?: string[] }, failed: string) =>
    change(
      () => api.update(companyId, item.link, changes),
      (err) => failureText(err, failed),
    );

  /**
   * A bulk action, one call per item, a few at a time: a whole large folder selected is thousands of
   * calls, which at once would queue in the browser with no word of how far they are. The dialog shows
   * how many are done, while it is the one the action began in.
   */
  const runAll = async (
    work: (item: DocItem) => Promise<unknown>,
    targets: DocItem[],
    ok: string,
    failed: string,
  ) => {
    const began = here.current;
    const total = targets.length;
    const errors: unknown[] = [];
    const failedItems: DocItem[] = [];
    let done = 0;
    const showProgress = () => {
      if (stillAt(began)) setBulk({ done, total, dialog: began.dialog });
    };
    showProgress();
    await inParallel(targets, BULK_PARALLEL_CALLS, async (item) => {
      try {
        await work(item);
      } catch (err) {
        errors.push(err);
        failedItems.push(item);
      }
      done += 1;
      showProgress();
    });
    setBulk((shown) => (shown?.dialog === began.dialog ? undefined : shown));
    if (errors.length < total) toast.success(ok);
    if (errors.length) toast.error(failureText(errors[0], failed));
    // What failed stays selected, to try again or look at; when nothing went through, the dialog stays
    // open too, as for a single action. Elsewhere by now, the user's new selection and dialog stay.
    if (stillAt(began)) {
      selectOnly(failedItems.map((item) => item.id));
      if (failedItems.length < total) close();
    }
    await refresh();
  };

  const deleteItems = (items: DocItem[]) =>
    runAll((i) => api.deletePath(companyId, i.link), items, MESSAGES.deleted, MESSAGES.deleteFailed);

  const restoreItems = (items: DocItem[]) =>
    runAll((i) => api.restore(companyId, i.link, i.id), items, MESSAGES.restored, MESSAGES.updateFailed);

  const moveOrCopy = (items: DocItem[], move: boolean, to: Destination) =>
    runAll(
      (i) =>
        api.move({
          companyId,
          oldPath: i.link,
          newPath: apiFolder(to.path),
          deleteOldPath: move,
          isFolder: i.type === 'folder',
          ...(to.company.id !== companyId ? { newCompanyId: to.company.id } : {}),
        }),
      items,
      MESSAGES.updated,
      MESSAGES.updateFailed,
    );

  const copyLink = useCallback(async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(MESSAGES.linkCopied);
    } catch {
      toast.error();
    }
  }, []);

  /** The company's documents page: the advisor's, or the client's (spec 1 s.2.1). */
  const documentsPage = useCallback(
    (forAdvisor: boolean) =>
      new URL(
        forAdvisor ? `/admin/${company.hash_id}/documents` : `/documents/${company.hash_id}`,
        window.location.origin,
      ),
    [company.hash_id],
  );

  /** The folder on the copier's own documents page: an advisor's shares with advisors, a client's with the client's. */
  const copyFolderUrl = useCallback(
    (folder: string) => {
      const url = documentsPage(isAdvisor);
      if (normalizePath(folder) !== '/') url.searchParams.set('path', normalizePath(folder));
      return copyLink(url.toString());
    },
    [documentsPage, copyLink, isAdvisor],
  );

  /** The client's page of a file: their documents with its preview open (`linkedFile` reads it). */
  const copyClientFileUrl = useCallback(
    (link: string) => {
      const url = documentsPage(false);
      url.searchParams.set('file', normalizePath(link));
      return copyLink(url.toString());
    },
    [documentsPage, copyLink],
  );

  return {
    /** The progress of the bulk action begun in the dialog open now, if any. */
    bulkProgress: bulk && bulk.dialog === dialog ? { done: bulk.done, total: bulk.total } : undefined,
    download,
    downloadChoice,
    createFolder,
    rename,
    saveItem,
    deleteItems,
    restoreItems,
    moveOrCopy,
    copyFolderUrl,
    copyClientFileUrl,
  };
}

export type DocumentCommands = ReturnType<typeof useDocumentCommands>;
