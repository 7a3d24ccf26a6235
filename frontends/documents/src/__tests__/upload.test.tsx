import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { documentsApi } from '../api/documents-api.js';
import { FileManager } from '../documents/FileManager.js';
import { capabilitiesFor, DISABLED_BY_FIRM } from '../rules/capabilities.js';
import { TOUCH_ONLY_QUERY } from '../upload/touch.js';
import { UPLOAD_GOES_ON } from '../upload/UploadDialog.js';
import { overallProgress, UploadProgressList, uploadResult } from '../upload/UploadProgressList.js';
import {
  emptyOutcome,
  FILE_BATCH,
  type FileProgress,
  PARALLEL_PUTS,
  putFile,
  renewalTime,
  STALLED_UPLOAD_MS,
  sendFiles,
  type Transfer,
  UPLOAD_MESSAGES,
  type UploadOptions,
  uploadFiles,
  uploadToasts,
} from '../upload/upload.js';
import { uploadQueue } from '../upload/upload-queue.js';
import { aCompany, type Call, FakeXhr, fakeApi, makeFakeXhr, uploadLinksAnswer } from './fixtures.js';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

function gateway(process: (call: Call) => unknown) {
  return fakeApi((call) => {
    if (call.path === '/integrations/upload_links')
      return uploadLinksAnswer(call, { 'content-type': 'application/pdf' });
    if (call.path === '/integrations/process_document') return { body: process(call) };
    if (call.path === '/integrations/get_documents') return { body: { documents: [], path: '/', count: 0 } };
    return undefined;
  });
}

const processed = (ids: string[], over: (id: string) => Record<string, unknown> = () => ({})) => ({
  files: ids.map((id) => ({
    upload_id: id,
    document_name: id.replace('up-', ''),
    document_location: `/${id.replace('up-', '')}`,
    is_duplicate: false,
    invalid: false,
    is_protected: false,
    message: '',
    ...over(id),
  })),
  message: '',
  invalid_files: [],
  document_location: '',
  is_duplicate: false,
});

/** An upload of company c-1 through the fake gateway and the fake XMLHttpRequest, into `/` unless said. */
const uploadThrough = (
  client: Parameters<typeof documentsApi>[0],
  entries: UploadOptions['entries'],
  more: Partial<UploadOptions> = {},
) =>
  uploadFiles({
    api: documentsApi(client),
    companyId: 'c-1',
    path: '/',
    entries,
    makeXhr: makeFakeXhr,
    ...more,
  });

