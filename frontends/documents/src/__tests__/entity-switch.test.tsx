import { describe, expect, it, jest } from '@jest/globals';
import { aCurrentUser, renderWithClient } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { documentsApi } from '../api/documents-api.js';
import { CompanyDocuments } from '../documents/DocumentsRoute.js';
import { UploadQueue, uploadQueue } from '../upload/upload-queue.js';
import {
  aCompany,
  type Call,
  FakeXhr,
  fakeApi,
  makeFakeXhr,
  uploadLinksAnswer,
  uploadsThroughFakeXhr,
} from './fixtures.js';

const anders = aCompany();
const baker = aCompany({ id: 'c-2', hash_id: 'h2', name: 'Baker Family Trust', entity_type: 'Trust' });
const file = (name: string) => new File([new Uint8Array(10)], name, { type: 'application/pdf' });

/** The gateway of an advisor of the firm of both companies, with empty folders and uploads filed. */
function gateway() {
  return fakeApi((call: Call) => {
    if (call.path === '/current_user')
      return { body: aCurrentUser({ is_advisor: true, firm_access: 'partner' }) };
    if (call.path === '/firms/current_user_firm')
      return { body: { id: 'f-1', name: 'Demo CPA', preferences: {} } };
    if (call.path === '/companies/h1') return { body: anders };
    if (call.path === '/companies/h2') return { body: baker };
    if (call.path === '/integrations/get_documents') return { body: { documents: [], path: '/', count: 0 } };
    if (call.path === '/integrations/upload_links') return uploadLinksAnswer(call);
    if (call.path === '/integrations/process_document') {
      const ids = call.body.uploadIds as string[];
      return {
        body: {
          files: ids.map((id) => ({ upload_id: id, document_name: id.replace('up-', ''), invalid: false })),
        },
      };
    }
    return undefined;
  });
}

/** The documents page, whose entity the test switches as the advisor navigation does (same route). */
function SwitchableDocuments() {
  const [hash, setHash] = useState('h1');
  return (
    <>
      <button type="button" onClick={() => setHash('h2')}>
        Go to Baker
      </button>
      <CompanyDocuments companyHash={hash} />
    </>
  );
}

uploadsThroughFakeXhr(uploadQueue);

/** The page on company A, with `names` dropped on its list, and company B already known (cached). */
async function showWithUpload(names: string[]) {
  const gw = gateway();
  const view = renderWithClient(<SwitchableDocuments />, gw.client);
  expect(await screen.findByText('Anders Design LLC')).toBeTruthy();
  view.queryClient.setQueryData(['documents', 'company', 'h2'], baker);
  await act(async () => {
    fireEvent.change(screen.getByLabelText('Drop files to upload'), { target: { files: names.map(file) } });
  });
  await waitFor(() => expect(FakeXhr.all).toHaveLength(names.length));
  return { gw, view };
}

describe('switching entity on the documents page', () => {
  it("starts the other entity's file manager afresh: no search, deleted files or upload list of the first", async () => {
    const { gw } = await showWithUpload(['w2.pdf', '1099.pdf']);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search documents' }), { target: { value: 'w2' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Include deleted files' }));
    await act(async () => {
      (FakeXhr.all[0] as FakeXhr).respond(0);
      (FakeXhr.all[1] as FakeXhr).respond(200);
    });
    await waitFor(() => expect(gw.calls.some((c) => c.path === '/integrations/process_document')).toBe(true));

    fireEvent.click(screen.getByRole('button', { name: 'Go to Baker' }));
    expect(await screen.findByText('Baker Family Trust')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Search documents' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('switch', { name: 'Include deleted files' }) as HTMLInputElement).checked).toBe(
      false,
    );
    // A's upload is not B's: neither its list nor its failed file's retry is on B's page or in B's upload
    // dialog (the upload tray, above the file managers, shows it with A's name).
    expect(screen.queryByRole('button', { name: 'Try the failed file again' })).toBeNull();
    expect(screen.queryByTestId('upload-progress')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('upload-progress')).toBeNull();
  });

  it("refreshes the first entity's documents when its upload ends after the switch", async () => {
    const { gw, view } = await showWithUpload(['w2.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Go to Baker' }));
    expect(await screen.findByText('Baker Family Trust')).toBeTruthy();
    const invalidate = jest.spyOn(view.queryClient, 'invalidateQueries');
    await act(async () => (FakeXhr.all[0] as FakeXhr).respond(200));
    await waitFor(() => expect(invalidate).toHaveBeenCalled());
    const process = gw.calls.find((c) => c.path === '/integrations/process_document');
    expect(process?.body.companyId).toBe('c-1');
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['documents', 'c-1']]);
  });
});

describe('an upload batch and its company', () => {
  it('sends the failed files again to the company the batch was started for, and says which when it ends', async () => {
    const gw = gateway();
    const queue = new UploadQueue();
    const onDone = jest.fn();
    const run = queue.start({
      api: documentsApi(gw.client),
      company: { id: 'c-1', name: 'Anders Design LLC' },
      path: '/',
      entries: [
        { file: file('w2.pdf'), dir: '' },
        { file: file('1099.pdf'), dir: '' },
      ],
      makeXhr: makeFakeXhr,
      onDone,
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    (FakeXhr.all[0] as FakeXhr).respond(0);
    (FakeXhr.all[1] as FakeXhr).respond(200);
    await run;
    const [batch] = queue.getSnapshot();
    expect(batch?.files.map((f) => f.state)).toEqual(['failed', 'done']);

    FakeXhr.all = [];
    queue.retryFailed(batch?.id ?? 0);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    const links = gw.calls.filter((c) => c.path === '/integrations/upload_links');
    expect(links.at(-1)?.body).toMatchObject({ companyId: 'c-1', files: [{ name: 'w2.pdf' }] });
    (FakeXhr.all[0] as FakeXhr).respond(200);
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(2));
    const filed = gw.calls.filter((c) => c.path === '/integrations/process_document');
    expect(filed.map((c) => c.body.companyId)).toEqual(['c-1', 'c-1']);
    // Told which company each run filed into, to refresh that one; the batch keeps both files.
    expect(onDone.mock.calls.map(([, companyId]) => companyId)).toEqual(['c-1', 'c-1']);
    expect(queue.getSnapshot()[0]?.files.map((f) => f.state)).toEqual(['done', 'done']);
  });
});
