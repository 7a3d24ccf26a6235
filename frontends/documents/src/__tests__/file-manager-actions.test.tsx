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
