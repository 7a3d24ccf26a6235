import {
  Button,
  Checkbox,
  Dialog,
  type Entity,
  EntityCombobox,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@portico/kit';
import { type FormEvent, type ReactNode, useCallback, useState } from 'react';
import type { DocItem, DocumentsApi } from '../api/documents-api.js';
import type { Capabilities } from '../rules/capabilities.js';
import {
  isSystemFolderPath,
  normalizePath,
  parentPath,
  renamedName,
  sanitisedName,
  splitExtension,
} from '../rules/names.js';
import { FolderTree } from './FolderTree.js';

/** A dialog's busy flag, set while `work` runs (its submit button shows a spinner meanwhile). */
function useBusy(): [boolean, (work: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const whileBusy = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, whileBusy];
}

interface Base {
  onClose: () => void;
}

/** How far a bulk action over several items has got. */
export interface BulkProgress {
  done: number;
  total: number;
}

/** '120 of 10,000 done' beside the buttons while a bulk action over several items runs. */
function BulkProgressText({ progress }: { progress: BulkProgress | undefined }) {
  if (!progress || progress.total < 2) return null;
  return (
    <Text size="sm" c="dimmed" role="status" mr="auto">
      {progress.done.toLocaleString()} of {progress.total.toLocaleString()} done
    </Text>
  );
}

function Actions({
  onClose,
  submit,
  busy,
  danger,
  progress,
}: {
  onClose: () => void;
  submit: string;
  busy?: boolean;
  danger?: boolean;
  progress?: BulkProgress;
}) {
  return (
    <Group justify="flex-end" mt="md">
      <BulkProgressText progress={progress} />
      {/* While the action runs it cannot be taken back: Cancel would only hide it, and its end would
          close whatever dialog was open by then. */}
      <Button variant="default" onClick={onClose} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy} color={danger ? 'red.9' : undefined}>
        {submit}
      </Button>
    </Group>
  );
}

