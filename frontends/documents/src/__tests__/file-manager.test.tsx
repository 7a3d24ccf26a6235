import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { reportProgress } from '@portico/kit';
import { renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { documentsApi } from '../api/documents-api.js';
import { FileManager } from '../documents/FileManager.js';
import { BULK_PARALLEL_CALLS, MESSAGES } from '../documents/file-manager.messages.js';
import { capabilitiesFor, DISABLED_BY_FIRM } from '../rules/capabilities.js';
import { MIXED_SELECTION } from '../rules/selection.js';
import { saveView, VIEW_COOKIE } from '../rules/view-preference.js';
import { aCompany, anItem, fakeApi, SLOW_SERVICE_TEXT, slowServiceAnswer } from './fixtures.js';

const live = anItem({ name: 'W-2 2024.pdf' });
const gone = anItem({ name: 'old.pdf', deleted_at: '2024-01-02T00:00:00Z' });
const staff = anItem({ type: 'folder', name: 'Tax Returns (STAFF ONLY)', items_count: 0 });
const fresh = anItem({ name: 'fresh.pdf', created_at: new Date().toISOString() });

function listing(extra: NonNullable<Parameters<typeof fakeApi>[0]> = () => undefined) {
  return fakeApi((call) => {
    if (call.path === '/integrations/get_documents') {
      const docs = [staff, live, fresh, ...(call.body.showWithDeleted ? [gone] : [])];
      return { body: { documents: docs, path: '/', count: docs.length } };
    }
    if (call.path === '/integrations/search_documents')
      return { body: { documents: [live], path: '/', count: 1 } };
    return extra(call);
  });
}

function show(role: 'advisor' | 'client', prefs: Record<string, unknown> = {}) {
  const gw = listing((call) =>
    call.path === '/integrations/rename_item' ? { body: { document: live, message: '' } } : undefined,
  );
  renderWithClient(
    <FileManager
      api={documentsApi(gw.client)}
      company={aCompany()}
      caps={capabilitiesFor({ role, preferences: prefs })}
    />,
    gw.client,
  );
  return gw;
}

const table = () => screen.findByTestId('documents-table');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Tabs from where the focus is until `target` has it, failing past `limit` stops. */
async function tabTo(user: ReturnType<typeof userEvent.setup>, target: HTMLElement, limit = 30) {
  for (let i = 0; i < limit && document.activeElement !== target; i++) await user.tab();
  expect(document.activeElement).toBe(target);
}

/** Moves through an open menu with the arrow keys until `name` has the focus, failing past `limit` keys. */
async function arrowTo(user: ReturnType<typeof userEvent.setup>, name: string, limit = 15) {
  for (let i = 0; i < limit && document.activeElement?.getAttribute('aria-label') !== name; i++)
    await user.keyboard('{ArrowDown}');
  expect(document.activeElement?.getAttribute('role')).toBe('menuitem');
  expect(document.activeElement?.getAttribute('aria-label')).toBe(name);
}

/** An advisor's file manager on the fake gateway `gw`, at the address `path` (its query names the folder). */
function renderAdvisor(gw: ReturnType<typeof fakeApi>, path = '/') {
  return renderWithClient(
    <FileManager
      api={documentsApi(gw.client)}
      company={aCompany()}
      caps={capabilitiesFor({ role: 'advisor', preferences: {} })}
    />,
    gw.client,
    path,
  );
}

// A test that chose the grid and failed before choosing the list again would leave every later one in it.
afterEach(() => saveView('list'));

describe('file manager search', () => {
  it('says when more items match than a search answers', async () => {
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents')
        return { body: { documents: [live], path: '/', count: 1 } };
      if (call.path === '/integrations/search_documents')
        return { body: { documents: [live], path: '/', count: 500, more_matches: true } };
      return undefined;
    });
    renderAdvisor(gw);
    await table();
    fireEvent.change(screen.getByPlaceholderText(/Search/), { target: { value: 'scan' } });
    await waitFor(() =>
      expect(screen.getByTestId('item-count').textContent).toBe(
        '500 items shown; more match, refine your search',
      ),
    );
  });

  it("announces a search's count once it answers, none as 0 items", async () => {
    const user = userEvent.setup();
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents')
        return { body: { documents: [live, fresh], path: '/', count: 2 } };
      if (call.path === '/integrations/search_documents') {
        const docs = call.body.searchTerm === 'W-2' ? [live] : [];
        return { body: { documents: docs, path: '/', count: docs.length } };
      }
      return undefined;
    });
    renderAdvisor(gw);
    await table();
    // A live region from the start: one that appears with its text is not announced. (The page's
    // own, not the toasts'.)
    const count = () => within(screen.getByTestId('file-manager')).getByRole('status');
    const status = count();
    expect(status.textContent).toBe('2 items');
    await user.type(screen.getByRole('textbox', { name: 'Search documents' }), 'W-2');
    await waitFor(() => expect(count().textContent).toBe('1 item'));
    expect(count()).toBe(status);
    await user.type(screen.getByRole('textbox', { name: 'Search documents' }), 'x');
    await waitFor(() => expect(count().textContent).toBe('0 items'));
    expect(screen.getByText('No documents match your search.')).toBeTruthy();
  });
});

