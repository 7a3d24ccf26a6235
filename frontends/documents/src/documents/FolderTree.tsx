import { Box, Button, Group, Loader, Stack, Text, UnstyledButton } from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import type { Capabilities } from '../rules/capabilities.js';
import { visibleItems } from '../rules/capabilities.js';
import { apiFolder, isInSystemFolder, isStaffOnly, normalizePath } from '../rules/names.js';
import './folder-tree.css';
import { ChevronIcon, FolderIcon, LockIcon } from './icons.js';

export interface TreeProps {
  api: DocumentsApi;
  companyId: string;
  caps: Capabilities;
  /** The highlighted folder. */
  current: string;
  onSelect: (path: string) => void;
  /** Folders that cannot be chosen (a move's own folder and what is below it). */
  disabled?: (path: string) => boolean;
  /** Leave out the system folder: a move or copy never goes there. */
  hideSystem?: boolean;
  label?: string;
}

export const folderKey = (companyId: string, path: string) =>
  ['documents', companyId, 'folders', path] as const;

/** A folder and the folders above it, outermost first: '/a/b/c' -> ['/a', '/a/b', '/a/b/c']; none for '/'. */
export function foldersOnPath(path: string): string[] {
  const parts = normalizePath(path).split('/').filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/** What every level of the tree shares: which folders are open, and the item the keys are on. */
interface TreeState {
  expanded: ReadonlySet<string>;
  setOpen: (path: string, open: boolean) => void;
  /** The item the arrow keys are on while the tree has focus, else undefined. */
  active: string | undefined;
  idOf: (path: string) => string;
  /** A pointer chose this item: the keys go on from it. */
  touch: (path: string) => void;
}

type LevelProps = TreeProps & { tree: TreeState; path: string; depth: number };

/**
 * The folder tree: the All Files header (the root), a Home button and lazily loaded sub-folders. The
 * tree holds only tree items and groups (ARIA): Home is beside it. The tree is one stop in the tab order
 * and its items are reached with the keys of the ARIA tree pattern (aria-activedescendant): Up and Down,
 * Home and End, Right opens a folder or goes to its first sub-folder, Left closes it or goes to its
 * parent, Enter or Space chooses. With a pointer, the chevron opens and closes, the name chooses. The
 * current folder and the folders above it are open.
 */
export function FolderTree(props: TreeProps) {
  const { current, onSelect } = props;
  const treeRef = useRef<HTMLDivElement>(null);
  const prefix = useId();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(foldersOnPath(current)));
  const [active, setActive] = useState<string>();
  const [focused, setFocused] = useState(false);

  // A folder chosen elsewhere (the list, a link) shows in the tree: it and the folders above it open.
  useEffect(() => {
    const above = foldersOnPath(current);
    setExpanded((open) => (above.every((p) => open.has(p)) ? open : new Set([...open, ...above])));
  }, [current]);

  const setOpen = useCallback((path: string, open: boolean) => {
    setExpanded((now) => {
      if (now.has(path) === open) return now;
      const next = new Set(now);
      if (open) next.add(path);
      else next.delete(path);
      return next;
    });
  }, []);
  const idOf = useCallback((path: string) => `${prefix}${encodeURIComponent(path)}`, [prefix]);
  const touch = useCallback((path: string) => {
    setActive(path);
    treeRef.current?.focus({ preventScroll: true });
  }, []);

  /** The items shown, in order, and the one the keys are on (else the chosen one, else the first). */
  const itemsNow = () => {
    const items = Array.from(treeRef.current?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? []);
    const here =
      items.find((el) => el.dataset.path === active) ??
      items.find((el) => el.getAttribute('aria-selected') === 'true') ??
      items[0];
    return { items, here };
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const { items, here } = itemsNow();
    if (!here) return;
    const at = items.indexOf(here);
    const path = here.dataset.path ?? '/';
    const expandedNow = here.getAttribute('aria-expanded');
    let next: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = items[at + 1];
        break;
      case 'ArrowUp':
        next = items[at - 1];
        break;
      case 'Home':
        next = items[0];
        break;
      case 'End':
        next = items.at(-1);
        break;
      case 'ArrowRight':
        if (expandedNow === 'false') setOpen(path, true);
        else if (expandedNow === 'true' && items[at + 1]?.dataset.parent === path) next = items[at + 1];
        break;
      case 'ArrowLeft':
        if (expandedNow === 'true') setOpen(path, false);
        else next = items.find((el) => el.dataset.path === here.dataset.parent);
        break;
      case 'Enter':
      case ' ':
        here.click();
        break;
      default:
        return;
    }
    event.preventDefault();
    const target = next ?? here;
    setActive(target.dataset.path);
    target.scrollIntoView?.({ block: 'nearest' });
  };

  const tree: TreeState = { expanded, setOpen, active: focused ? active : undefined, idOf, touch };
  const rootActive = tree.active === '/';
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <Stack
        ref={treeRef}
        gap={4}
        aria-label={props.label ?? 'Folders'}
        role="tree"
        tabIndex={0}
        className="portico-tree"
        aria-activedescendant={tree.active === undefined ? undefined : idOf(tree.active)}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          if (event.target !== event.currentTarget) return;
          setFocused(true);
          setActive(itemsNow().here?.dataset.path);
        }}
        onBlur={(event) => {
          if (event.target === event.currentTarget) setFocused(false);
        }}
        style={{ flex: 1, minWidth: 0 }}
      >
        <UnstyledButton
          id={idOf('/')}
          data-path="/"
          data-active={rootActive || undefined}
          tabIndex={-1}
          onClick={() => {
            touch('/');
            onSelect('/');
          }}
          fw={current === '/' ? 700 : 500}
          role="treeitem"
          aria-selected={current === '/'}
        >
          All Files
        </UnstyledButton>
        <Children {...props} tree={tree} path="/" depth={0} />
      </Stack>
      <Button size="compact-xs" variant="subtle" onClick={() => onSelect('/')}>
        Home
      </Button>
    </Group>
  );
}

