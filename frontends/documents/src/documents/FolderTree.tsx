import { Box, Button, Group, Loader, Stack, Text, UnstyledButton } from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import type { Capabilities } from '../rules/capabilities.js';
import { visibleItems } from '../rules/capabilities.js';
import { isInSystemFolder, isStaffOnly, normalizePath } from '../rules/names.js';
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

/**
 * The folder tree: the All Files header (the root), a Home button and lazily loaded sub-folders. The
 * tree holds only tree items and groups (ARIA): Home is beside it, and a folder opens from its item
 * (ArrowRight / ArrowLeft, or the chevron with a pointer) rather than from a button of its own.
 */
export function FolderTree(props: TreeProps) {
  const { current, onSelect } = props;
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <Stack gap={4} aria-label={props.label ?? 'Folders'} role="tree" style={{ flex: 1, minWidth: 0 }}>
        <UnstyledButton
          onClick={() => onSelect('/')}
          fw={current === '/' ? 700 : 500}
          role="treeitem"
          aria-selected={current === '/'}
        >
          All Files
        </UnstyledButton>
        <Children {...props} path="/" depth={0} />
      </Stack>
      <Button size="compact-xs" variant="subtle" onClick={() => onSelect('/')}>
        Home
      </Button>
    </Group>
  );
}

function Children(props: TreeProps & { path: string; depth: number }) {
  const { api, companyId, caps, path, hideSystem } = props;
  const folders = useQuery({
    queryKey: [...folderKey(companyId, path), hideSystem ? 'targets' : 'all'],
    queryFn: async () => {
      const list = await api.list(companyId, path === '/' ? '' : path, false);
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
        <UnstyledButton role="treeitem" pl={props.depth * 14 + 20} onClick={() => void folders.refetch()}>
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

function Node(
  props: TreeProps & { path: string; depth: number; name: string; staffOnly: boolean; hasChildren: boolean },
) {
  const { path, current, depth } = props;
  const onPath = normalizePath(current) === path || normalizePath(current).startsWith(`${path}/`);
  const [open, setOpen] = useState(onPath);
  const disabled = props.disabled?.(path) ?? false;
  const selected = normalizePath(current) === path;
  return (
    <Box>
      <Group gap={4} wrap="nowrap" pl={depth * 14}>
        <Box
          component="span"
          aria-hidden
          onClick={() => setOpen((o) => !o)}
          style={{ visibility: props.hasChildren ? 'visible' : 'hidden', cursor: 'pointer', display: 'flex' }}
          w={16}
        >
          <ChevronIcon open={open} />
        </Box>
        <UnstyledButton
          role="treeitem"
          aria-selected={selected}
          aria-expanded={props.hasChildren ? open : undefined}
          aria-disabled={disabled || undefined}
          disabled={disabled}
          onKeyDown={(event) => {
            const next = event.key === 'ArrowRight' ? true : event.key === 'ArrowLeft' ? false : undefined;
            if (next === undefined || !props.hasChildren) return;
            event.preventDefault();
            setOpen(next);
          }}
          onClick={() => {
            props.onSelect(path);
            setOpen(true);
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
