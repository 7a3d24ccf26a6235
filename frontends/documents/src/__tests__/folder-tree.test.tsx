import { describe, expect, it, jest } from '@jest/globals';
import { renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { documentsApi } from '../api/documents-api.js';
import { FolderTree, foldersOnPath } from '../documents/FolderTree.js';
import { capabilitiesFor } from '../rules/capabilities.js';
import { anItem, fakeApi } from './fixtures.js';

/** A company with 2023 and 2024 at the top, and Receipts and W-2s in 2024. */
const FOLDERS: Record<string, { name: string; items: number }[]> = {
  '': [
    { name: '2023', items: 0 },
    { name: '2024', items: 2 },
  ],
  '/2024': [
    { name: 'Receipts', items: 0 },
    { name: 'W-2s', items: 0 },
  ],
};

function showTree(current = '/') {
  const gw = fakeApi((call) => {
    if (call.path !== '/integrations/get_documents') return undefined;
    const path = String(call.body.path);
    const documents = (FOLDERS[path] ?? []).map(({ name, items }) =>
      anItem({ type: 'folder', name, path: path || '/', items_count: items }),
    );
    return { body: { documents, path: path || '/', count: documents.length } };
  });
  const onSelect = jest.fn<(path: string) => void>();
  renderWithClient(
    <FolderTree
      api={documentsApi(gw.client)}
      companyId="c-1"
      caps={capabilitiesFor({ role: 'advisor' })}
      current={current}
      onSelect={onSelect}
    />,
    gw.client,
  );
  return { onSelect, tree: screen.getByRole('tree', { name: 'Folders' }) };
}

/** The name of the item the tree's keys are on. */
const activeName = (tree: HTMLElement) => {
  const id = tree.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.textContent : undefined;
};

const press = (tree: HTMLElement, key: string) => act(() => void fireEvent.keyDown(tree, { key }));

/** Presses each key in turn and checks the item the keys are then on. */
function walk(tree: HTMLElement, steps: [key: string, then: string][]) {
  for (const [key, then] of steps) {
    press(tree, key);
    expect([key, activeName(tree)]).toEqual([key, then]);
  }
}

describe('folder tree', () => {
  it('names the folders on a path, outermost first', () => {
    expect(foldersOnPath('/2024/Receipts/March')).toEqual([
      '/2024',
      '/2024/Receipts',
      '/2024/Receipts/March',
    ]);
    expect(foldersOnPath('/')).toEqual([]);
  });

  it('is one stop in the tab order, its items reached with the arrow keys, Home and End', async () => {
    const { tree } = showTree();
    await within(tree).findByRole('treeitem', { name: '2024' });
    expect(tree.tabIndex).toBe(0);
    for (const item of within(tree).getAllByRole('treeitem')) expect(item.tabIndex).toBe(-1);
    expect(tree.getAttribute('aria-activedescendant')).toBeNull();

    act(() => tree.focus());
    // On focus the keys start from the chosen folder.
    expect(activeName(tree)).toBe('All Files');
    walk(tree, [
      ['ArrowDown', '2023'],
      ['End', '2024'],
      ['ArrowDown', '2024'],
      ['Home', 'All Files'],
      ['ArrowUp', 'All Files'],
    ]);
    act(() => tree.blur());
    expect(tree.getAttribute('aria-activedescendant')).toBeNull();
  });

  it('opens a folder with Right, goes into it with Right again, and back out with Left', async () => {
    const { tree } = showTree();
    const year = await within(tree).findByRole('treeitem', { name: '2024' });
    act(() => tree.focus());
    press(tree, 'End');
    expect(year.getAttribute('aria-expanded')).toBe('false');
    press(tree, 'ArrowRight');
    expect(year.getAttribute('aria-expanded')).toBe('true');
    await within(tree).findByRole('treeitem', { name: 'Receipts' });
    expect(activeName(tree)).toBe('2024');
    // Left on a folder without sub-folders goes to its parent; on an open folder it closes it.
    walk(tree, [
      ['ArrowRight', 'Receipts'],
      ['ArrowDown', 'W-2s'],
      ['ArrowLeft', '2024'],
    ]);
    press(tree, 'ArrowLeft');
    expect(year.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).queryByRole('treeitem', { name: 'Receipts' })).toBeNull();
    press(tree, 'ArrowLeft');
    expect(activeName(tree)).toBe('All Files');
  });

  it('chooses the item the keys are on with Enter or Space', async () => {
    const { tree, onSelect } = showTree();
    await within(tree).findByRole('treeitem', { name: '2023' });
    act(() => tree.focus());
    press(tree, 'ArrowDown');
    press(tree, 'Enter');
    expect(onSelect).toHaveBeenLastCalledWith('/2023');
    press(tree, 'ArrowUp');
    press(tree, ' ');
    expect(onSelect).toHaveBeenLastCalledWith('/');
  });

  it('shows the current folder open, with the folders above it, and the keys go on from a clicked item', async () => {
    const { tree } = showTree('/2024/Receipts');
    const receipts = await within(tree).findByRole('treeitem', { name: 'Receipts' });
    expect(receipts.getAttribute('aria-selected')).toBe('true');
    act(() => tree.focus());
    expect(activeName(tree)).toBe('Receipts');
    fireEvent.click(within(tree).getByRole('treeitem', { name: '2023' }));
    await waitFor(() => expect(document.activeElement).toBe(tree));
    expect(activeName(tree)).toBe('2023');
    press(tree, 'ArrowDown');
    expect(activeName(tree)).toBe('2024');
  });
});