function Form({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

export const FOLDER_NAME_REQUIRED = 'Folder name is required';

export function CreateFolderDialog({
  onClose,
  onCreate,
}: Base & { onCreate: (name: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, whileBusy] = useBusy();
  return (
    <Dialog opened persistent={busy} onClose={onClose} title="Add Folder">
      <Form
        onSubmit={async () => {
          // Blank, or nothing left once sanitised as the service will ('###'): no name.
          if (!sanitisedName(name)) return setError(FOLDER_NAME_REQUIRED);
          await whileBusy(() => onCreate(name.trim()));
        }}
      >
        <TextInput
          label="Folder name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          data-autofocus
        />
        <Actions onClose={onClose} submit="Create" busy={busy} />
      </Form>
    </Dialog>
  );
}

/** Rename with the extension shown read-only: only the base name is edited (spec 1 s.5.5). */
export function RenameDialog({
  item,
  onClose,
  onRename,
}: Base & { item: DocItem; onRename: (newName: string) => Promise<void> }) {
  const folder = item.type === 'folder';
  const { base, ext } = splitExtension(item.name, folder);
  const [value, setValue] = useState(base);
  const [error, setError] = useState<string>();
  const [busy, whileBusy] = useBusy();
  return (
    <Dialog opened persistent={busy} onClose={onClose} title={folder ? 'Rename folder' : 'Rename file'}>
      <Form
        onSubmit={async () => {
          const result = renamedName(item.name, value, folder);
          if (result.error !== undefined) return setError(result.error);
          if (result.name === item.name) return onClose();
          await whileBusy(() => onRename(result.name));
        }}
      >
        <Group align="flex-start" wrap="nowrap" gap="xs">
          <TextInput
            style={{ flex: 1 }}
            label="Name"
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            data-autofocus
          />
          {ext ? <TextInput label="Extension" value={ext} readOnly w={90} aria-readonly /> : null}
        </Group>
        <Actions onClose={onClose} submit="Rename" busy={busy} />
      </Form>
    </Dialog>
  );
}

export function DescriptionDialog({
  item,
  onClose,
  onSave,
}: Base & { item: DocItem; onSave: (d: string) => Promise<void> }) {
  const [value, setValue] = useState(item.description ?? '');
  const [busy, whileBusy] = useBusy();
  return (
    <Dialog opened persistent={busy} onClose={onClose} title="Edit Description">
      <Form
        onSubmit={async () => {
          await whileBusy(() => onSave(value.trim()));
        }}
      >
        <Textarea
          label="Description"
          placeholder="Add a description"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={3}
        />
        <Actions onClose={onClose} submit="Save" busy={busy} />
      </Form>
    </Dialog>
  );
}

/** Spec 1 s.5.4, as the spec writes it. */
export const TAG_EXISTS = 'Tag already exist';

export function TagsDialog({
  item,
  firmTags,
  onClose,
  onSave,
}: Base & { item: DocItem; firmTags: string[]; onSave: (t: string[]) => Promise<void> }) {
  const [tags, setTags] = useState<string[]>(item.tags ?? []);
  const [extra, setExtra] = useState('');
  const [busy, whileBusy] = useBusy();
  const all = [...new Set([...firmTags, ...tags])];
  // Spec 1 s.5.4: Add is disabled for an empty tag or one that exists (in any case).
  const candidate = extra.trim();
  const exists = !!candidate && all.some((t) => t.toLowerCase() === candidate.toLowerCase());
  const toggle = (tag: string) =>
    setTags((t) => (t.includes(tag) ? t.filter((x) => x !== tag) : [...t, tag]));
  const canAdd = Boolean(candidate) && !exists;
  const addTag = () => {
    if (!canAdd) return;
    setTags([...tags, candidate]);
    setExtra('');
  };
  return (
    <Dialog opened persistent={busy} onClose={onClose} title="Edit Tags">
      <Form
        onSubmit={async () => {
          await whileBusy(() => onSave(tags));
        }}
      >
        <Stack gap="xs">
          {all.length === 0 ? (
            <Text size="sm" c="dimmed">
              No tags yet.
            </Text>
          ) : null}
          {all.map((tag) => (
            <Checkbox key={tag} label={tag} checked={tags.includes(tag)} onChange={() => toggle(tag)} />
          ))}
          <Group align="flex-end" gap="xs">
            <TextInput
              label="New tag"
              value={extra}
              onChange={(e) => setExtra(e.currentTarget.value)}
              // Enter here means the tag typed, not Save: the form would be saved without it.
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                addTag();
              }}
              error={exists ? TAG_EXISTS : undefined}
              style={{ flex: 1 }}
              maxLength={100}
            />
            <Button variant="light" disabled={!canAdd} onClick={addTag}>
              Add tag
            </Button>
          </Group>
        </Stack>
        <Actions onClose={onClose} submit="Save" busy={busy} />
      </Form>
    </Dialog>
  );
}

/** A question with Cancel and one action; the action's button shows it is busy until it settles. */
export function Confirm({
  title,
  text,
  submit,
  danger,
  progress,
  onClose,
  onConfirm,
}: Base & {
  title: string;
  text: ReactNode;
  submit: string;
  danger?: boolean;
  progress?: BulkProgress;
  onConfirm: () => Promise<void>;
}) {
  const [busy, whileBusy] = useBusy();
  return (
    <Dialog opened persistent={busy} onClose={onClose} title={title}>
      <Form
        onSubmit={async () => {
          await whileBusy(() => onConfirm());
        }}
      >
        {/* A sentence is a paragraph; a control (the convert checkbox) is not put inside one. */}
        {typeof text === 'string' ? <Text>{text}</Text> : text}
        <Actions onClose={onClose} submit={submit} busy={busy} danger={danger} progress={progress} />
      </Form>
    </Dialog>
  );
}

const describe = (items: DocItem[]) => (items.length === 1 ? `"${items[0]?.name}"` : `${items.length} items`);

export function DeleteDialog({
  items,
  progress,
  onClose,
  onConfirm,
}: Base & { items: DocItem[]; progress?: BulkProgress; onConfirm: () => Promise<void> }) {
  return (
    <Confirm
      title="Delete"
      text={`Are you sure you want to delete ${describe(items)}?`}
      submit="Delete"
      danger
      progress={progress}
      onClose={onClose}
      onConfirm={onConfirm}
    />
  );
}

export function RestoreDialog({
  items,
  progress,
  onClose,
  onConfirm,
}: Base & { items: DocItem[]; progress?: BulkProgress; onConfirm: () => Promise<void> }) {
  return (
    <Confirm
      title="Restore"
      text={`Restore ${describe(items)}?`}
      submit="Restore"
      progress={progress}
      onClose={onClose}
      onConfirm={onConfirm}
    />
  );
}

export function ConvertDownloadDialog({
  onClose,
  onDownload,
}: Base & { onDownload: (convert: boolean) => Promise<void> }) {
  const [convert, setConvert] = useState(false);
  return (
    <Confirm
      title="Download"
      text={
        <Checkbox
          label="Convert images to PDF"
          checked={convert}
          onChange={(e) => setConvert(e.currentTarget.checked)}
        />
      }
      submit="Download"
      onClose={onClose}
      onConfirm={() => onDownload(convert)}
    />
  );
}

/** Where a move or copy goes: a folder of this company or, for advisors, of another company of the firm. */
export interface Destination {
  path: string;
  company: Entity;
}

/**
 * Move or copy with a location picker: for advisors a company selector (the firm's companies), then the
 * folder tree of the chosen company. An item cannot go into itself, nor into the system folder: a file
 * filed there starts at All Files.
 */
export function MoveCopyDialog({
  mode,
  items,
  api,
  company,
  caps,
  progress,
  onClose,
  onConfirm,
}: Base & {
  mode: 'move' | 'copy';
  items: DocItem[];
  api: DocumentsApi;
  company: Entity;
  caps: Capabilities;
  progress?: BulkProgress;
  onConfirm: (destination: Destination) => Promise<void>;
}) {
  const from = normalizePath(items[0]?.path ?? parentPath(items[0]?.link ?? '/'));
  const start = isSystemFolderPath(from) ? '/' : from;
  const [target, setTarget] = useState(start);
  const [targetCompany, setTargetCompany] = useState<Entity>(company);
  const [busy, whileBusy] = useBusy();
  const sameCompany = targetCompany.id === company.id;
  const folders = items.filter((i) => i.type === 'folder').map((i) => normalizePath(i.link));
  // Not into itself, not into the system folder, and for a client not into a folder the company blocks
  // (the service refuses all three).
  const blocked = (p: string) =>
    (sameCompany && folders.some((f) => p === f || p.startsWith(`${f}/`))) ||
    isSystemFolderPath(p) ||
    caps.blockedAt(p);
  const verb = mode === 'move' ? 'Move' : 'Copy';
  return (
    <Dialog opened persistent={busy} onClose={onClose} title={`${verb} ${describe(items)}`} size="wide">
      <Form
        onSubmit={async () => {
          await whileBusy(() => onConfirm({ path: target, company: targetCompany }));
        }}
      >
        {caps.otherCompanies ? (
          <Stack gap={4} mb="sm" data-testid="company-selector">
            <EntityCombobox
              label="Company"
              placeholder="Search companies"
              value={targetCompany}
              onChange={(next) => {
                setTargetCompany(next);
                setTarget(next.id === company.id ? start : '/');
              }}
            />
            <Text size="xs" c="dimmed">
              {sameCompany ? 'This company' : 'Another company of the firm'}: {targetCompany.name}
            </Text>
          </Stack>
        ) : null}
        <Text size="sm" mb="xs">
          Choose a location: <b>{target === '/' ? 'All Files' : target}</b>
        </Text>
        {/* Tall enough from the start for the company list to open over it. */}
        <div style={{ maxHeight: 360, minHeight: caps.otherCompanies ? 240 : undefined, overflow: 'auto' }}>
          <FolderTree
            key={targetCompany.id}
            api={api}
            companyId={targetCompany.id}
            caps={caps}
            current={target}
            onSelect={(p) => !blocked(p) && setTarget(p)}
            disabled={blocked}
            hideSystem
            label="Location"
          />
        </div>
        <Group justify="flex-end" mt="md">
          <BulkProgressText progress={progress} />
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            loading={busy}
            disabled={(mode === 'move' && sameCompany && target === from) || blocked(target)}
          >
            {verb} here
          </Button>
        </Group>
      </Form>
    </Dialog>
  );
}
