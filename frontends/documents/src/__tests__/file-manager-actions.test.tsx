import { describe, expect, it } from '@jest/globals';
import { renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useNavigate } from 'react-router';
import { documentsApi } from '../api/documents-api.js';
import { FileManager } from '../documents/FileManager.js';
import { capabilitiesFor } from '../rules/capabilities.js';
import { aCompany, anItem, fakeApi } from './fixtures.js';

let navigate: ReturnType<typeof useNavigate>;
/** The router's navigate, for a test that presses the browser's Back. */
function Navigator() {
  navigate = useNavigate();
  return null;
}

function renderAdvisor(gw: ReturnType<typeof fakeApi>) {
  return renderWithClient(
    <>
      <Navigator />
      <FileManager
        api={documentsApi(gw.client)}
        company={aCompany()}
        caps={capabilitiesFor({ role: 'advisor', preferences: {} })}
      />
    </>,
    gw.client,
  );
}

const table = () => screen.findByTestId('documents-table');
const many = Array.from({ length: 8 }, (_, i) => anItem({ name: `Scan ${i + 1}.pdf` }));
const listed = (documents: ReturnType<typeof anItem>[]) => ({
  body: { documents, path: '/', count: documents.length },
});

describe('file manager actions', () => {
  it('keeps what failed selected, and the dialog open when nothing went through', async () => {
    const failing = new Set(['Scan 2.pdf', 'Scan 5.pdf']);
    let everything = false;
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents') return listed(many);
      if (call.path !== '/integrations/delete_path') return undefined;
      const name = String(call.body.path).slice(1);
      return everything || failing.has(name)
        ? { status: 500, body: { error: 'internal', message: 'Something went wrong' } }
        : { body: { message: '' } };
    });
    renderAdvisor(gw);
    await table();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const checked = () =>
      screen
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.getAttribute('aria-label'));
    await waitFor(() => expect(checked()).toEqual(['Select Scan 2.pdf', 'Select Scan 5.pdf']));
    // Select all shows some rows, not all: mixed.
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).indeterminate).toBe(
      true,
    );
    everything = true;
    fireEvent.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        (within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement)
          .disabled,
      ).toBe(false),
    );
    expect(checked()).toEqual(['Select Scan 2.pdf', 'Select Scan 5.pdf']);
  });

  it('shows Select all checked, not mixed, once every row is selected', async () => {
    const gw = fakeApi((call) => (call.path === '/integrations/get_documents' ? listed(many) : undefined));
    renderAdvisor(gw);
    await table();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    const all = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect(all.checked).toBe(true);
    expect(all.indeterminate).toBe(false);
  });

  it('closes a dialog about the folder left by Back, so a new folder does not land in the one shown', async () => {
    const y2024 = anItem({ type: 'folder', name: '2024', items_count: 1 });
    const inside = anItem({ name: 'w2.pdf', path: '/2024' });
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents') {
        const path = String(call.body.path || '/');
        return { body: { documents: path === '/2024' ? [inside] : [y2024], path, count: 1 } };
      }
      return undefined;
    });
    renderAdvisor(gw);
    fireEvent.click(within(await table()).getByText('2024'));
    await screen.findByText('w2.pdf');
    // The breadcrumbs are a navigation landmark whose last crumb is the folder shown.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByText('2024').getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Add Folder' }));
    await screen.findByRole('dialog');
    act(() => {
      void navigate(-1);
    });
    await waitFor(() => expect(screen.queryByText('w2.pdf')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(gw.calls.some((c) => c.path === '/integrations/create_folder')).toBe(false);
  });

  it('leaves the dialog and selection of the folder gone to alone when a bulk action ends there', async () => {
    const y2024 = anItem({ type: 'folder', name: '2024', items_count: 2 });
    const [first, second] = [anItem({ name: 'a.pdf' }), anItem({ name: 'b.pdf' })];
    const w2 = anItem({ name: 'w2.pdf', path: '/2024' });
    const notes = anItem({ name: 'notes.pdf', path: '/2024' });
    const held: (() => void)[] = [];
    const gw = fakeApi((call) => {
      if (call.path === '/integrations/get_documents') {
        const path = String(call.body.path || '/');
        const documents = path === '/2024' ? [w2, notes] : [y2024, first, second];
        return { body: { documents, path, count: documents.length } };
      }
      if (call.path === '/integrations/delete_path')
        return new Promise((resolve) => held.push(() => resolve({ body: { message: '' } })));
      return undefined;
    });
    renderAdvisor(gw);
    const list = await table();
    fireEvent.click(within(list).getByRole('checkbox', { name: 'Select a.pdf' }));
    fireEvent.click(within(list).getByRole('checkbox', { name: 'Select b.pdf' }));
    fireEvent.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(held).toHaveLength(2));
    expect(screen.getByText('0 of 2 done')).toBeTruthy();

    // Another folder: the Delete dialog closes while its calls are still out.
    act(() => {
      void navigate('/?path=/2024');
    });
    await within(await table()).findByText('w2.pdf');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const box = (name: string) =>
      screen.getByRole('checkbox', { name: `Select ${name}` }) as HTMLInputElement;
    fireEvent.click(box('w2.pdf'));
    fireEvent.click(box('notes.pdf'));
    // A Delete of this folder's files shows none of the other run's progress.
    fireEvent.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete' }));
    const other = await screen.findByRole('dialog');
    expect(within(other).getByText('Are you sure you want to delete 2 items?')).toBeTruthy();
    expect(within(other).queryByText(/done/)).toBeNull();
    fireEvent.click(within(other).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Actions for w2.pdf' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename file' });
    act(() => {
      for (const answer of held) answer();
    });
    // The run's end is still told.
    expect(await screen.findByText('Deleted successfully')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByRole('dialog', { name: 'Rename file' })).toBe(rename);
    expect([box('w2.pdf').checked, box('notes.pdf').checked]).toEqual([true, true]);
  });

  it('does not mark the list disabled for screen readers when nothing may be dropped on it', async () => {
    const gw = fakeApi((call) => (call.path === '/integrations/get_documents' ? listed(many) : undefined));
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={aCompany()}
        caps={capabilitiesFor({ role: 'client', preferences: {}, entityReadOnly: true })}
      />,
      gw.client,
    );
    const list = await table();
    expect(list.closest('[aria-disabled="true"]')).toBeNull();
  });
});
