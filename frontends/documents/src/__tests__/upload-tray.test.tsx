import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { aCurrentUser, renderWithClient, sessionTokens } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useNavigate } from 'react-router';
import DocumentsRoute from '../documents/DocumentsRoute.js';
import { UPLOAD_MESSAGES } from '../upload/upload.js';
import { uploadQueue } from '../upload/upload-queue.js';
import { aCompany, type Call, FakeXhr, fakeApi, uploadLinksAnswer } from './fixtures.js';

const anders = aCompany();
const baker = aCompany({ id: 'c-2', hash_id: 'h2', name: 'Baker Family Trust', entity_type: 'Trust' });
const file = (name: string) => new File([new Uint8Array(10)], name, { type: 'application/pdf' });
const RESERVED = 'This folder is reserved and cannot be changed';

/** The gateway of an advisor of the firm of both companies; process_document answers `process`. */
function gateway(process: (call: Call) => { status?: number; body: unknown } = filed) {
  return fakeApi((call: Call) => {
    if (call.path === '/current_user')
      return { body: aCurrentUser({ is_advisor: true, firm_access: 'partner' }) };
    if (call.path === '/current_user_firm') return { body: { id: 'f-1', name: 'Demo CPA', preferences: {} } };
    if (call.path === '/companies/h1') return { body: anders };
    if (call.path === '/companies/h2') return { body: baker };
    if (call.path === '/integrations/get_documents') return { body: { documents: [], path: '/', count: 0 } };
    if (call.path === '/integrations/upload_links') return uploadLinksAnswer(call);
    if (call.path === '/integrations/process_document') return process(call);
    return undefined;
  });
}

function filed(call: Call) {
  const ids = call.body.uploadIds as string[];
  return {
    body: {
      files: ids.map((id) => ({ upload_id: id, document_name: id.replace('up-', ''), invalid: false })),
    },
  };
}

/** The entity switcher of the shell's advisor navigation: the same route, another entity. */
function EntitySwitcher() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate('/admin/h2/documents')}>
      Go to Baker
    </button>
  );
}

/** The documents module as the shell mounts it for advisors. */
function Shell() {
  return (
    <>
      <EntitySwitcher />
      <Routes>
        <Route
          path="/admin/:companyHash/documents/*"
          element={<DocumentsRoute basePath="/admin/:companyHash/documents" />}
        />
      </Routes>
    </>
  );
}

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => {
  FakeXhr.all = [];
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  uploadQueue.endSession();
  globalThis.XMLHttpRequest = realXhr;
});

const processCalls = (calls: Call[]) => calls.filter((c) => c.path === '/integrations/process_document');
const tray = () => screen.getByRole('region', { name: 'Uploads' });
const andersBatch = () =>
  within(tray()).getByRole('group', { name: 'Upload to Anders Design LLC, All Files' });

/** Anders' documents with `names` dropped on the list, then Baker's shown; the PUTs started. */
async function uploadThenSwitch(names: string[], process?: Parameters<typeof gateway>[0]) {
  const gw = gateway(process);
  const view = renderWithClient(<Shell />, gw.client, '/admin/h1/documents');
  expect(await screen.findByText('This folder is empty.')).toBeTruthy();
  await act(async () => {
    fireEvent.change(screen.getByLabelText('Drop files to upload'), { target: { files: names.map(file) } });
  });
  await waitFor(() => expect(FakeXhr.all).toHaveLength(Math.min(names.length, 4)));
  fireEvent.click(screen.getByRole('button', { name: 'Go to Baker' }));
  expect(await screen.findByText('Baker Family Trust')).toBeTruthy();
  return { ...gw, view };
}

