import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SessionStore } from '@portico/kit';
import { aCurrentUser, renderWithClient, sessionTokens } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useNavigate } from 'react-router';
import { documentsApi } from '../api/documents-api.js';
import DocumentsRoute from '../documents/DocumentsRoute.js';
import { SMALL_SCREEN_QUERY } from '../upload/UploadTray.js';
import { UPLOAD_MESSAGES } from '../upload/upload.js';
import { uploadQueue } from '../upload/upload-queue.js';
import {
  aCompany,
  type Call,
  FakeXhr,
  fakeApi,
  uploadLinksAnswer,
  uploadsThroughFakeXhr,
} from './fixtures.js';

const anders = aCompany();
const baker = aCompany({ id: 'c-2', hash_id: 'h2', name: 'Baker Family Trust', entity_type: 'Trust' });
const file = (name: string) => new File([new Uint8Array(10)], name, { type: 'application/pdf' });
const RESERVED = 'This folder is reserved and cannot be changed';

/** The gateway of an advisor of the firm of both companies; process_document answers `process`. */
function gateway(process: (call: Call) => { status?: number; body: unknown } = filed) {
  return fakeApi((call: Call) => {
    if (call.path === '/current_user')
      return { body: aCurrentUser({ is_advisor: true, firm_access: 'partner' }) };
    if (call.path === '/firms/current_user_firm')
      return { body: { id: 'f-1', name: 'Demo CPA', preferences: {} } };
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

uploadsThroughFakeXhr(uploadQueue);

const processCalls = (calls: Call[]) => calls.filter((c) => c.path === '/integrations/process_document');
const tray = () => screen.getByRole('region', { name: 'Uploads' });
const andersBatch = () =>
  within(tray()).getByRole('group', { name: 'Upload to Anders Design LLC, All Files' });
const andersBatches = () =>
  within(tray()).getAllByRole('group', { name: 'Upload to Anders Design LLC, All Files' });
const announced = () => screen.getByTestId('upload-announcer').textContent;

/** Whether closing or leaving the page now asks first. */
function leavingAsks() {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

/** Drops `names` on the shown file list; the PUTs started. */
async function drop(names: string[]) {
  const before = FakeXhr.all.length;
  await act(async () => {
    fireEvent.change(screen.getByLabelText('Drop files to upload'), { target: { files: names.map(file) } });
  });
  await waitFor(() => expect(FakeXhr.all).toHaveLength(before + Math.min(names.length, 4)));
}

/** Anders' documents shown, its session signed in. */
async function andersDocuments(process?: Parameters<typeof gateway>[0]) {
  const gw = gateway(process);
  gw.client.session.set(sessionTokens(1));
  const view = renderWithClient(<Shell />, gw.client, '/admin/h1/documents');
  expect(await screen.findByText('This folder is empty.')).toBeTruthy();
  return { ...gw, view };
}

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

  it('refuses to send a batch again while another upload to its entity runs, and says why', async () => {
    let refuse = true;
    await andersDocuments((call) => (refuse ? { status: 500, body: {} } : filed(call)));
    await drop(['w2.pdf']);
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(within(andersBatch()).getByText(UPLOAD_MESSAGES.fileFailed)).toBeTruthy());
    refuse = false;
    await drop(['1099.pdf']);

    const [older] = andersBatches();
    const retry = within(older as HTMLElement).getByRole('button', { name: 'Try the failed file again' });
    expect(retry.hasAttribute('disabled')).toBe(true);
    expect(retry.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(retry.getAttribute('aria-describedby') as string)?.textContent).toBe(
      'Another upload to Anders Design LLC is running: try again once it has ended.',
    );
    // Refused by the queue too, not only by the button.
    act(() => uploadQueue.retryFailed(uploadQueue.getSnapshot()[0]?.id as number));
    expect(FakeXhr.all).toHaveLength(2);
    expect(uploadQueue.getSnapshot().filter((batch) => batch.running)).toHaveLength(1);

    // Once the new upload has ended, the older one can be sent again.
    await act(async () => (FakeXhr.all[1] as FakeXhr).respond(200));
    await waitFor(() =>
      expect(
        within(andersBatches()[0] as HTMLElement)
          .getByRole('button', { name: 'Try the failed file again' })
          .hasAttribute('disabled'),
      ).toBe(false),
    );
  });

  it('shows in the upload dialog the newest upload to its entity that runs, and cancels that one', async () => {
    const gw = await andersDocuments();
    await drop(['w2.pdf']);
    // The queue itself does not refuse a second start for an entity: the file manager waits instead.
    await act(async () => {
      void uploadQueue.start({
        api: documentsApi(gw.client),
        company: { id: anders.id, name: anders.name },
        path: '/',
        entries: [{ file: file('1099.pdf'), dir: '' }],
      });
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));

    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('1099.pdf')).toBeTruthy();
    expect(within(dialog).queryByText('w2.pdf')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel upload' })));
    expect(FakeXhr.all.map((x) => x.aborted)).toEqual([false, true]);
    await waitFor(() =>
      expect(within(andersBatches()[1] as HTMLElement).getByText('Cancelled')).toBeTruthy(),
    );
    expect(within(andersBatches()[0] as HTMLElement).queryByText('Cancelled')).toBeNull();
  });

  it('counts and announces only the files sent again while a retry runs', async () => {
    await andersDocuments();
    await drop(['a.pdf', 'b.pdf', 'c.pdf']);
    await act(async () => {
      (FakeXhr.all[0] as FakeXhr).respond(200);
      (FakeXhr.all[1] as FakeXhr).respond(500);
      (FakeXhr.all[2] as FakeXhr).respond(500);
    });
    await waitFor(() => expect(announced()).toMatch(/ended: 1 of 3 files uploaded, 2 failed/));

    fireEvent.click(within(andersBatch()).getByRole('button', { name: 'Try the 2 failed files again' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(5));
    expect(announced()).toBe('Uploading 2 files again to Anders Design LLC, All Files.');
    act(() => (FakeXhr.all[3] as FakeXhr).progress(5, 10));
    expect(within(tray()).getByText('25% of 2 files')).toBeTruthy();
    expect(
      within(tray()).getByRole('progressbar', { name: 'All uploads' }).getAttribute('aria-valuenow'),
    ).toBe('25');

    await act(async () => {
      (FakeXhr.all[3] as FakeXhr).respond(200);
      (FakeXhr.all[4] as FakeXhr).respond(200);
    });
    await waitFor(() =>
      expect(announced()).toBe('Upload to Anders Design LLC, All Files ended: 3 of 3 files uploaded.'),
    );
  });

  it('lets the page go without asking once another user signs in in another tab', async () => {
    const gw = await andersDocuments();
    await drop(['w2.pdf', '1099.pdf']);
    expect(leavingAsks()).toBe(true);
    // A reload for the new user once the queue has heard of them (a listener added after the upload's):
    // the cancelled upload is still settling, its warning must be gone already.
    let reloadAsked: boolean | undefined;
    const stopListening = gw.client.session.onUserChanged(() => {
      reloadAsked = leavingAsks();
    });
    const otherTab = new SessionStore(window.localStorage);
    try {
      await act(async () => {
        otherTab.set({ ...sessionTokens(2), user_id: 'u2' });
        await waitFor(() => expect(reloadAsked).toBeDefined());
      });
    } finally {
      stopListening();
      otherTab.close();
    }
    expect(reloadAsked).toBe(false);
    expect(FakeXhr.all.every((x) => x.aborted)).toBe(true);
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
    expect(leavingAsks()).toBe(false);
  });
});

describe('the upload tray on a small screen', () => {
  const realMatchMedia = window.matchMedia;
  const realRect = HTMLElement.prototype.getBoundingClientRect;
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      ...realMatchMedia(query),
      matches: query === SMALL_SCREEN_QUERY,
    })) as typeof window.matchMedia;
    // jsdom lays nothing out: the tray says it is 120 px high.
    HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
      if (this.dataset.testid !== 'upload-tray') return realRect.call(this);
      return DOMRect.fromRect({ width: 380, height: 120 });
    };
  });
  afterEach(() => {
    window.matchMedia = realMatchMedia;
    HTMLElement.prototype.getBoundingClientRect = realRect;
  });

  it('starts with its file list hidden, and keeps room for itself under the page, away from the toasts', async () => {
    await andersDocuments();
    await drop(['w2.pdf', '1099.pdf']);
    const toggle = within(tray()).getByRole('button', { name: 'Show files' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(tray()).queryByRole('group')).toBeNull();
    // The bar for everything running still shows.
    expect(within(tray()).getByRole('progressbar', { name: 'All uploads' })).toBeTruthy();

    fireEvent.click(toggle);
    expect(within(tray()).getByRole('button', { name: 'Hide files' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    const list = document.getElementById(toggle.getAttribute('aria-controls') as string) as HTMLElement;
    expect(within(list).getByRole('group', { name: 'Upload to Anders Design LLC, All Files' })).toBeTruthy();
    expect(list.style.maxHeight).toBe('30vh');

    // The tray's height and its distance from the bottom edge, kept under the page's content.
    const room = screen.getByTestId('upload-tray-room');
    expect(room.getAttribute('aria-hidden')).toBe('true');
    expect(room.style.height).toBe('calc(8.5rem * var(--mantine-scale))');
    // The toasts show bottom right: the tray bottom left, beside the shell's navigation.
    expect(tray().style.left).toBe('calc(var(--app-shell-navbar-offset, 0rem) + 16px)');
    expect(tray().style.right).toBe('');

    await act(async () => {
      for (const x of FakeXhr.all) x.respond(200);
    });
    fireEvent.click(await within(tray()).findByRole('button', { name: 'Dismiss all' }));
    expect(screen.queryByTestId('upload-tray-room')).toBeNull();
  });
});