describe('file manager', () => {
  it('gives advisors Include deleted files, copy URL and the description and tag columns', async () => {
    show('advisor');
    const t = await table();
    expect(within(t).getByText('Description')).toBeTruthy();
    expect(within(t).getByText('Tags')).toBeTruthy();
    expect(within(t).getAllByText('Add a description').length).toBeGreaterThan(0);
    expect(within(t).getByTestId('staff-only-lock')).toBeTruthy();
    expect(within(t).getByText('New')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy folder URL' })).toBeTruthy();
    expect(screen.getByTestId('item-count').textContent).toBe('3 items');
    fireEvent.click(screen.getByRole('switch', { name: 'Include deleted files' }));
    expect(await within(await table()).findByText('Deleted')).toBeTruthy();
    expect(screen.getByTestId('item-count').textContent).toBe('4 items');
    // A deleted file's description is not offered for editing (its menu has no Edit Description either).
    const deletedRow = within(await table())
      .getByText('old.pdf')
      .closest('tr') as HTMLElement;
    expect(within(deletedRow).queryByText('Add a description')).toBeNull();
    expect(
      within(deletedRow)
        .queryAllByRole('button')
        .map((b) => b.textContent),
    ).not.toContain('Add a description');
  });

  it("names each row's description button with its file as well", async () => {
    const described = anItem({ name: '1099-INT.pdf', description: 'Interest from the bank' });
    const gw = fakeApi((call) =>
      call.path === '/integrations/get_documents'
        ? { body: { documents: [live, described], path: '/', count: 2 } }
        : undefined,
    );
    renderAdvisor(gw);
    const t = await table();
    const add = within(t).getByRole('button', { name: 'Add a description, W-2 2024.pdf' });
    expect(add.textContent).toBe('Add a description');
    const edit = within(t).getByRole('button', { name: 'Interest from the bank, 1099-INT.pdf' });
    expect(edit.textContent).toBe('Interest from the bank');
  });

  it('shows clients no advisor pieces and no STAFF ONLY folder', async () => {
    show('client');
    const t = await table();
    expect(within(t).getByText('W-2 2024.pdf')).toBeTruthy();
    expect(within(t).queryByText('Tax Returns (STAFF ONLY)')).toBeNull();
    expect(within(t).queryByText('Description')).toBeNull();
    expect(within(t).queryByText('Add a description')).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Include deleted files' })).toBeNull();
  });

  it("keeps a client's Add Folder disabled by firm within the keyboard's reach, saying why, doing nothing", async () => {
    const user = userEvent.setup();
    show('client', { disable_folder_action: true });
    await table();
    const add = screen.getByRole('button', { name: 'Add Folder', description: DISABLED_BY_FIRM });
    expect(add.getAttribute('aria-disabled')).toBe('true');
    await tabTo(user, add);
    await user.keyboard('{Enter}');
    await user.click(add);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("disables a client's actions in a folder the company blocks, and in that folder's row", async () => {
    const locked = anItem({ type: 'folder', name: 'Locked', items_count: 1 });
    const inside = anItem({ name: 'letter.pdf', path: '/Locked' });
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/get_documents') return undefined;
      const docs = call.body.path === '/Locked' ? [inside] : [locked, live];
      return { body: { documents: docs, path: call.body.path, count: docs.length } };
    });
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={aCompany()}
        caps={capabilitiesFor({ role: 'client', blockedFolders: ['/Locked'] })}
      />,
      gw.client,
    );
    await within(await table()).findByText('Locked');
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actions for Locked' }));
    // The arrow keys reach a refused action (they skipped it), its reason written under it and read with it.
    await arrowTo(user, 'Delete');
    const remove = screen.getByRole('menuitem', { name: 'Delete', description: DISABLED_BY_FIRM });
    expect(document.activeElement).toBe(remove);
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(within(remove).getByText(DISABLED_BY_FIRM)).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.keyboard('{Escape}');
    fireEvent.click(within(await table()).getByText('Locked'));
    await within(await table()).findByText('letter.pdf');
    const add = screen.getByRole('button', { name: 'Add', description: DISABLED_BY_FIRM });
    expect(add.getAttribute('aria-disabled')).toBe('true');
  });

  it('lists a folder asked in another case as stored, and says so when a folder does not exist', async () => {
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/get_documents') return undefined;
      const asked = String(call.body.path).toLowerCase();
      if (asked === '/taxes') return { body: { documents: [live], path: '/Taxes', count: 1 } };
      if (asked === '') return { body: { documents: [], path: '/', count: 0 } };
      return { status: 404, body: { error: 'Folder not found', message: 'Folder not found' } };
    });
    const view = renderAdvisor(gw, '/?path=/TAXES');
    await within(await table()).findByText('W-2 2024.pdf');
    // The address takes the stored spelling, so the breadcrumb and copied URLs show it.
    await waitFor(() =>
      expect(
        gw.calls.filter((c) => c.path === '/integrations/get_documents').map((c) => c.body.path),
      ).toContain('/Taxes'),
    );
    expect(await screen.findByText('Taxes')).toBeTruthy();
    view.unmount();

    const missing = fakeApi((call) =>
      call.path === '/integrations/get_documents' && call.body.path
        ? { status: 404, body: { error: 'Folder not found', message: 'Folder not found' } }
        : call.path === '/integrations/get_documents'
          ? { body: { documents: [live], path: '/', count: 1 } }
          : undefined,
    );
    renderAdvisor(missing, '/?path=/Gone');
    expect(await screen.findByText('Folder not found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to All Files' }));
    await within(await table()).findByText('W-2 2024.pdf');
  });

  it("says why a listing failed when a service is slow, with no count, and lists on 'Try again'", async () => {
    let answered = false;
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/get_documents') return undefined;
      if (!answered) return slowServiceAnswer();
      return { body: { documents: [live], path: '/', count: 1 } };
    });
    renderAdvisor(gw);
    expect((await screen.findByRole('alert')).textContent).toBe(SLOW_SERVICE_TEXT);
    expect(screen.getByTestId('item-count').textContent).toBe('');
    expect(screen.queryByRole('button', { name: 'Go to All Files' })).toBeNull();
    const tree = screen.getByRole('tree', { name: 'Folders' });
    expect(await within(tree).findByRole('treeitem', { name: /could not be loaded/ })).toBeTruthy();
    answered = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await within(await table()).findByText('W-2 2024.pdf');
    expect(screen.getByTestId('item-count').textContent).toBe('1 item');
    // The tree, which failed with the listing, is asked again too.
    await waitFor(() =>
      expect(
        within(screen.getByRole('tree', { name: 'Folders' })).queryByRole('treeitem', {
          name: /could not be loaded/,
        }),
      ).toBeNull(),
    );
  });

  it("says when the folder tree could not be loaded, and loads it on 'Try again'", async () => {
    let answered = false;
    const folder = anItem({ type: 'folder', name: 'Receipts', items_count: 0 });
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/get_documents') return undefined;
      if (!answered) return { status: 503, body: { error: 'down', message: 'down' } };
      return { body: { documents: [folder, live], path: '/', count: 2 } };
    });
    renderAdvisor(gw);
    const tree = await screen.findByRole('tree', { name: 'Folders' });
    const failed = await within(tree).findByRole('treeitem', { name: /Folders could not be loaded/ });
    answered = true;
    fireEvent.click(failed);
    expect(await within(tree).findByRole('treeitem', { name: 'Receipts' })).toBeTruthy();
  });

  it('opens a deleted folder while deleted items are shown, but not a deleted file', async () => {
    const binned = anItem({ type: 'folder', name: 'Binned', deleted_at: '2024-01-02T00:00:00Z' });
    const inside = anItem({ name: 'kept.pdf', path: '/Binned', deleted_at: '2024-01-02T00:00:00Z' });
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/get_documents') return undefined;
      const docs =
        call.body.path === '/Binned'
          ? [inside]
          : [live, ...(call.body.showWithDeleted ? [binned, gone] : [])];
      return { body: { documents: docs, path: call.body.path || '/', count: docs.length } };
    });
    renderAdvisor(gw);
    await table();
    fireEvent.click(screen.getByRole('switch', { name: 'Include deleted files' }));
    const t = await table();
    expect(within(t).getByRole('button', { name: 'old.pdf' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(await within(t).findByRole('button', { name: 'Binned' }));
    expect(await within(await table()).findByText('kept.pdf')).toBeTruthy();
    expect(gw.calls.some((c) => c.path === '/integrations/get_documents' && c.body.path === '/Binned')).toBe(
      true,
    );
  });

  it('offers no bulk action on a mix of deleted and live items', async () => {
    show('advisor');
    await table();
    fireEvent.click(screen.getByRole('switch', { name: 'Include deleted files' }));
    await within(await table()).findByText('Deleted');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select W-2 2024.pdf' }));
    const bar = await screen.findByTestId('bulk-bar');
    expect(within(bar).getByRole('button', { name: 'Delete' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select old.pdf' }));
    await waitFor(() => expect(within(bar).getByText(MIXED_SELECTION)).toBeTruthy());
    expect(within(bar).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Restore' })).toBeNull();
  });

  it('builds a zip in the background: the notice at once, then the download and a notification, or the refusal', async () => {
    let finish: (answer: { status?: number; body: unknown }) => void = () => {};
    const gw = listing((call) =>
      call.path === '/integrations/download_folder' ||
      call.path === '/integrations/download_multiple_documents'
        ? new Promise((resolve) => {
            finish = resolve;
          })
        : undefined,
    );
    renderAdvisor(gw);
    await table();
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.href);
    });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Download folder' }));
      const dialog = await screen.findByRole('dialog', { name: 'Download' });
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Convert images to PDF' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
      // The dialog closes and says what will happen, with a spinner while the zip is built.
      const pending = (await screen.findByText(MESSAGES.zipPending)).closest('[data-toast]') as HTMLElement;
      expect(pending.getAttribute('data-toast')).toBe('pending');
      expect(pending.querySelector('.mantine-Notification-loader')).not.toBeNull();
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Download' })).toBeNull());
      await waitFor(() =>
        expect(gw.calls.find((c) => c.path === '/integrations/download_folder')?.body).toEqual({
          companyId: aCompany().id,
          path: '',
          convertImagesToPdf: true,
          progressId: expect.stringMatching(UUID),
        }),
      );
      const folderZip = gw.calls.find((c) => c.path === '/integrations/download_folder')?.body
        .progressId as string;
      expect(clicked).toEqual([]);
      // The service's progress under the request's id shows in the notice; one that arrives late, behind
      // a newer one, and another zip's change nothing.
      act(() => reportProgress({ id: folderZip, done: 3, total: 5 }));
      expect(within(pending).getByText('3 of 5 files')).toBeTruthy();
      expect(within(pending).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
      act(() => reportProgress({ id: folderZip, done: 2, total: 5 }));
      act(() => reportProgress({ id: crypto.randomUUID(), done: 4, total: 5 }));
      expect(within(pending).getByText('3 of 5 files')).toBeTruthy();
      expect(pending.getAttribute('data-toast')).toBe('pending');
      act(() =>
        finish({
          body: { document: { data: { link: 'http://s3.test/bucket/zip-1', file_name: 'Home.zip' } } },
        }),
      );
      expect(await screen.findByText(MESSAGES.zipReady('Home.zip'))).toBeTruthy();
      // In the notice's place, its progress gone with it, and none after.
      expect(screen.queryByText(MESSAGES.zipPending)).toBeNull();
      expect(screen.queryByText('3 of 5 files')).toBeNull();
      act(() => reportProgress({ id: folderZip, done: 5, total: 5 }));
      expect(screen.queryByText('5 of 5 files')).toBeNull();
      expect(screen.queryByRole('progressbar')).toBeNull();
      expect(clicked).toEqual(['http://s3.test/bucket/zip-1']);

      // Two files over the size limit: the service's refusal (503 with the spec's text) is the notification.
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select W-2 2024.pdf' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select fresh.pdf' }));
      fireEvent.click(
        within(await screen.findByTestId('bulk-bar')).getByRole('button', { name: 'Download' }),
      );
      fireEvent.click(
        within(await screen.findByRole('dialog', { name: 'Download' })).getByRole('button', {
          name: 'Download',
        }),
      );
      await waitFor(() =>
        expect(gw.calls.some((c) => c.path === '/integrations/download_multiple_documents')).toBe(true),
      );
      const filesZip = gw.calls.find((c) => c.path === '/integrations/download_multiple_documents')?.body
        .progressId;
      expect(filesZip).toMatch(UUID);
      expect(filesZip).not.toBe(folderZip);
      act(() => reportProgress({ id: filesZip as string, done: 1, total: 2 }));
      expect(await screen.findByText('1 of 2 files')).toBeTruthy();
      const tooLarge = 'The zip file would be too large. Please select fewer files.';
      act(() => finish({ status: 503, body: { error: tooLarge, message: tooLarge } }));
      expect(await screen.findByText(tooLarge)).toBeTruthy();
      expect(screen.queryByText('1 of 2 files')).toBeNull();
      act(() => reportProgress({ id: filesZip as string, done: 2, total: 2 }));
      expect(screen.queryByRole('progressbar')).toBeNull();
      expect(clicked).toHaveLength(1);
    } finally {
      click.mockRestore();
    }
  });

  it('remembers the grid view in a cookie', async () => {
    show('client');
    await table();
    fireEvent.click(screen.getByText('Grid'));
    expect(await screen.findByTestId('documents-grid')).toBeTruthy();
    expect(document.cookie).toContain(`${VIEW_COOKIE}=grid`);
    fireEvent.click(screen.getByText('List'));
    expect(await table()).toBeTruthy();
  });

  it('renames with the extension kept and read-only', async () => {
    const gw = show('advisor');
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for W-2 2024.pdf' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    const ext = within(dialog).getByLabelText('Extension') as HTMLInputElement;
    expect(ext.value).toBe('.pdf');
    expect(ext.readOnly).toBe(true);
    const name = within(dialog).getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('W-2 2024');
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'W-2 final' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(gw.calls.some((c) => c.path === '/integrations/rename_item')).toBe(true));
    expect(gw.calls.find((c) => c.path === '/integrations/rename_item')?.body).toEqual({
      companyId: 'c-1',
      path: '/',
      itemName: 'W-2 2024.pdf',
      newName: 'W-2 final.pdf',
    });
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
  });
});