function Children(props: LevelProps) {
  const { api, companyId, caps, path, hideSystem, tree } = props;
  const folders = useQuery({
    queryKey: [...folderKey(companyId, path), hideSystem ? 'targets' : 'all'],
    queryFn: async () => {
      const list = await api.list(companyId, apiFolder(path), false);
      return visibleItems(
        caps,
        list.documents.filter(
          (d) => d.type === 'folder' && !d.deleted_at && !(hideSystem && isInSystemFolder(d)),
        ),
      ).sort((a, b) => a.name.localeCompare(b.name));
    },
    staleTime: 30_000,
  });
  if (folders.isPending) return <Loader size="xs" ml={props.depth * 14 + 18} aria-label="Loading folders" />;
  // A tree holds only tree items (ARIA): the failure is one, which asks again when chosen. Without it a
  // slow or absent service left the tree, and the move dialog's location picker, silently empty.
  if (folders.isError)
    return (
      <Stack gap={0} role="group">
        <UnstyledButton
          role="treeitem"
          id={tree.idOf(`${path}#retry`)}
          data-path={`${path}#retry`}
          data-parent={path}
          data-active={tree.active === `${path}#retry` || undefined}
          tabIndex={-1}
          pl={props.depth * 14 + 20}
          onClick={() => {
            tree.touch(`${path}#retry`);
            void folders.refetch();
          }}
        >
          <Text size="xs" c="red.9">
            Folders could not be loaded.{' '}
            <Text span inherit td="underline">
              Try again
            </Text>
          </Text>
        </UnstyledButton>
      </Stack>
    );
  return (
    <Stack gap={0} role="group">
      {folders.data.map((f) => (
        <Node
          key={f.id}
          {...props}
          path={f.link}
          name={f.name}
          staffOnly={isStaffOnly(f)}
          hasChildren={f.items_count > 0}
        />
      ))}
    </Stack>
  );
}

function Node(props: LevelProps & { name: string; staffOnly: boolean; hasChildren: boolean }) {
  const { path, current, depth, tree } = props;
  const parent = depth === 0 ? '/' : path.slice(0, path.lastIndexOf('/'));
  const open = tree.expanded.has(path);
  const disabled = props.disabled?.(path) ?? false;
  const selected = normalizePath(current) === path;
  return (
    <Box>
      <Group gap={4} wrap="nowrap" pl={depth * 14}>
        <Box
          component="span"
          aria-hidden
          onClick={() => tree.setOpen(path, !open)}
          style={{ visibility: props.hasChildren ? 'visible' : 'hidden', cursor: 'pointer', display: 'flex' }}
          w={16}
        >
          <ChevronIcon open={open} />
        </Box>
        <UnstyledButton
          role="treeitem"
          id={tree.idOf(path)}
          data-path={path}
          data-parent={parent}
          data-active={tree.active === path || undefined}
          tabIndex={-1}
          aria-selected={selected}
          aria-expanded={props.hasChildren ? open : undefined}
          aria-disabled={disabled || undefined}
          disabled={disabled}
          onClick={() => {
            tree.touch(path);
            props.onSelect(path);
            tree.setOpen(path, true);
          }}
          style={{ opacity: disabled ? 0.5 : 1 }}
        >
          <Group gap={6} wrap="nowrap">
            <FolderIcon size={16} />
            <Text size="sm" fw={selected ? 700 : 400} truncate>
              {props.name}
            </Text>
            {props.staffOnly ? <LockIcon /> : null}
          </Group>
        </UnstyledButton>
      </Group>
      {open && props.hasChildren ? <Children {...props} path={path} depth={depth + 1} /> : null}
    </Box>
  );
}