describe('the upload tray', () => {
  it("keeps showing entity A's upload once B is shown, with its progress, to its end", async () => {
    const { calls } = await uploadThenSwitch(['w2.pdf', '1099.pdf']);
    act(() => (FakeXhr.all[0] as FakeXhr).progress(5, 10));
    const batch = andersBatch();
    const bars = within(batch).getAllByRole('progressbar');
    expect(bars.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-valuenow')])).toEqual([
      ['Upload to Anders Design LLC, All Files', '25'],
      ['Upload of w2.pdf', '50'],
      ['Upload of 1099.pdf', '0'],
    ]);
    expect(
      within(tray()).getByRole('progressbar', { name: 'All uploads' }).getAttribute('aria-valuenow'),
    ).toBe('25');
    expect(screen.getByTestId('upload-announcer').textContent).toBe(
      'Uploading 2 files to Anders Design LLC, All Files.',
    );
    // Baker's file manager shows nothing of it.
    expect(within(screen.getByTestId('file-manager')).queryByTestId('upload-progress')).toBeNull();

    await act(async () => {
      for (const x of FakeXhr.all) x.respond(200);
    });
    await waitFor(() =>
      expect(within(andersBatch()).getByTestId('upload-summary').textContent).toBe('2 of 2 files uploaded'),
    );
    expect(processCalls(calls).map((c) => c.body.companyId)).toEqual(['c-1']);
    expect(screen.getByTestId('upload-announcer').textContent).toBe(
      'Upload to Anders Design LLC, All Files ended: 2 of 2 files uploaded.',
    );
    expect(await screen.findByText(UPLOAD_MESSAGES.success)).toBeTruthy();
    expect(within(tray()).queryByRole('progressbar', { name: 'All uploads' })).toBeNull();

    fireEvent.click(within(tray()).getByRole('button', { name: 'Dismiss all' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });

  it('cancels from the tray what has not finished: the PUTs stop, no other starts, nothing is filed', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}.pdf`);
    const { calls } = await uploadThenSwitch(names);
    // The first file reaches storage, so the fifth starts; the sixth waits.
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(5));
    expect(within(andersBatch()).queryByRole('button', { name: 'Dismiss' })).toBeNull();

    fireEvent.click(within(andersBatch()).getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText(UPLOAD_MESSAGES.cancelled)).toBeTruthy();
    expect(FakeXhr.all).toHaveLength(5);
    expect(FakeXhr.all.slice(1).every((x) => x.aborted)).toBe(true);
    expect(processCalls(calls)).toHaveLength(0);
    expect(within(andersBatch()).getAllByText('Cancelled')).toHaveLength(6);
    expect(within(andersBatch()).queryByRole('button', { name: 'Cancel upload' })).toBeNull();
    fireEvent.click(within(andersBatch()).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });

  it("shows a failed file's message from the service, and sends it again into A from B's page", async () => {
    let refuse = true;
    const { calls } = await uploadThenSwitch(['w2.pdf'], (call) =>
      refuse ? { status: 403, body: { error: 'forbidden', message: RESERVED } } : filed(call),
    );
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    const batch = andersBatch();
    expect(await within(batch).findByText(RESERVED)).toBeTruthy();
    expect(within(batch).getByText(UPLOAD_MESSAGES.fileFailed)).toBeTruthy();

    refuse = false;
    FakeXhr.all = [];
    fireEvent.click(within(batch).getByRole('button', { name: 'Try the failed file again' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(within(andersBatch()).queryByText(RESERVED)).toBeNull();
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(within(andersBatch()).getByText(UPLOAD_MESSAGES.fileDone)).toBeTruthy());
    const links = calls.filter((c) => c.path === '/integrations/upload_links');
    expect(links.map((c) => c.body.companyId)).toEqual(['c-1', 'c-1']);
    expect(processCalls(calls).map((c) => c.body.companyId)).toEqual(['c-1', 'c-1']);
  });

  it("invalidates A's cached listing when A's upload ends while B is shown, without asking for it now", async () => {
    const { calls, view } = await uploadThenSwitch(['w2.pdf']);
    const andersListing = ['documents', 'c-1', 'list', '/', false];
    const bakerListing = ['documents', 'c-2', 'list', '/', false];
    await waitFor(() => expect(view.queryClient.getQueryState(bakerListing)?.status).toBe('success'));
    expect(view.queryClient.getQueryState(andersListing)?.isInvalidated).toBe(false);
    const listed = () => calls.filter((c) => c.path.startsWith('/integrations/get_documents')).length;
    const before = listed();

    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(view.queryClient.getQueryState(andersListing)?.isInvalidated).toBe(true));
    expect(view.queryClient.getQueryState(bakerListing)?.isInvalidated).toBe(false);
    // A is not shown: its listing is asked again when it is, not now.
    expect(listed()).toBe(before);
  });

  it('cancels every upload and empties the tray when the session ends, with no toast', async () => {
    const gw = gateway();
    gw.client.session.set(sessionTokens(1));
    renderWithClient(<Shell />, gw.client, '/admin/h1/documents');
    expect(await screen.findByText('This folder is empty.')).toBeTruthy();
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Drop files to upload'), {
        target: { files: [file('w2.pdf'), file('1099.pdf')] },
      });
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    expect(tray()).toBeTruthy();

    await act(async () => gw.client.session.signOut('user'));
    expect(FakeXhr.all.every((x) => x.aborted)).toBe(true);
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
    expect(screen.getByTestId('upload-announcer').textContent).toBe('');
    expect(processCalls(gw.calls)).toHaveLength(0);
    expect(screen.queryByText(UPLOAD_MESSAGES.cancelled)).toBeNull();
  });
});