/** Its children once 'Show documents' is pressed: a page opened after the test has seeded the cache. */
function ShownOnClick({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  if (shown) return children;
  return (
    <button type="button" onClick={() => setShown(true)}>
      Show documents
    </button>
  );
}

describe('a documents link to a file', () => {
  const w2 = anItem({ name: 'W-2.pdf', path: '/2024' });
  const other = anItem({ name: 'notes.pdf', path: '/2024' });

  function open(query: string) {
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents')
        return call.body.path === '/2024'
          ? { body: { documents: [w2, other], path: '/2024', count: 2 } }
          : { body: { documents: [], path: '/', count: 0 } };
      if (call.path === '/integrations/download_document')
        return { body: { document: { data: { link: '', file_name: 'W-2.pdf', expires_at: '' } } } };
      return undefined;
    });
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={aCompany()}
        caps={capabilitiesFor({ role: 'client' })}
      />,
      gw.client,
      `/documents/h1?${query}`,
    );
    return gw;
  }

  it.each(['file=/2024/W-2.pdf', 'path=/2024&file=W-2.pdf', 'path=/2024&previewName=W-2.pdf'])(
    'opens the preview of the file in its folder (%s)',
    async (query) => {
      const gw = open(query);
      const preview = await screen.findByRole('dialog', { name: 'W-2.pdf' });
      expect(preview).toBeTruthy();
      expect(within(await table()).getByText('notes.pdf')).toBeTruthy();
      await waitFor(() =>
        expect(gw.calls.find((c) => c.path === '/integrations/download_document')?.body).toEqual({
          companyId: 'c-1',
          link: '/2024/W-2.pdf',
          isDownload: false,
        }),
      );
      // Closed, it stays closed: the link now names the folder only.
      fireEvent.click(within(preview).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'W-2.pdf' })).toBeNull());
      expect(screen.getByText('2024')).toBeTruthy();
    },
  );

  it('opens a file the cached listing of its folder predates, deciding on the listing asked again', async () => {
    const added = anItem({ name: 'new.pdf', path: '/2024' });
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents')
        return { body: { documents: [w2, added], path: '/2024', count: 2 } };
      if (call.path === '/integrations/download_document')
        return { body: { document: { data: { link: '', file_name: 'new.pdf', expires_at: '' } } } };
      return undefined;
    });
    const view = renderWithClient(
      <ShownOnClick>
        <FileManager
          api={documentsApi(gw.client)}
          company={aCompany()}
          caps={capabilitiesFor({ role: 'client' })}
        />
      </ShownOnClick>,
      gw.client,
      '/documents/h1?file=/2024/new.pdf',
    );
    // The folder as listed earlier in the session, before new.pdf was filed.
    view.queryClient.setQueryData(['documents', 'c-1', 'list', '/2024', false], {
      documents: [w2],
      path: '/2024',
      count: 1,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show documents' }));
    expect(await screen.findByRole('dialog', { name: 'new.pdf' })).toBeTruthy();
    expect(within(await table()).getByText('new.pdf')).toBeTruthy();
    expect(screen.queryByText(/not in this folder/)).toBeNull();
  });

  it('shows the folder, and says the file is not in it any more, when the link names a file gone', async () => {
    open('file=/2024/gone.pdf');
    expect(within(await table()).getByText('W-2.pdf')).toBeTruthy();
    expect(await screen.findByText(MESSAGES.linkedFileGone('gone.pdf'))).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('file manager with a large folder', () => {
  const files = Array.from({ length: 130 }, (_, i) => anItem({ name: `Receipt ${i + 1}.pdf` }));
  const bodyRows = (t: HTMLElement) => t.querySelectorAll('tbody tr').length;

  function showLarge() {
    const gw = fakeApi((call) =>
      call.path === '/integrations/get_documents'
        ? { body: { documents: files, path: '/', count: files.length } }
        : undefined,
    );
    renderAdvisor(gw);
  }

  it('renders the first 100 rows in name order and more on "Show more"', async () => {
    showLarge();
    const t = await table();
    expect(bodyRows(t)).toBe(100);
    const names = [...t.querySelectorAll('tbody tr')].slice(0, 3).map((r) => r.textContent);
    expect(names[0]).toContain('Receipt 1.pdf');
    expect(names[1]).toContain('Receipt 2.pdf');
    expect(screen.getByText('Showing 100 of 130 items')).toBeTruthy();
    expect(screen.getByTestId('item-count').textContent).toBe('130 items');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(bodyRows(t)).toBe(130);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('adds rows when the end of the list scrolls into view', async () => {
    const observed: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
    class FakeObserver {
      targets: Element[] = [];
      constructor(readonly callback: IntersectionObserverCallback) {
        observed.push(this);
      }
      observe(target: Element) {
        this.targets.push(target);
      }
      disconnect() {
        this.targets = [];
      }
    }
    const original = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
    try {
      showLarge();
      const t = await table();
      expect(bodyRows(t)).toBe(100);
      const watching = observed.find((o) => o.targets.length);
      expect(watching?.targets[0]?.textContent).toContain('Showing 100 of 130 items');
      act(() =>
        watching?.callback(
          [{ isIntersecting: true } as IntersectionObserverEntry],
          watching as unknown as IntersectionObserver,
        ),
      );
      expect(bodyRows(t)).toBe(130);
    } finally {
      globalThis.IntersectionObserver = original;
    }
  });
});

describe('bulk actions over many items', () => {
  it('deletes a large selection a few calls at a time, shows how many are done, and cannot be cancelled meanwhile', async () => {
    const many = Array.from({ length: 20 }, (_, i) => anItem({ name: `Scan ${i + 1}.pdf` }));
    const waiting: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    let deleted = 0;
    const gw = fakeApi(async (call) => {
      if (call.path === '/integrations/get_documents')
        return { body: { documents: many, path: '/', count: many.length } };
      if (call.path !== '/integrations/delete_path') return undefined;
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((release) => waiting.push(release));
      inFlight -= 1;
      deleted += 1;
      return { body: { message: '' } };
    });
    renderAdvisor(gw);
    await table();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete 20 items?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(waiting.length).toBe(BULK_PARALLEL_CALLS));
    // Running, it cannot be taken back: Cancel would only hide it, and its end would close whatever
    // dialog was open by then.
    expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBeTruthy();
    await act(async () => {
      for (const release of waiting.splice(0)) release();
    });
    expect(await within(dialog).findByText('6 of 20 done')).toBeTruthy();
    while (deleted < many.length) {
      await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      await act(async () => {
        for (const release of waiting.splice(0)) release();
      });
    }
    expect(most).toBe(BULK_PARALLEL_CALLS);
    expect(await screen.findByText(MESSAGES.deleted)).toBeTruthy();
    expect(gw.calls.filter((c) => c.path === '/integrations/delete_path')).toHaveLength(20);
  });
});

describe('focus after a bulk delete', () => {
  it("goes to the page's heading when the bar that opened the dialog went with the items", async () => {
    let items = [anItem({ name: 'One.pdf' }), anItem({ name: 'Two.pdf' })];
    const gw = fakeApi(async (call) => {
      if (call.path === '/integrations/get_documents')
        return { body: { documents: items, path: '/', count: items.length } };
      if (call.path !== '/integrations/delete_path') return undefined;
      items = [];
      return { body: { message: '' } };
    });
    renderAdvisor(gw);
    await table();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    const bulkDelete = within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' });
    bulkDelete.focus();
    fireEvent.click(bulkDelete);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByTestId('bulk-bar')).toBeNull());
    // Not a text field: on a phone that would open the keyboard.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Documents', level: 1 }));
  });
});

describe('row actions menu', () => {
  it('mounts on the first click, opened, and gives the focus back to its button on Escape', async () => {
    show('advisor');
    await table();
    expect(screen.queryByRole('menu')).toBeNull();
    const button = () => screen.getByRole('button', { name: 'Actions for W-2 2024.pdf' });
    expect(button().getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.click(button());
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Rename' })).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Open' })),
    );
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button()));
  });
});

