import {
  Anchor,
  Box,
  Button,
  Center,
  type Entity,
  Group,
  isApiError,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  toast,
  useDebouncedValue,
} from '@portico/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useSearchParams } from 'react-router';
import type { DocItem, DocumentsApi } from '../api/documents-api.js';
import { PreviewDialog } from '../preview/PreviewDialog.js';
import { type Capabilities, capabilitiesAt, visibleItems } from '../rules/capabilities.js';
import { failureText } from '../rules/failure-text.js';
import { inParallel } from '../rules/in-parallel.js';
import { crumbs, linkedFile, normalizePath, parentPath } from '../rules/names.js';
import { bulkActions, FOLDERS_NOT_DOWNLOADABLE, MIXED_SELECTION } from '../rules/selection.js';
import { type DocumentsView, readView, saveView } from '../rules/view-preference.js';
import { HiddenFileInput } from '../upload/HiddenFileInput.js';
import { UploadDialog } from '../upload/UploadDialog.js';
import { UploadProgressList } from '../upload/UploadProgressList.js';
import { entryOf, splitFolders, UPLOAD_MESSAGES, type UploadEntry } from '../upload/upload.js';
import { useUploads } from '../upload/useUploads.js';
import { DocumentsTable, type ItemAction } from './DocumentsTable.js';
import { DropLinkDialog } from './DropLinkDialog.js';
import './file-manager.css';
import {
  type BulkProgress,
  ConvertDownloadDialog,
  CreateFolderDialog,
  DeleteDialog,
  DescriptionDialog,
  type Destination,
  MoveCopyDialog,
  RenameDialog,
  RestoreDialog,
  TagsDialog,
} from './dialogs.js';
import { clickLink, DOWNLOAD_MESSAGES } from './download-link.js';
import { FolderTree } from './FolderTree.js';
import { Guarded } from './Guarded.js';

/** Documents search waits for typing to pause (spec 1 s.9: a shared debounce). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Calls a bulk action (delete, restore, move, copy) keeps in flight at once. */
export const BULK_PARALLEL_CALLS = 6;

export const MESSAGES = {
  deleted: 'Deleted successfully',
  deleteFailed: 'Deleted Failed',
  updateFailed: 'Failed to update document or folder',
  updated: 'Updated successfully',
  restored: 'Undo was successful',
  linkCopied: 'Link copied to clipboard',
  documentDownloadFailed: DOWNLOAD_MESSAGES.documentDownloadFailed,
  folderDownloadFailed: 'There was a problem downloading the folder. Please refresh and try again.',
  zipPending: 'You will receive a notification when the zip file is ready for download.',
  zipReady: (fileName: string) => `Your zip file is ready: ${fileName}`,
  noLink: DOWNLOAD_MESSAGES.noLink,
  tagsFailed: 'Issue saving selected tags, please try again later.',
  /** A link to a file that is not in its folder any more (the spec has no text for it). */
  linkedFileGone: (name: string) =>
    `${name} is not in this folder any more: it may have been moved, renamed or deleted.`,
} as const;

/** The bulk actions on a selection of live items, in the bar's order. */
const LIVE_BULK_ACTIONS = [
  ['download', 'Download'],
  ['move', 'Move'],
  ['copy', 'Copy'],
  ['delete', 'Delete'],
] as const;

type DialogState =
  | { kind: 'none' }
  | { kind: 'createFolder' }
  | { kind: 'upload' }
  | { kind: 'rename'; item: DocItem }
  | { kind: 'description'; item: DocItem }
  | { kind: 'tags'; item: DocItem }
  | { kind: 'delete'; items: DocItem[] }
  | { kind: 'restore'; items: DocItem[] }
  | { kind: 'move' | 'copy'; items: DocItem[] }
  | DownloadChoice
  | { kind: 'preview'; item: DocItem }
  | { kind: 'dropLink' };

/** What the convert-and-download dialog downloads: chosen items, or a folder (null: the current one). */
type DownloadChoice =
  | { kind: 'download'; items: DocItem[] }
  | { kind: 'downloadFolder'; item: DocItem | null };