/** Whether closing or leaving the page now asks first. */
function leavingAsks() {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

/** Files named so, each into the folder the upload goes to. */
const plain = (names: string[]) => names.map((n) => ({ file: file(n), dir: '' }));

beforeEach(() => {
  FakeXhr.all = [];
});
afterEach(() => {
  uploadQueue.endSession();
});

async function settlePuts(status = 200) {
  await waitFor(() => expect(FakeXhr.all.length).toBeGreaterThan(0));
  // Async: what the answers set off (the process calls, the toasts) settles inside act too.
  await act(async () => {
    for (const x of FakeXhr.all) {
      x.progress(5, 10);
      x.respond(status);
    }
  });
}

describe('presigned upload', () => {
  it('PUTs each file to its link with the headers, reports progress, then processes what was sent', async () => {
    const { client, calls } = gateway((c) => processed(c.body.uploadIds as string[]));
    const changes: { index: number; progress?: number; state?: string }[] = [];
    const run = uploadThrough(client, plain(['a.pdf']), {
      path: '/2024',
      onChange: (index, change) => changes.push({ index, ...change }),
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    const xhr = FakeXhr.all[0] as FakeXhr;
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('http://s3.test/bucket/0');
    expect(xhr.headers['content-type']).toBe('application/pdf');
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.respond(200);
    const outcome = await run;
    expect(changes.filter((c) => c.progress !== undefined).map((c) => c.progress)).toEqual([
      0, 0.25, 1, 1, 1,
    ]);
    expect(changes.at(-1)).toEqual({ index: 0, state: 'done' });
    expect(outcome.uploaded).toEqual(['a.pdf']);
    const proc = calls.find((c) => c.path === '/integrations/process_document');
    expect(proc?.body).toMatchObject({ companyId: 'c-1', path: '/2024', uploadIds: ['up-a.pdf'] });
  });

  it('files a dropped folder into its sub-folders', async () => {
    const { client, calls } = gateway((c) => processed(c.body.uploadIds as string[]));
    const run = uploadThrough(client, [
      { file: file('a.pdf'), dir: 'Receipts' },
      { file: file('b.pdf'), dir: 'Receipts/May' },
    ]);
    await settlePuts();
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    await settlePuts();
    await run;
    expect(calls.filter((c) => c.path === '/integrations/process_document').map((c) => c.body.path)).toEqual([
      '/Receipts',
      '/Receipts/May',
    ]);
  });

  it('reports duplicates, invalid files and failed PUTs', async () => {
    const { client } = gateway((c) =>
      processed(c.body.uploadIds as string[], (id) =>
        id === 'up-dup.pdf' ? { is_duplicate: true } : id === 'up-bad.pdf' ? { invalid: true } : {},
      ),
    );
    const run = uploadThrough(client, plain(['ok.pdf', 'dup.pdf', 'bad.pdf', 'lost.pdf']));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(4));
    FakeXhr.all.forEach((x, i) => {
      x.respond(i === 3 ? 0 : 200);
    });
    const outcome = await run;
    expect(outcome).toMatchObject({
      uploaded: ['ok.pdf'],
      duplicates: ['dup.pdf'],
      invalid: ['bad.pdf'],
      failed: ['lost.pdf'],
    });
    expect(uploadToasts(outcome)).toEqual([
      { kind: 'error', message: UPLOAD_MESSAGES.invalid },
      { kind: 'error', message: 'File upload failed, please try again.' },
      { kind: 'success', message: 'Document(s) uploaded successfully' },
      { kind: 'info', message: 'dup.pdf was already uploaded' },
    ]);
  });

  it('names the first duplicates and counts the rest, after any error, for a folder uploaded again', () => {
    const outcome = {
      ...emptyOutcome(),
      duplicates: Array.from({ length: 200 }, (_, i) => `scan-${i}.pdf`),
      invalid: ['bad.pdf'],
    };
    expect(uploadToasts(outcome)).toEqual([
      { kind: 'error', message: UPLOAD_MESSAGES.invalid },
      { kind: 'info', message: 'scan-0.pdf was already uploaded' },
      { kind: 'info', message: 'scan-1.pdf was already uploaded' },
      { kind: 'info', message: 'scan-2.pdf was already uploaded' },
      { kind: 'info', message: '197 more files were already uploaded' },
    ]);
  });

  it('gives up a PUT that stalls, but not one that keeps sending', async () => {
    jest.useFakeTimers();
    try {
      const link = { url: 'http://s3.test/bucket/0', method: 'PUT', headers: {} };
      const moving = putFile(link, file('big.pdf'), () => {}, makeFakeXhr);
      const movingXhr = FakeXhr.all.at(-1) as FakeXhr;
      for (let sent = 1; sent <= 4; sent++) {
        jest.advanceTimersByTime(STALLED_UPLOAD_MS - 1_000);
        movingXhr.progress(sent, 5);
      }
      expect(movingXhr.aborted).toBe(false);
      movingXhr.respond(200);
      await expect(moving).resolves.toBeUndefined();

      const stuck = putFile(link, file('stuck.pdf'), () => {}, makeFakeXhr);
      const stuckXhr = FakeXhr.all.at(-1) as FakeXhr;
      stuckXhr.progress(1, 5);
      jest.advanceTimersByTime(STALLED_UPLOAD_MS);
      expect(stuckXhr.aborted).toBe(true);
      await expect(stuck).rejects.toThrow('upload aborted');
    } finally {
      jest.useRealTimers();
    }
  });

  it("renews links by the browser's clock from their lifetime, not their expiry time", () => {
    const link = (expires_in_seconds?: number) => ({
      upload_id: 'u',
      file_name: 'a.pdf',
      url: 'http://s3.test/a',
      method: 'PUT',
      headers: {},
      // Written by a server whose clock is an hour ahead of this browser's: not used.
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      expires_in_seconds,
    });
    expect(renewalTime(link(900), 1_000_000)).toBe(1_000_000 + 900_000 - 60_000);
    expect(renewalTime(link(60), 0)).toBe(45_000);
    expect(renewalTime(link(), 0)).toBeUndefined();
  });

  it('renews the links due before their PUT starts, with one call for every file not started yet', async () => {
    const link = (name: string, version: string) => ({
      upload_id: `${version}-${name}`,
      file_name: name,
      url: `http://s3.test/${version}/${name}`,
      method: 'PUT',
      headers: {},
      expires_at: '',
      expires_in_seconds: 900,
    });
    const now = Date.now();
    const names = ['a.pdf', 'b.pdf', 'c.pdf'];
    // The first link is fresh, the other two are due.
    const transfers: Transfer[] = names.map((name, index) => ({
      index,
      file: file(name),
      link: link(name, 'old'),
      renewAt: index === 0 ? now + 600_000 : now - 1,
    }));
    const asked: string[][] = [];
    const run = sendFiles(transfers, {
      onChange: () => {},
      makeXhr: makeFakeXhr,
      relink: async (files) => {
        asked.push(files.map((f) => f.name));
        return files.map((f) => link(f.name, 'new'));
      },
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(3));
    for (const x of FakeXhr.all) x.respond(200);
    const { sent } = await run;
    expect(asked).toEqual([['b.pdf', 'c.pdf']]);
    expect(FakeXhr.all.map((x) => x.url).sort()).toEqual([
      'http://s3.test/new/b.pdf',
      'http://s3.test/new/c.pdf',
      'http://s3.test/old/a.pdf',
    ]);
    expect(sent.map((s) => s.uploadId).sort()).toEqual(['new-b.pdf', 'new-c.pdf', 'old-a.pdf']);
  });

  it('says so when nothing came back', () => {
    expect(uploadToasts(emptyOutcome())).toEqual([
      { kind: 'error', message: 'Could not upload those files. Try uploading them one at a time.' },
    ]);
  });

  it('says to upload one at a time when the service files none of the files it was asked to', async () => {
    const { client } = gateway(() => ({ files: [], message: '', invalid_files: [] }));
    const states: (string | undefined)[] = [];
    const run = uploadThrough(client, plain(['a.pdf', 'b.pdf']), {
      onChange: (_index, change) => change.state && states.push(change.state),
    });
    await settlePuts();
    const outcome = await run;
    expect(outcome.unanswered.sort()).toEqual(['a.pdf', 'b.pdf']);
    expect(states.filter((s) => s === 'failed')).toHaveLength(2);
    expect(uploadToasts(outcome)).toEqual([
      { kind: 'error', message: 'Could not upload those files. Try uploading them one at a time.' },
    ]);
  });

  it('files what landed in batches while the rest is still being sent', async () => {
    const { client, calls } = gateway((c) => processed(c.body.uploadIds as string[]));
    const count = FILE_BATCH + 5;
    const run = uploadThrough(
      client,
      Array.from({ length: count }, (_, i) => ({ file: file(`scan-${i}.pdf`), dir: '' })),
    );
    const processCalls = () => calls.filter((c) => c.path === '/integrations/process_document');
    // The PUTs land one by one; each frees a slot for the next file.
    for (let landed = 0; landed < FILE_BATCH; landed++) {
      await waitFor(() => expect(FakeXhr.all.length).toBeGreaterThan(landed));
      (FakeXhr.all[landed] as FakeXhr).respond(200);
    }
    await waitFor(() => expect(processCalls()).toHaveLength(1));
    expect(processCalls()[0]?.body.uploadIds).toHaveLength(FILE_BATCH);
    expect(FakeXhr.all.length).toBe(Math.min(count, FILE_BATCH + PARALLEL_PUTS));
    for (let landed = FILE_BATCH; landed < count; landed++) {
      await waitFor(() => expect(FakeXhr.all.length).toBeGreaterThan(landed));
      (FakeXhr.all[landed] as FakeXhr).respond(200);
    }
    const outcome = await run;
    expect(processCalls().map((c) => (c.body.uploadIds as string[]).length)).toEqual([FILE_BATCH, 5]);
    expect(outcome.uploaded).toHaveLength(count);
  });

  it('stops on cancel: the PUTs in flight are aborted, no other starts, and nothing is processed', async () => {
    const { client, calls } = gateway((c) => processed(c.body.uploadIds as string[]));
    const controller = new AbortController();
    const states = new Map<number, string>();
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}.pdf`);
    const run = uploadThrough(client, plain(names), {
      signal: controller.signal,
      onChange: (index, change) => change.state && states.set(index, change.state),
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(4));
    // The first file reaches storage, so the fifth starts; then the upload is cancelled.
    (FakeXhr.all[0] as FakeXhr).respond(200);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(5));
    controller.abort();
    const outcome = await run;
    expect(FakeXhr.all.map((x) => x.aborted)).toEqual([false, true, true, true, true]);
    expect(calls.filter((c) => c.path === '/integrations/process_document')).toHaveLength(0);
    expect(outcome).toMatchObject({ uploaded: [], failed: [], cancelled: expect.arrayContaining(names) });
    expect(outcome.cancelled).toHaveLength(6);
    expect([...states.values()]).toEqual(Array(6).fill('cancelled'));
    expect(uploadToasts(outcome)).toEqual([{ kind: 'info', message: UPLOAD_MESSAGES.cancelled }]);
  });

  it('keeps what was filed before a cancel, in the folders already done', async () => {
    const { client, calls } = gateway((c) => processed(c.body.uploadIds as string[]));
    const controller = new AbortController();
    const run = uploadThrough(
      client,
      [
        { file: file('here.pdf'), dir: '' },
        { file: file('later.pdf'), dir: 'Receipts' },
      ],
      { signal: controller.signal },
    );
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    (FakeXhr.all[0] as FakeXhr).respond(200);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    controller.abort();
    const outcome = await run;
    expect(outcome).toMatchObject({ uploaded: ['here.pdf'], cancelled: ['later.pdf'] });
    expect(calls.filter((c) => c.path === '/integrations/process_document')).toHaveLength(1);
    expect(uploadToasts(outcome)).toEqual([
      { kind: 'success', message: UPLOAD_MESSAGES.success },
      { kind: 'info', message: UPLOAD_MESSAGES.cancelled },
    ]);
  });
});

/**
 * A file manager on the fake gateway (whose process step answers `process`), its upload dialog opened
 * and `files` chosen in it; answers the dialog and the gateway's calls.
 */
async function chooseInUploadDialog(
  role: 'advisor' | 'client',
  process: (call: Call) => unknown,
  files: File[],
) {
  const { client, calls } = gateway(process);
  const view = renderWithClient(
    <FileManager
      api={documentsApi(client)}
      company={aCompany()}
      caps={capabilitiesFor({ role })}
      makeXhr={makeFakeXhr}
    />,
    client,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
  const dialog = await screen.findByRole('dialog');
  await act(async () => {
    fireEvent.change(within(dialog).getByLabelText('Choose files'), { target: { files } });
  });
  return { dialog, calls, view };
}

describe('file manager upload', () => {
  it('refuses a choice of more than 999 files in the dialog with the spec message, sending none', async () => {
    const many = Array.from({ length: 1_000 }, (_, i) => file(`scan-${i}.pdf`));
    const { calls } = await chooseInUploadDialog(
      'advisor',
      (c) => processed(c.body.uploadIds as string[]),
      many,
    );
    expect(await screen.findByText(UPLOAD_MESSAGES.tooMany)).toBeTruthy();
    expect(calls.some((c) => c.path === '/integrations/upload_links')).toBe(false);
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('shows a progress bar per file, one for the whole upload, and the success toast', async () => {
    const { dialog } = await chooseInUploadDialog('client', (c) => processed(c.body.uploadIds as string[]), [
      file('w2.pdf'),
      file('1099.pdf'),
    ]);
    expect(within(dialog).getByText('Max size 150 MB')).toBeTruthy();
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => (FakeXhr.all[0] as FakeXhr).progress(40, 100));
    const bars = within(dialog).getAllByRole('progressbar');
    expect(bars.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Upload of all files',
      'Upload of w2.pdf',
      'Upload of 1099.pdf',
    ]);
    // Two files of the same size, one at 40%: the whole upload at 20%.
    expect(bars.map((b) => b.getAttribute('aria-valuenow'))).toEqual(['20', '40', '0']);
    expect(within(dialog).getByText('0 of 2 files finished')).toBeTruthy();
    act(() => {
      for (const x of FakeXhr.all) {
        x.progress(100, 100);
        x.respond(200);
      }
    });
    expect(await screen.findByText('Document(s) uploaded successfully')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('progressbar')
          .map((b) => b.getAttribute('aria-valuenow')),
      ).toEqual(['100', '100']),
    );
    // Once none is in flight, what became of them instead of the bar.
    expect(within(dialog).getByTestId('upload-summary').textContent).toBe('2 of 2 files uploaded');
  });

  it('sends the files that failed again, and only those, on the retry button', async () => {
    const { dialog, calls } = await chooseInUploadDialog(
      'client',
      (c) => processed(c.body.uploadIds as string[]),
      [file('w2.pdf'), file('1099.pdf')],
    );
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    // The connection drops during the first PUT; the second lands.
    act(() => {
      (FakeXhr.all[0] as FakeXhr).respond(0);
      (FakeXhr.all[1] as FakeXhr).respond(200);
    });
    const retry = await within(dialog).findByRole('button', { name: 'Try the failed file again' });
    expect(within(dialog).getAllByText('Upload failed')).toHaveLength(1);
    const linksAsked = () => calls.filter((c) => c.path === '/integrations/upload_links');
    expect(linksAsked()).toHaveLength(1);
    FakeXhr.all = [];
    await act(async () => {
      fireEvent.click(retry);
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(linksAsked()[1]?.body.files).toEqual([expect.objectContaining({ name: 'w2.pdf' })]);
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    // The upload's list keeps the file that landed the first time.
    await waitFor(() => expect(within(dialog).getAllByText('Upload successful')).toHaveLength(2));
    expect(within(dialog).queryByRole('button', { name: /failed/ })).toBeNull();
  });

  it('cancels from the dialog, and asks before the page is left only while files are being sent', async () => {
    const { dialog, calls } = await chooseInUploadDialog(
      'client',
      (c) => processed(c.body.uploadIds as string[]),
      [file('w2.pdf'), file('1099.pdf')],
    );
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    expect(leavingAsks()).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText(UPLOAD_MESSAGES.cancelled)).toBeTruthy();
    expect(within(dialog).getAllByText('Cancelled')).toHaveLength(2);
    expect(FakeXhr.all.every((x) => x.aborted)).toBe(true);
    expect(calls.filter((c) => c.path === '/integrations/process_document')).toHaveLength(0);
    expect(within(dialog).queryByRole('button', { name: /failed/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(leavingAsks()).toBe(false);
  });

  it('can be closed while files are being sent: the upload goes on, and the dialog shows it again', async () => {
    const { dialog } = await chooseInUploadDialog('client', (c) => processed(c.body.uploadIds as string[]), [
      file('w2.pdf'),
    ]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(within(dialog).getByText(UPLOAD_GOES_ON)).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(FakeXhr.all[0]?.aborted).toBe(false);
    // Meanwhile no other upload starts here: the drop area and the dialog's choice wait for this one.
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const again = await screen.findByRole('dialog');
    expect((within(again).getByRole('button', { name: 'Choose files' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    expect(await screen.findByText(UPLOAD_MESSAGES.success)).toBeTruthy();
    expect(within(again).getByText('Upload successful')).toBeTruthy();
    // Seen here, the finished upload is taken away with the dialog.
    fireEvent.click(within(again).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(uploadQueue.getSnapshot()).toHaveLength(0));
  });

  it('goes on after the file manager is left for another page, asking before the page is left until it ends', async () => {
    const { view, calls } = await chooseInUploadDialog(
      'client',
      (c) => processed(c.body.uploadIds as string[]),
      [file('w2.pdf')],
    );
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    view.unmount();
    expect(leavingAsks()).toBe(true);
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(calls.some((c) => c.path === '/integrations/process_document')).toBe(true));
    await waitFor(() => expect(leavingAsks()).toBe(false));
  });

  it("shows the server's duplicate message as a toast", async () => {
    await chooseInUploadDialog(
      'advisor',
      (c) => processed(c.body.uploadIds as string[], () => ({ is_duplicate: true })),
      [file('w2.pdf')],
    );
    await settlePuts();
    expect(await screen.findByText('w2.pdf was already uploaded')).toBeTruthy();
  });
});

/** A drop of files as a browser gives them: each with its place in what was dropped ('/Receipts/a.pdf'). */
function dropOn(target: HTMLElement, dropped: { file: File; fullPath: string }[]) {
  const items = dropped.map(({ file, fullPath }) => ({
    kind: 'file',
    type: file.type,
    getAsFile: () => file,
    webkitGetAsEntry: () => ({ isDirectory: false, isFile: true, fullPath }),
  }));
  fireEvent.drop(target, {
    dataTransfer: { files: dropped.map((d) => d.file), items, types: ['Files'] },
  });
}

describe('folder uploads when the firm disables folder actions', () => {
  function show(role: 'advisor' | 'client') {
    const gw = gateway((c) => processed(c.body.uploadIds as string[]));
    renderWithClient(
      <FileManager
        api={documentsApi(gw.client)}
        company={aCompany()}
        caps={capabilitiesFor({ role, preferences: { disable_folder_action: true } })}
        makeXhr={makeFakeXhr}
      />,
      gw.client,
    );
    return gw;
  }

  it("disables a client's folder choice with 'Disabled by firm', not the file choice", async () => {
    show('client');
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    const folder = within(dialog).getByRole('button', {
      name: 'Choose a folder',
      description: DISABLED_BY_FIRM,
    });
    expect(folder.getAttribute('aria-disabled')).toBe('true');
    expect((within(dialog).getByRole('button', { name: 'Choose files' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(within(dialog).getByText('Drag files here')).toBeTruthy();
  });

  it("refuses a client's dropped folder with a message and still uploads the files dropped with it", async () => {
    const gw = show('client');
    await screen.findByText('This folder is empty.');
    await act(async () => {
      dropOn(screen.getByTestId('drop-area'), [
        { file: file('w2.pdf'), fullPath: '/w2.pdf' },
        { file: file('a.pdf'), fullPath: '/Receipts/a.pdf' },
      ]);
    });
    expect(await screen.findByText(UPLOAD_MESSAGES.foldersDisabled)).toBeTruthy();
    await settlePuts();
    expect(await screen.findByText('Document(s) uploaded successfully')).toBeTruthy();
    const links = gw.calls.filter((c) => c.path === '/integrations/upload_links');
    expect(links.map((c) => [c.body.path, (c.body.files as { name: string }[]).map((f) => f.name)])).toEqual([
      ['/', ['w2.pdf']],
    ]);
    expect(FakeXhr.all).toHaveLength(1);
  });

  it('refuses a folder dropped in the upload dialog too, uploading nothing when only a folder came', async () => {
    const gw = show('client');
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => {
      dropOn(within(dialog).getByTestId('upload-dropzone'), [
        { file: file('a.pdf'), fullPath: '/Receipts/a.pdf' },
      ]);
    });
    expect(await screen.findByText(UPLOAD_MESSAGES.foldersDisabled)).toBeTruthy();
    expect(gw.calls.some((c) => c.path === '/integrations/upload_links')).toBe(false);
  });

  it('lets advisors upload a folder whatever the preference', async () => {
    const gw = show('advisor');
    await screen.findByText('This folder is empty.');
    await act(async () => {
      dropOn(screen.getByTestId('drop-area'), [{ file: file('a.pdf'), fullPath: '/Receipts/a.pdf' }]);
    });
    await settlePuts();
    await waitFor(() =>
      expect(gw.calls.find((c) => c.path === '/integrations/upload_links')?.body.path).toBe('/Receipts'),
    );
    expect(screen.queryByText(UPLOAD_MESSAGES.foldersDisabled)).toBeNull();
    // The upload ends in this test, its toast with it, not in the next one's.
    expect(await screen.findByText(UPLOAD_MESSAGES.success)).toBeTruthy();
  });
});

describe("the whole upload's progress", () => {
  const line = (state: FileProgress['state'], progress: number, size?: number): FileProgress => ({
    key: `${state}-${progress}-${size}`,
    name: 'a.pdf',
    state,
    progress,
    size,
  });

  it('weighs each file by its size, and counts finished files whole', () => {
    expect(overallProgress([line('uploading', 0.5, 300), line('waiting', 0, 100)])).toBeCloseTo(0.375);
    expect(overallProgress([line('failed', 0.2, 100), line('uploading', 0.5, 100)])).toBeCloseTo(0.75);
    expect(overallProgress([line('uploading', 0.5), line('waiting', 0)])).toBeCloseTo(0.25);
    expect(overallProgress([])).toBe(0);
  });

  it('says what became of the files once none is in flight', () => {
    expect(uploadResult([line('done', 1), line('done', 1)])).toBe('2 of 2 files uploaded');
    expect(
      uploadResult([
        line('done', 1),
        line('invalid', 1),
        line('failed', 1),
        line('duplicate', 1),
        line('cancelled', 0),
      ]),
    ).toBe('1 of 5 files uploaded, 1 failed, 1 invalid, 1 already uploaded, 1 cancelled');
  });
});

describe('on a device with touch only', () => {
  it('says to choose files, and offers no folder choice, where nothing can be dragged', async () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query === TOUCH_ONLY_QUERY,
    })) as typeof window.matchMedia;
    try {
      const { dialog } = await chooseInUploadDialog('advisor', () => ({}), []);
      expect(within(dialog).getByText('Choose the files to upload')).toBeTruthy();
      expect(within(dialog).queryByText(/Drag files/)).toBeNull();
      expect(within(dialog).queryByRole('button', { name: 'Choose a folder' })).toBeNull();
      expect(within(dialog).getByRole('button', { name: 'Choose files' })).toBeTruthy();
    } finally {
      window.matchMedia = original;
    }
  });
});

describe('the progress list on the page', () => {
  it('can be taken away once the upload has finished, not while it runs', () => {
    const onDismiss = jest.fn();
    const row = (state: FileProgress['state']) => ({ key: 'k', name: 'a.pdf', progress: 1, state });
    const { client } = fakeApi();
    const running = renderWithClient(
      <UploadProgressList files={[row('uploading')]} onDismiss={onDismiss} />,
      client,
    );
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    running.unmount();
    renderWithClient(<UploadProgressList files={[row('done')]} onDismiss={onDismiss} />, client);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalled();
  });
});
