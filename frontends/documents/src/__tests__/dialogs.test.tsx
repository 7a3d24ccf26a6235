import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { renderWithClient } from '@portico/kit/testing';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DropLink, documentsApi } from '../api/documents-api.js';
import { DropLinkDialog } from '../documents/DropLinkDialog.js';
import {
  CreateFolderDialog,
  FOLDER_NAME_REQUIRED,
  RenameDialog,
  TAG_EXISTS,
  TagsDialog,
} from '../documents/dialogs.js';
import { FileManager } from '../documents/FileManager.js';
import { capabilitiesFor, type Role, SYSTEM_FOLDER_RESERVED } from '../rules/capabilities.js';
import { DROP_LINK_MESSAGES } from '../rules/drop-link.js';
import { linkedFile, RENAME_MESSAGES } from '../rules/names.js';
import { aCompany, anItem, type Call, fakeApi } from './fixtures.js';

const w2 = anItem({ name: 'W-2 2024.pdf' });
const receipts = anItem({ type: 'folder', name: 'Receipts', company_id: 'c-2', items_count: 0 });
const anders = aCompany();
const baker = aCompany({ id: 'c-2', hash_id: 'h2', name: 'Baker Family Trust', entity_type: 'Trust' });

const link = (over: Partial<DropLink> = {}): DropLink => ({
  id: 'RGVtbyBDUEE_x',
  firm_name: 'Demo CPA',
  firm_slug: 'demo-cpa',
  notify_user_ids: ['u-paula'],
  enabled: true,
  firm_users: [
    { id: 'u-paula', full_name: 'Paula Partner', email: 'partner@demo-cpa.test' },
    { id: 'u-fiona', full_name: 'Fiona Full', email: 'full@demo-cpa.test' },
  ],
  ...over,
});

/** The fake gateway of these tests: two companies of the firm, each with its own folder listing. */
function gateway(extra: (call: Call) => { status?: number; body: unknown } | undefined = () => undefined) {
  return fakeApi((call) => {
    if (call.path === '/integrations/get_documents') {
      const docs = call.body.companyId === 'c-2' ? [receipts] : [w2];
      return { body: { documents: docs, path: '/', count: docs.length } };
    }
    if (call.path.startsWith('/v2/entities'))
      return {
        body: { companies: [anders, baker], count: 2, current_page: 1, total_pages: 1, rows_per_page: 10 },
      };
    if (call.path === '/integrations/move_item') return { body: { document: w2 } };
    if (call.path === '/integrations/drop_link' && call.method === 'GET') return { body: link() };
    return extra(call);
  });
}

function manager(role: Role, firmAccess?: string, preferences: Record<string, unknown> = {}) {
  const gw = gateway();
  renderWithClient(
    <FileManager
      api={documentsApi(gw.client)}
      company={anders}
      caps={capabilitiesFor({ role, firmAccess, preferences })}
    />,
    gw.client,
  );
  return gw;
}

async function openAction(name: string, action: string) {
  await screen.findByTestId('documents-table');
  fireEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: action }));
  return screen.findByRole('dialog');
}