/**
 * Why the listing is not shown: a folder that does not exist (a typed or old link) offers the way back;
 * anything else (a slow or absent service, the network) offers to ask again.
 */
function ListingFailure({
  error,
  onHome,
  onRetry,
}: {
  error: unknown;
  onHome: () => void;
  onRetry: () => void;
}) {
  const missing = isApiError(error) && (error.status === 404 || error.status === 400);
  return (
    <Center p="xl">
      <Stack align="center" gap="xs">
        <Text c="red.9" role="alert">
          {missing ? error.message : failureText(error, 'Something went wrong')}
        </Text>
        {missing ? (
          <Button variant="subtle" onClick={onHome}>
            Go to All Files
          </Button>
        ) : (
          <Button variant="light" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Center>
  );
}

export interface FileManagerProps {
  api: DocumentsApi;
  company: Entity;
  caps: Capabilities;
  firmTags?: string[];
  makeXhr?: () => XMLHttpRequest;
}

/** The file manager of spec 1 s.2.7, for advisors and clients alike; what differs is in `caps`. */
export function FileManager({ api, company, caps, firmTags = [], makeXhr }: FileManagerProps) {
  const companyId = company.id;
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  // A link to a file (?file= or ?previewName=) shows the file's folder and opens its preview.
  const linked = linkedFile(params);
  const linkedName = linked?.name;
  const path = linked ? linked.folder : normalizePath(params.get('path'));
  const [showDeleted, setShowDeleted] = useState(false);
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const [view, setView] = useState<DocumentsView>(readView);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [bulkProgress, setBulkProgress] = useState<BulkProgress>();
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);
  const includeDeleted = caps.includeDeleted && showDeleted;

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['documents', companyId] }),
    [queryClient, companyId],
  );
  const uploads = useUploads({ api, companyId, makeXhr, onDone: () => void refresh() });

  const goTo = useCallback(
    (next: string) => {
      setSelection({});
      setTerm('');
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if (normalizePath(next) === '/') p.delete('path');
          else p.set('path', normalizePath(next));
          return p;
        },
        { replace: false },
      );
    },
    [setParams],
  );

  const listing = useQuery({
    queryKey: debounced
      ? ['documents', companyId, 'search', debounced, includeDeleted]
      : ['documents', companyId, 'list', path, includeDeleted],
    queryFn: () =>
      debounced
        ? api.search(companyId, debounced, includeDeleted)
        : api.list(companyId, path === '/' ? '' : path, includeDeleted),
  });
  const items = useMemo(() => visibleItems(caps, listing.data?.documents ?? []), [caps, listing.data]);
  const selected = useMemo(() => items.filter((i) => selection[i.id]), [items, selection]);
  const bulk = bulkActions(caps, selected);

  // A folder asked in another case ('/TAXES') is listed as stored ('/Taxes'): the address follows it.
  const listedPath = debounced ? undefined : listing.data?.path;
  useEffect(() => {
    if (!listedPath || listedPath === path || linkedName) return;
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (listedPath === '/') p.delete('path');
        else p.set('path', listedPath);
        return p;
      },
      { replace: true },
    );
  }, [listedPath, path, linkedName, setParams]);

  // Once the folder is listed, the linked file's preview opens and the link becomes the folder's.
  useEffect(() => {
    if (!linkedName || debounced || !listing.data) return;
    const item = items.find((i) => i.type !== 'folder' && !i.deleted_at && i.name === linkedName);
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.delete('file');
        p.delete('previewName');
        if (path === '/') p.delete('path');
        else p.set('path', path);
        return p;
      },
      { replace: true },
    );
    if (item) setDialog({ kind: 'preview', item });
    // Said, rather than showing the folder as if the link had worked (a folder it cannot list says so
    // itself).
    else if (listing.isSuccess) toast.info(MESSAGES.linkedFileGone(linkedName));
  }, [linkedName, path, debounced, listing.data, listing.isSuccess, items, setParams]);

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
   * spec's notice, the work goes on while the user does something else, and a notification says when it
   * is ready as the download starts. A refusal (the size limits) or a failure is a notification too.
   */
  const zip = useCallback(
    (request: () => Promise<{ document: { data: { link: string; file_name: string } } }>) => {
      close();
      toast.info(MESSAGES.zipPending);
      void (async () => {
        try {
          const res = await request();
          const link = res.document?.data?.link;
          if (!link) return void toast.error(MESSAGES.noLink);
          clickLink(link, res.document.data.file_name);
          toast.success(MESSAGES.zipReady(res.document.data.file_name));
        } catch (err) {
          toast.error(failureText(err, MESSAGES.folderDownloadFailed));
        }
      })();
      return Promise.resolve();
    },
    [close],
  );

  /** The convert-and-download dialog's answer: one file as it is, or a zip (folders only as a whole folder). */
  const downloadChoice = (choice: DownloadChoice, convert: boolean): Promise<void> => {
    if (choice.kind === 'downloadFolder') {
      const folder = choice.item ? choice.item.link : path === '/' ? '' : path;
      return zip(() => api.downloadFolder(companyId, folder, convert));
    }
    const [only, ...others] = choice.items;
    if (only && !others.length && !convert) {
      close();
      return download(only);
    }
    if (choice.items.some((i) => i.type === 'folder')) {
      toast.error(FOLDERS_NOT_DOWNLOADABLE);
      return Promise.resolve();
    }
    return zip(() =>
      api.downloadMultiple(
        companyId,
        choice.items.map((i) => i.link),
        convert,
      ),
    );
  };

  /** Saves a file's description or tags. */
  const saveItem = async (
    item: DocItem,
    changes: { description?: string; tags?: string[] },
    failed: string,
  ) => {
    try {
      await api.update(companyId, item.link, changes);
      toast.success(MESSAGES.updated);
      close();
      await refresh();
    } catch (err) {
      toast.error(failureText(err, failed));
    }
  };

  const moveOrCopy = (items: DocItem[], move: boolean, to: Destination) =>
    runAll(
      (i) =>
        api.move({
          companyId,
          oldPath: i.link,
          newPath: to.path === '/' ? '' : to.path,
          deleteOldPath: move,
          isFolder: i.type === 'folder',
          ...(to.company.id !== companyId ? { newCompanyId: to.company.id } : {}),
        }),
      items,
      MESSAGES.updated,
      MESSAGES.updateFailed,
    );

  const open = useCallback(
    (item: DocItem) => {
      // A deleted folder opens (with deleted items shown), to restore what is in it one item at a time.
      if (item.type === 'folder') goTo(item.link);
      else if (!item.deleted_at) setDialog({ kind: 'preview', item });
    },
    [goTo],
  );

  const folderUrl = useCallback(
    (p: string) => {
      const url = new URL(`/admin/${company.hash_id}/documents`, window.location.origin);
      if (normalizePath(p) !== '/') url.searchParams.set('path', normalizePath(p));
      return url.toString();
    },
    [company.hash_id],
  );
  /** The client's page of a file: their documents with its preview open (`linkedFile` reads it). */
  const clientFileUrl = useCallback(
    (link: string) => {
      const url = new URL(`/documents/${company.hash_id}`, window.location.origin);
      url.searchParams.set('file', normalizePath(link));
      return url.toString();
    },
    [company.hash_id],
  );
  const copyLink = useCallback(async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(MESSAGES.linkCopied);
    } catch {
      toast.error();
    }
  }, []);
  const copyUrl = useCallback((p: string) => copyLink(folderUrl(p)), [copyLink, folderUrl]);

  const onAction = useCallback(
    (action: ItemAction, item: DocItem) => {
      switch (action) {
        case 'open':
          return open(item);
        case 'download':
          return item.type === 'folder' ? setDialog({ kind: 'downloadFolder', item }) : void download(item);
        case 'rename':
          return setDialog({ kind: 'rename', item });
        case 'move':
        case 'copy':
          return setDialog({ kind: action, items: [item] });
        case 'delete':
          return setDialog({ kind: 'delete', items: [item] });
        case 'restore':
          return setDialog({ kind: 'restore', items: [item] });
        case 'editDescription':
          return setDialog({ kind: 'description', item });
        case 'editTags':
          return setDialog({ kind: 'tags', item });
        case 'copyUrl':
          return void copyUrl(item.link);
        case 'copyClientUrl':
          return void copyLink(clientFileUrl(item.link));
      }
    },
    [open, download, copyUrl, copyLink, clientFileUrl],
  );

  /**
   * A bulk action, one call per item, a few at a time: a whole large folder selected is thousands of
   * calls, which at once would queue in the browser with no word of how far they are. The dialog shows
   * how many are done.
   */
  const runAll = async (
    work: (item: DocItem) => Promise<unknown>,
    targets: DocItem[],
    ok: string,
    failed: string,
  ) => {
    const errors: unknown[] = [];
    let done = 0;
    setBulkProgress({ done, total: targets.length });
    await inParallel(targets, BULK_PARALLEL_CALLS, async (item) => {
      try {
        await work(item);
      } catch (err) {
        errors.push(err);
      }
      done += 1;
      setBulkProgress({ done, total: targets.length });
    });
    setBulkProgress(undefined);
    if (errors.length < targets.length) toast.success(ok);
    if (errors.length) toast.error(failureText(errors[0], failed));
    setSelection({});
    close();
    await refresh();
  };

  // Adding here: the company may block clients' actions in this folder (items check their own paths).
  const here = capabilitiesAt(caps, path);

  /** Uploads into the current folder; a folder is refused when the firm keeps clients from creating folders. */
  const upload = (entries: UploadEntry[]) => {
    if (here.folderUpload.enabled) return void uploads.start(path, entries);
    const { files, inFolders } = splitFolders(entries);
    if (inFolders.length) toast.error(UPLOAD_MESSAGES.foldersDisabled);
    if (files.length) void uploads.start(path, files);
  };

  const drop = useDropzone({
    noClick: true,
    noKeyboard: true,
    disabled: !here.upload.enabled || uploads.busy || dialog.kind === 'upload',
    onDrop: (files) => upload(files.map(entryOf)),
  });

  const itemCount = listing.data?.count ?? items.length;

  return (
    <Stack p="md" gap="md" data-testid="file-manager" data-role={caps.role}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h2">
            Documents
          </Title>
          <Text size="sm" c="dimmed">
            {company.name}
          </Text>
        </Stack>
        <Group gap="xs">
          {caps.dropLink ? (
            <Button variant="subtle" onClick={() => setDialog({ kind: 'dropLink' })}>
              Drop Link
            </Button>
          ) : null}
          <Guarded verdict={here.createFolder}>
            <Button
              variant="default"
              disabled={!here.createFolder.enabled}
              onClick={() => setDialog({ kind: 'createFolder' })}
            >
              Add Folder
            </Button>
          </Guarded>
          <Guarded verdict={here.upload}>
            <Button disabled={!here.upload.enabled} onClick={() => setDialog({ kind: 'upload' })}>
              Add
            </Button>
          </Guarded>
        </Group>
      </Group>

      {/* Tree beside the list when both fit, else above it (file-manager.css). */}
      <div className="portico-fm-panes">
        <div className="portico-fm-layout" data-role={caps.role}>
          <Paper withBorder p="sm" className="portico-fm-tree">
            <FolderTree api={api} companyId={companyId} caps={caps} current={path} onSelect={goTo} />
          </Paper>

          <Stack
            gap="sm"
            className="portico-fm-list"
            style={{ flex: 1, minWidth: 0 }}
            {...drop.getRootProps()}
            data-testid="drop-area"
          >
            <HiddenFileInput inputProps={drop.getInputProps()} label="Drop files to upload" />
            <Group justify="space-between" gap="xs">
              <Group gap={4} aria-label="Breadcrumbs">
                {crumbs(path).map((c, i, all) => (
                  <Group key={c.path} gap={4}>
                    {i === all.length - 1 ? (
                      <Text fw={600}>{c.name}</Text>
                    ) : (
                      <Anchor component="button" type="button" onClick={() => goTo(c.path)}>
                        {c.name}
                      </Anchor>
                    )}
                    {i < all.length - 1 ? <Text c="dimmed">/</Text> : null}
                  </Group>
                ))}
              </Group>
              <Group gap="xs">
                {caps.copyFolderUrl ? (
                  <Button variant="subtle" size="xs" onClick={() => void copyUrl(path)}>
                    Copy folder URL
                  </Button>
                ) : null}
                {caps.folderDownload ? (
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={() => setDialog({ kind: 'downloadFolder', item: null })}
                  >
                    Download folder
                  </Button>
                ) : null}
              </Group>
            </Group>

            <Group gap="sm" align="center">
              <TextInput
                placeholder="Search documents"
                aria-label="Search documents"
                value={term}
                onChange={(e) => setTerm(e.currentTarget.value)}
                style={{ flex: 1, minWidth: 200 }}
              />
              {listing.data ? (
                <Text size="sm" c="dimmed" data-testid="item-count">
                  {itemCount.toLocaleString()} {itemCount === 1 ? 'item' : 'items'}
                </Text>
              ) : null}
              {caps.includeDeleted ? (
                <Switch
                  label="Include deleted files"
                  checked={showDeleted}
                  onChange={(e) => {
                    setShowDeleted(e.currentTarget.checked);
                    setSelection({});
                  }}
                />
              ) : null}
              <SegmentedControl
                aria-label="View"
                value={view}
                onChange={(v) => {
                  const next = v === 'grid' ? 'grid' : 'list';
                  setView(next);
                  saveView(next);
                }}
                data={[
                  { label: 'List', value: 'list' },
                  { label: 'Grid', value: 'grid' },
                ]}
              />
            </Group>

            {selected.length ? (
              <Paper withBorder p="xs" data-testid="bulk-bar">
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {selected.length} selected
                  </Text>
                  {bulk.mixed ? (
                    <Text size="sm" c="dimmed">
                      {MIXED_SELECTION}
                    </Text>
                  ) : (
                    <>
                      {selected.every((i) => !i.deleted_at)
                        ? LIVE_BULK_ACTIONS.map(([kind, label]) => (
                            <BulkButton
                              key={kind}
                              label={label}
                              enabled={bulk[kind]}
                              reason={bulk.reasons[kind]}
                              onClick={() => setDialog({ kind, items: selected })}
                            />
                          ))
                        : null}
                      {bulk.restore ? (
                        <BulkButton
                          label="Restore"
                          enabled
                          onClick={() => setDialog({ kind: 'restore', items: selected })}
                        />
                      ) : null}
                    </>
                  )}
                  <Button size="xs" variant="subtle" onClick={() => setSelection({})}>
                    Clear
                  </Button>
                </Group>
              </Paper>
            ) : null}

            <Box
              pos="relative"
              style={{
                outline: drop.isDragActive ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
                borderRadius: 8,
                minHeight: 200,
              }}
            >
              {listing.isPending ? (
                <Center p="xl">
                  <Loader aria-label="Loading" />
                </Center>
              ) : listing.isError ? (
                <ListingFailure
                  error={listing.error}
                  onHome={() => goTo('/')}
                  // Everything shown of this company is asked again: the tree failed with it, most likely.
                  onRetry={() => void refresh()}
                />
              ) : items.length === 0 ? (
                <Center p="xl">
                  <Text c="dimmed">
                    {debounced ? 'No documents match your search.' : 'This folder is empty.'}
                  </Text>
                </Center>
              ) : (
                <DocumentsTable
                  items={items}
                  caps={caps}
                  view={view}
                  selection={selection}
                  onSelectionChange={setSelection}
                  onOpen={open}
                  onAction={onAction}
                  showFolder={Boolean(debounced)}
                  listKey={`${path}\n${debounced}`}
                />
              )}
              {drop.isDragActive ? (
                <Center pos="absolute" inset={0} style={{ background: 'rgba(255,255,255,.7)' }}>
                  <Text fw={600}>
                    {here.folderUpload.enabled
                      ? 'Drop files or folders to upload them here'
                      : 'Drop files to upload them here'}
                  </Text>
                </Center>
              ) : null}
            </Box>
            {dialog.kind !== 'upload' ? (
              <UploadProgressList
                files={uploads.files}
                onCancel={uploads.cancel}
                onRetryFailed={uploads.retryFailed}
              />
            ) : null}
          </Stack>
        </div>
      </div>

      {dialog.kind === 'createFolder' ? (
        <CreateFolderDialog
          onClose={close}
          onCreate={async (name) => {
            try {
              await api.createFolder(companyId, path === '/' ? '' : path, name);
              toast.success(MESSAGES.updated);
              close();
              await refresh();
            } catch (err) {
              toast.error(
                failureText(err, isApiError(err) && err.status < 500 ? err.message : MESSAGES.updateFailed),
              );
            }
          }}
        />
      ) : null}
      {dialog.kind === 'upload' ? (
        <UploadDialog
          files={uploads.files}
          busy={uploads.busy}
          onClose={() => {
            close();
            uploads.clear();
          }}
          onFiles={upload}
          onCancel={uploads.cancel}
          onRetryFailed={uploads.retryFailed}
          folderUpload={here.folderUpload}
        />
      ) : null}
      {dialog.kind === 'rename' ? (
        <RenameDialog
          item={dialog.item}
          onClose={close}
          onRename={async (newName) => {
            try {
              await api.rename(
                companyId,
                dialog.item.path || parentPath(dialog.item.link),
                dialog.item.name,
                newName,
              );
              toast.success(MESSAGES.updated);
              close();
              await refresh();
            } catch (err) {
              toast.error(failureText(err, MESSAGES.updateFailed));
            }
          }}
        />
      ) : null}
      {dialog.kind === 'description' ? (
        <DescriptionDialog
          item={dialog.item}
          onClose={close}
          onSave={(description) => saveItem(dialog.item, { description }, MESSAGES.updateFailed)}
        />
      ) : null}
      {dialog.kind === 'tags' ? (
        <TagsDialog
          item={dialog.item}
          firmTags={firmTags}
          onClose={close}
          onSave={(tags) => saveItem(dialog.item, { tags }, MESSAGES.tagsFailed)}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <DeleteDialog
          items={dialog.items}
          progress={bulkProgress}
          onClose={close}
          onConfirm={() =>
            runAll(
              (i) => api.deletePath(companyId, i.link),
              dialog.items,
              MESSAGES.deleted,
              MESSAGES.deleteFailed,
            )
          }
        />
      ) : null}
      {dialog.kind === 'restore' ? (
        <RestoreDialog
          items={dialog.items}
          progress={bulkProgress}
          onClose={close}
          onConfirm={() =>
            runAll(
              (i) => api.restore(companyId, i.link, i.id),
              dialog.items,
              MESSAGES.restored,
              MESSAGES.updateFailed,
            )
          }
        />
      ) : null}
      {dialog.kind === 'move' || dialog.kind === 'copy' ? (
        <MoveCopyDialog
          mode={dialog.kind}
          items={dialog.items}
          progress={bulkProgress}
          api={api}
          company={company}
          caps={caps}
          onClose={close}
          onConfirm={(to) => moveOrCopy(dialog.items, dialog.kind === 'move', to)}
        />
      ) : null}
      {dialog.kind === 'download' || dialog.kind === 'downloadFolder' ? (
        <ConvertDownloadDialog onClose={close} onDownload={(convert) => downloadChoice(dialog, convert)} />
      ) : null}
      {dialog.kind === 'dropLink' ? <DropLinkDialog api={api} onClose={close} /> : null}
      {dialog.kind === 'preview' ? (
        <PreviewDialog
          item={dialog.item}
          api={api}
          companyId={companyId}
          onClose={close}
          onDownload={download}
        />
      ) : null}
    </Stack>
  );
}

function BulkButton({
  label,
  enabled,
  reason,
  onClick,
}: {
  label: string;
  enabled: boolean;
  reason?: string;
  onClick: () => void;
}) {
  return (
    <Guarded verdict={{ visible: true, enabled, reason }}>
      <Button
        size="xs"
        variant="light"
        disabled={!enabled}
        onClick={onClick}
        color={label === 'Delete' ? 'red' : undefined}
      >
        {label}
      </Button>
    </Guarded>
  );
}