describe('file manager in a narrow space', () => {
  // jsdom applies no container queries: the browser tests check the layout itself at phone and tablet
  // widths; this checks which cells file-manager.css hides when the list is narrow.
  const wideOnly = (cell: Element | null) => cell?.className.includes('portico-fm-wide');

  it('marks the columns a narrow list hides, and gives the date and size under the name instead', async () => {
    show('advisor');
    const t = await table();
    expect(t.dataset.role).toBe('advisor');
    for (const header of ['Description', 'Tags', 'Modified', 'Size'])
      expect(wideOnly(within(t).getByRole('columnheader', { name: header }))).toBe(true);
    expect(wideOnly(within(t).getByRole('columnheader', { name: /^Name/ }))).toBe(false);
    const row = within(t).getByText('W-2 2024.pdf').closest('tr') as HTMLElement;
    expect(wideOnly(within(row).getByRole('checkbox').closest('td'))).toBe(false);
    expect(
      wideOnly(within(row).getByRole('button', { name: 'Actions for W-2 2024.pdf' }).closest('td')),
    ).toBe(false);
    expect(row.querySelectorAll('td.portico-fm-wide')).toHaveLength(4);
    const details = within(row).getByTestId('narrow-details');
    expect(details.className).toContain('portico-fm-narrow');
    // The date in the locale of the machine (some write it with spaces), then the size.
    expect(details.textContent).toMatch(/^\S.* · \S+ (B|KB|MB)$/);
    const folder = within(t).getByText('Tax Returns (STAFF ONLY)').closest('tr') as HTMLElement;
    expect(within(folder).getByTestId('narrow-details').textContent).toMatch(/ · 0 items$/);
  });

  it("lays the client's table out by the client's columns", async () => {
    show('client');
    const t = await table();
    expect(t.dataset.role).toBe('client');
    expect(
      screen.getByTestId('file-manager').querySelector('.portico-fm-layout')?.getAttribute('data-role'),
    ).toBe('client');
  });
});
