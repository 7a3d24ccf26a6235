import {
  Anchor,
  Box,
  Button,
  Center,
  DialogFocusFallback,
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
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import type { DocItem, DocumentsApi } from '../api/documents-api.js';
import { type Capabilities, capabilitiesAt, visibleItems } from '../rules/capabilities.js';
import { failureText } from '../rules/failure-text.js';
import { apiFolder, crumbs } from '../rules/names.js';
import { bulkActions } from '../rules/selection.js';
import { type DocumentsView, readView, saveView } from '../rules/view-preference.js';
import { HiddenFileInput } from '../upload/HiddenFileInput.js';
import { entryOf, splitFolders, UPLOAD_MESSAGES, type UploadEntry } from '../upload/upload.js';
import { useUploads } from '../upload/useUploads.js';
import { BulkBar } from './BulkBar.js';
import { DocumentsTable, type ItemAction } from './DocumentsTable.js';
import type { DialogState } from './dialog-state.js';
import './file-manager.css';
import { FileManagerDialogs } from './FileManagerDialogs.js';
import { FolderTree } from './FolderTree.js';
import { SEARCH_DEBOUNCE_MS } from './file-manager.messages.js';
import { GuardedButton } from './Guarded.js';
import { useDocumentCommands } from './useDocumentCommands.js';
import { useFolderAddress, useListedAddress } from './useFolderAddress.js';

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
  const [showDeleted, setShowDeleted] = useState(false);
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const [view, setView] = useState<DocumentsView>(readView);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);
  const clearSelection = useCallback(() => setSelection({}), []);
  const selectOnly = useCallback(
    (ids: string[]) => setSelection(Object.fromEntries(ids.map((id) => [id, true]))),
    [],
  );
  const includeDeleted = caps.includeDeleted && showDeleted;

  // Another folder starts with nothing selected, no search and no dialog about the folder left (a new
  // folder or an upload would land in the one shown now). A preview is of a file wherever it is.
  const leaveFolder = useCallback(() => {
    setSelection({});
    setTerm('');
    setDialog((open) => (open.kind === 'preview' ? open : { kind: 'none' }));
  }, []);
  const { path, linkedName, goTo, replaceWith } = useFolderAddress(leaveFolder);
  // The same when the address changes by other means than the tree (Back, Forward, a link); a folder
  // listed in its stored case ('/TAXES' shown as '/Taxes') is the same folder.
  const folderShown = useRef(path.toLowerCase());
  // Where a dialog whose opener went with what it changed gives focus back: the page's heading, not a
  // text field (on a phone, focusing one opens the keyboard over half the screen).
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeading = useCallback(() => heading.current, []);
  useEffect(() => {
    if (folderShown.current === path.toLowerCase()) return;
    folderShown.current = path.toLowerCase();
    leaveFolder();
  }, [path, leaveFolder]);

  /** Asks again for everything listed of a company. */
  const refreshCompany = useCallback(
    (id: string) => queryClient.invalidateQueries({ queryKey: ['documents', id] }),
    [queryClient],
  );
  const refresh = useCallback(() => refreshCompany(companyId), [refreshCompany, companyId]);
  // An upload refreshes the company it filed into, which may no longer be the one shown: its listing is
  // then asked again when next shown.
  const uploads = useUploads({
    api,
    company,
    makeXhr,
    onDone: (_outcome, filedInto) => void refreshCompany(filedInto),
  });
  const commands = useDocumentCommands({
    api,
    company,
    path,
    dialog,
    refresh,
    close,
    selectOnly,
    isAdvisor: caps.isAdvisor,
  });

  const listing = useQuery({
    queryKey: debounced
      ? ['documents', companyId, 'search', debounced, includeDeleted]
      : ['documents', companyId, 'list', path, includeDeleted],
    queryFn: () =>
      debounced
        ? api.search(companyId, debounced, includeDeleted)
        : api.list(companyId, apiFolder(path), includeDeleted),
  });
  const items = useMemo(() => visibleItems(caps, listing.data?.documents ?? []), [caps, listing.data]);
  const selected = useMemo(() => items.filter((i) => selection[i.id]), [items, selection]);
  const bulk = bulkActions(caps, selected);

  const preview = useCallback((item: DocItem) => setDialog({ kind: 'preview', item }), []);
  useListedAddress({
    path,
    linkedName,
    replaceWith,
    searching: Boolean(debounced),
    listing,
    items,
    onPreview: preview,
  });

  const open = useCallback(
    (item: DocItem) => {
      // A deleted folder opens (with deleted items shown), to restore what is in it one item at a time.
      if (item.type === 'folder') goTo(item.link);
      else if (!item.deleted_at) preview(item);
    },
    [goTo, preview],
  );

  const { download, copyFolderUrl, copyClientFileUrl } = commands;
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
          return void copyFolderUrl(item.link);
        case 'copyClientUrl':
          return void copyClientFileUrl(item.link);
      }
    },
    [open, download, copyFolderUrl, copyClientFileUrl],
  );

  // Adding here: nothing goes into the system folder, and the company may block clients' actions in this
  // folder (items check their own paths).
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
    // noDrag, not disabled: a disabled zone marks the whole list it wraps aria-disabled, and screen
    // readers then announce the search, checkboxes, sort buttons and menus inside as disabled.
    noDrag: !here.upload.enabled || uploads.busy || dialog.kind === 'upload',
    onDrop: (files) => upload(files.map(entryOf)),
  });

  const itemCount = listing.data?.count ?? items.length;

  return (
    <Stack p="md" gap="md" data-testid="file-manager" data-role={caps.role}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h2" ref={heading} tabIndex={-1}>
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
          <GuardedButton
            verdict={here.createFolder}
            variant="default"
            onClick={() => setDialog({ kind: 'createFolder' })}
          >
            Add Folder
          </GuardedButton>
          <GuardedButton verdict={here.upload} onClick={() => setDialog({ kind: 'upload' })}>
            Add
          </GuardedButton>
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
              {/* A navigation landmark, as screen readers expect of breadcrumbs; the folder shown is the
                  current page of it. */}
              <Group component="nav" gap={4} aria-label="Breadcrumbs">
                {crumbs(path).map((c, i, all) => (
                  <Group key={c.path} gap={4}>
                    {i === all.length - 1 ? (
                      <Text fw={600} aria-current="page">
                        {c.name}
                      </Text>
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
                  <Button variant="subtle" size="xs" onClick={() => void copyFolderUrl(path)}>
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
              {/* A live region, on the page from the start (one added with its text is not announced): a
                  search's count is heard when it answers, 'No documents match your search.' as 0 items. */}
              <Text size="sm" c="dimmed" role="status" data-testid="item-count">
                {listing.data ? (
                  <>
                    {itemCount.toLocaleString()} {itemCount === 1 ? 'item' : 'items'}
                    {/* A search answers its first 500 matches: not the total, when more match. */}
                    {listing.data.more_matches ? ' shown; more match, refine your search' : ''}
                  </>
                ) : null}
              </Text>
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
              <BulkBar
                selected={selected}
                bulk={bulk}
                onAction={(kind) => setDialog({ kind, items: selected })}
                onClear={clearSelection}
              />
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
          </Stack>
        </div>
      </div>

      {/* A dialog whose opener went with what it changed (the bulk bar after a delete) gives focus here. */}
      <DialogFocusFallback.Provider value={focusHeading}>
        <FileManagerDialogs
          dialog={dialog}
          onClose={close}
          commands={commands}
          api={api}
          company={company}
          caps={caps}
          firmTags={firmTags}
          uploads={uploads}
          onUpload={upload}
          folderUpload={here.folderUpload}
        />
      </DialogFocusFallback.Provider>
    </Stack>
  );
}