describe('advisor-only pieces', () => {
  it('never shows a client the advisor-only actions, the drop link or the company selector', async () => {
    manager('client', 'partner', { drop_link_enabled: true, document_tags_enabled: true });
    await screen.findByTestId('documents-table');
    expect(screen.queryByRole('button', { name: 'Drop Link' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for W-2 2024.pdf' }));
    await screen.findByRole('menuitem', { name: 'Rename' });
    for (const advisorOnly of ['Edit Description', 'Edit Tags', 'Copy client file URL', 'Restore'])
      expect(screen.queryByRole('menuitem', { name: advisorOnly })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('tree', { name: 'Location' });
    expect(within(dialog).queryByTestId('company-selector')).toBeNull();
    expect(within(dialog).queryByRole('combobox', { name: 'Company' })).toBeNull();
  });

  it('shows an advisor those actions and the company selector', async () => {
    manager('advisor', 'partner', { document_tags_enabled: true });
    await screen.findByTestId('documents-table');
    fireEvent.click(screen.getByRole('button', { name: 'Actions for W-2 2024.pdf' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit Description' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Edit Tags' })).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move' }));
    expect(within(await screen.findByRole('dialog')).getByTestId('company-selector')).toBeTruthy();
  });

  it("copies the client's link to a file: their documents page with the file's preview", async () => {
    const writeText = jest.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    manager('advisor', 'partner');
    await screen.findByTestId('documents-table');
    fireEvent.click(screen.getByRole('button', { name: 'Actions for W-2 2024.pdf' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Copy client file URL' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith('http://localhost/documents/h1?file=%2FW-2+2024.pdf'),
    );
    expect(await screen.findByText('Link copied to clipboard')).toBeTruthy();
    const copied = new URL(writeText.mock.calls[0]?.[0] as string);
    expect(linkedFile(copied.searchParams)).toEqual({ folder: '/', name: 'W-2 2024.pdf' });
  });

  it("copies the folder URL of the copier's own documents page: the advisor's, or the client's", async () => {
    const writeText = jest.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    for (const [role, page] of [
      ['advisor', 'http://localhost/admin/h1/documents'],
      ['client', 'http://localhost/documents/h1'],
    ] as const) {
      manager(role, role === 'advisor' ? 'partner' : undefined);
      await screen.findByTestId('documents-table');
      fireEvent.click(screen.getByRole('button', { name: 'Copy folder URL' }));
      await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(page));
      cleanup();
    }
  });

  it('gives the Drop Link button to a partner when the firm has it on, not to a group user', async () => {
    manager('advisor', 'group', { drop_link_enabled: true });
    await screen.findByTestId('documents-table');
    expect(screen.queryByRole('button', { name: 'Drop Link' })).toBeNull();
  });
});

describe('move or copy to another company', () => {
  it('lets an advisor choose another company of the firm, then a folder of its tree', async () => {
    const gw = manager('advisor', 'partner');
    const dialog = await openAction('W-2 2024.pdf', 'Move');
    const company = within(dialog).getByRole('combobox', { name: 'Company' });
    expect(company.getAttribute('placeholder')).toBe('Anders Design LLC');
    expect((within(dialog).getByRole('button', { name: 'Move here' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    fireEvent.focus(company);
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Baker Family Trust' }));
    const tree = within(dialog).getByRole('tree', { name: 'Location' });
    fireEvent.click(await within(tree).findByRole('treeitem', { name: /Receipts/ }));
    expect(gw.calls.some((c) => c.path === '/integrations/get_documents' && c.body.companyId === 'c-2')).toBe(
      true,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move here' }));
    await waitFor(() => expect(gw.calls.some((c) => c.path === '/integrations/move_item')).toBe(true));
    expect(gw.calls.find((c) => c.path === '/integrations/move_item')?.body).toEqual({
      companyId: 'c-1',
      oldPath: '/W-2 2024.pdf',
      newPath: '/Receipts',
      deleteOldPath: true,
      isFolder: false,
      newCompanyId: 'c-2',
    });
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
  });

  it('sends no newCompanyId for a copy within the same company', async () => {
    const gw = manager('advisor', 'full');
    const dialog = await openAction('W-2 2024.pdf', 'Copy');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy here' }));
    await waitFor(() => expect(gw.calls.some((c) => c.path === '/integrations/move_item')).toBe(true));
    const body = gw.calls.find((c) => c.path === '/integrations/move_item')?.body;
    expect(body).toMatchObject({ companyId: 'c-1', newPath: '', deleteOldPath: false });
    expect(body).not.toHaveProperty('newCompanyId');
  });

  it('does not copy when Enter is pressed in the company search with no company highlighted', async () => {
    const user = userEvent.setup();
    const gw = manager('advisor', 'partner');
    const dialog = await openAction('W-2 2024.pdf', 'Copy');
    const company = within(dialog).getByRole('combobox', { name: 'Company' });
    await user.click(company);
    await user.type(company, 'Bak');
    await within(dialog).findByRole('option', { name: 'Baker Family Trust' });
    const copied = () => gw.calls.some((c) => c.path === '/integrations/move_item');
    await user.keyboard('{Enter}');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(copied()).toBe(false);
    expect(screen.getByRole('dialog')).toBe(dialog);
    // Enter on a highlighted company still chooses it, without copying either.
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(await within(dialog).findByText('Another company of the firm: Baker Family Trust')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(copied()).toBe(false);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});

describe('the system folder', () => {
  it('is in the folder tree but never offered as a move or copy target', async () => {
    const portico = anItem({ type: 'folder', name: '_portico', is_system: true, items_count: 2 });
    const archive = anItem({ type: 'folder', name: 'Archive', items_count: 0 });
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents') {
        const docs = call.body.path === '/_portico' ? [] : [portico, archive, w2];
        return { body: { documents: docs, path: '/', count: docs.length } };
      }
      return undefined;
    });
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={anders}
        caps={capabilitiesFor({ role: 'client' })}
      />,
      gw.client,
    );
    const folders = await screen.findByRole('tree', { name: 'Folders' });
    expect(await within(folders).findByRole('treeitem', { name: /_portico/ })).toBeTruthy();
    for (const action of ['Move', 'Copy']) {
      const dialog = await openAction('W-2 2024.pdf', action);
      const tree = within(dialog).getByRole('tree', { name: 'Location' });
      expect(await within(tree).findByRole('treeitem', { name: /Archive/ })).toBeTruthy();
      expect(within(tree).queryByRole('treeitem', { name: /_portico/ })).toBeNull();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });
});

describe('inside the system folder', () => {
  const signed = anItem({ name: 'Engagement letter.pdf', path: '/_portico/Signature Requests' });

  function insideSystemFolder() {
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents') {
        const path = String(call.body.path || '/');
        const docs = path === '/_portico/Signature Requests' ? [signed] : [];
        return { body: { documents: docs, path, count: docs.length } };
      }
      if (call.path === '/integrations/move_item') return { body: { document: signed } };
      return undefined;
    });
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={anders}
        caps={capabilitiesFor({ role: 'advisor', firmAccess: 'partner' })}
      />,
      gw.client,
      '/admin/h1/documents?path=/_portico/Signature Requests',
    );
    return gw;
  }

  it('refuses Add and Add Folder with the reason the service gives', async () => {
    insideSystemFolder();
    await within(await screen.findByTestId('documents-table')).findByText('Engagement letter.pdf');
    for (const name of ['Add', 'Add Folder']) {
      const button = screen.getByRole('button', { name, description: SYSTEM_FOLDER_RESERVED });
      expect(button.getAttribute('aria-disabled')).toBe('true');
      fireEvent.click(button);
      expect(screen.queryByRole('dialog')).toBeNull();
    }
  });

  it('starts the copy of a file filed there at All Files, never in the system folder', async () => {
    const gw = insideSystemFolder();
    const dialog = await openAction('Engagement letter.pdf', 'Copy');
    expect(within(dialog).getByText(/Choose a location/).textContent).toBe('Choose a location: All Files');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy here' }));
    await waitFor(() => expect(gw.calls.some((c) => c.path === '/integrations/move_item')).toBe(true));
    expect(gw.calls.find((c) => c.path === '/integrations/move_item')?.body).toMatchObject({
      oldPath: '/_portico/Signature Requests/Engagement letter.pdf',
      newPath: '',
      deleteOldPath: false,
    });
  });
});

describe('a folder the company blocks for its clients', () => {
  it('is no move or copy target for a client, and is for an advisor', async () => {
    const final = anItem({ type: 'folder', name: 'Final', items_count: 1 });
    const archive = anItem({ type: 'folder', name: 'Archive', items_count: 0 });
    for (const role of ['client', 'advisor'] as const) {
      const gw = fakeApi((call) =>
        call.path === '/integrations/get_documents'
          ? { body: { documents: [final, archive, w2], path: '/', count: 3 } }
          : undefined,
      );
      const { unmount } = renderWithClient(
        <FileManager
          api={documentsApi(gw.client)}
          company={anders}
          caps={capabilitiesFor({ role, blockedFolders: ['/Final'] })}
        />,
        gw.client,
      );
      const dialog = await openAction('W-2 2024.pdf', 'Move');
      const tree = within(dialog).getByRole('tree', { name: 'Location' });
      const target = await within(tree).findByRole('treeitem', { name: /Final/ });
      expect(target.getAttribute('aria-disabled')).toBe(role === 'client' ? 'true' : null);
      expect(
        within(tree)
          .getByRole('treeitem', { name: /Archive/ })
          .getAttribute('aria-disabled'),
      ).toBeNull();
      unmount();
    }
  });
});

describe('drop link', () => {
  const writeText = jest.fn(async (_text: string) => {});
  beforeEach(() => {
    writeText.mockClear();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  function dialog(save: (call: Call) => { status?: number; body: unknown }) {
    const gw = gateway((call) =>
      call.path === '/integrations/drop_link' && call.method === 'POST' ? save(call) : undefined,
    );
    renderWithClient(<DropLinkDialog api={documentsApi(gw.client)} onClose={() => {}} />, gw.client);
    return gw;
  }

  it('shows the firm link to copy and the chosen firm users', async () => {
    dialog(() => ({ body: link() }));
    const url = (await screen.findByTestId('drop-link-url')) as HTMLInputElement;
    expect(url.value).toBe('http://localhost/drop-link?id=RGVtbyBDUEE_x');
    expect(url.readOnly).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Paula Partner/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Fiona Full/ }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith('http://localhost/drop-link?id=RGVtbyBDUEE_x'),
    );
    expect(await screen.findByText(DROP_LINK_MESSAGES.copied)).toBeTruthy();
  });

  it('disables Save with a warning when no user is chosen, and Copy until changes are saved', async () => {
    const gw = dialog((call) => ({
      body: link({ notify_user_ids: call.body.notifyUserIds as string[] }),
    }));
    const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    const copy = () => screen.getByRole('button', { name: 'Copy' }) as HTMLButtonElement;
    fireEvent.click(await screen.findByRole('checkbox', { name: /Paula Partner/ }));
    expect(screen.getByRole('alert').textContent).toBe(DROP_LINK_MESSAGES.selectUser);
    expect(save().disabled).toBe(true);
    // Within the keyboard's reach, saying why, and copying nothing.
    expect(copy().getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Copy', description: DROP_LINK_MESSAGES.unsaved })).toBe(
      copy(),
    );
    fireEvent.click(copy());
    expect(writeText).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('checkbox', { name: /Fiona Full/ }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(save().disabled).toBe(false);
    fireEvent.click(save());
    expect(await screen.findByText(DROP_LINK_MESSAGES.saved)).toBeTruthy();
    expect(gw.calls.find((c) => c.method === 'POST')?.body).toEqual({ notifyUserIds: ['u-fiona'] });
    await waitFor(() => expect(copy().getAttribute('aria-disabled')).toBeNull());
    expect(copy().disabled).toBe(false);
    expect(save().disabled).toBe(true);
  });

  it("shows the service's refusal", async () => {
    dialog(() => ({
      status: 400,
      body: { error: 'invalid_input', message: 'Please select at least one user to receive notifications' },
    }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Fiona Full/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DROP_LINK_MESSAGES.selectUser)).toBeTruthy();
  });

  it('opens from the file manager for a partner when the firm has the drop link on', async () => {
    manager('advisor', 'partner', { drop_link_enabled: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Drop Link' }));
    const d = await screen.findByRole('dialog', { name: 'Drop Link' });
    expect(((await within(d).findByTestId('drop-link-url')) as HTMLInputElement).value).toContain(
      '/drop-link?id=',
    );
  });
});

describe('Edit Tags', () => {
  /** The dialog for a file tagged W2, in a firm with the tag Receipts; answers the tags saved. */
  function renderTagsDialog() {
    const saved: string[][] = [];
    renderWithClient(
      <TagsDialog
        item={anItem({ name: 'W-2 2024.pdf', tags: ['W2'] })}
        firmTags={['Receipts']}
        onClose={() => undefined}
        onSave={async (tags) => {
          saved.push(tags);
        }}
      />,
      fakeApi().client,
    );
    return saved;
  }

  it('adds a new tag, and disables Add for an empty one or one that exists, saying so', async () => {
    const saved = renderTagsDialog();
    const input = await screen.findByRole('textbox', { name: 'New tag' });
    const add = screen.getByRole('button', { name: 'Add tag' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  receipts ' } });
    expect(screen.getByText(TAG_EXISTS)).toBeTruthy();
    expect(add.disabled).toBe(true);
    fireEvent.change(input, { target: { value: ' 1099-INT ' } });
    expect(screen.queryByText(TAG_EXISTS)).toBeNull();
    fireEvent.click(add);
    expect((screen.getByRole('checkbox', { name: '1099-INT' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([['W2', '1099-INT']]));
  });

  it('adds the typed tag on Enter in the New tag box, without saving', async () => {
    const user = userEvent.setup();
    const saved = renderTagsDialog();
    const input = (await screen.findByRole('textbox', { name: 'New tag' })) as HTMLInputElement;
    await user.type(input, '1099-INT{Enter}');
    expect((screen.getByRole('checkbox', { name: '1099-INT' }) as HTMLInputElement).checked).toBe(true);
    expect(input.value).toBe('');
    // An empty box or a tag that exists adds nothing, and Enter there does not save either.
    await user.keyboard('{Enter}');
    await user.type(input, 'receipts{Enter}');
    expect(screen.getByText(TAG_EXISTS)).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(saved).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([['W2', '1099-INT']]));
  });
});

describe("a name the spec's sanitising leaves empty", () => {
  it('is refused by Add Folder as a blank name is, without a call', async () => {
    const created: string[] = [];
    renderWithClient(
      <CreateFolderDialog
        onClose={() => undefined}
        onCreate={async (name) => {
          created.push(name);
        }}
      />,
      fakeApi().client,
    );
    const input = await screen.findByRole('textbox', { name: 'Folder name' });
    for (const name of ['###', ' / & ', '..']) {
      fireEvent.change(input, { target: { value: name } });
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
      expect(await screen.findByText(FOLDER_NAME_REQUIRED)).toBeTruthy();
    }
    fireEvent.change(input, { target: { value: '#2024 (Q1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created).toEqual(['#2024 (Q1)']));
    expect(screen.queryByText(FOLDER_NAME_REQUIRED)).toBeNull();
  });

  it('is refused by Rename as a blank name is, for files and folders', async () => {
    for (const [item, name] of [
      [anItem({ name: 'scan.pdf' }), '#.pdf'],
      [anItem({ name: 'scan.pdf' }), '???'],
      [anItem({ type: 'folder', name: 'Receipts' }), '@@'],
    ] as const) {
      const renamed: string[] = [];
      renderWithClient(
        <RenameDialog
          item={item}
          onClose={() => undefined}
          onRename={async (newName) => {
            renamed.push(newName);
          }}
        />,
        fakeApi().client,
      );
      fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: name } });
      fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
      expect(await screen.findByText(RENAME_MESSAGES.required)).toBeTruthy();
      expect(renamed).toEqual([]);
      cleanup();
    }
  });
});
