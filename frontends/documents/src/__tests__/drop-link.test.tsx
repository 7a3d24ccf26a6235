import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ShellContext } from '@portico/kit';
import { renderWithClient } from '@portico/kit/testing';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DropLink, DropOff } from '../api/documents-api.js';
import descriptor from '../descriptor.js';
import DropLinkSettingsRoute from '../drop-link/DropLinkSettingsRoute.js';
import DropOffRoute from '../drop-link/DropOffRoute.js';
import {
  DROP_LINK_MESSAGES,
  DROP_OFF_MESSAGES,
  dropLinkUrl,
  dropOffParams,
  secureUploadUrl,
} from '../rules/drop-link.js';
import { UPLOAD_MESSAGES } from '../upload/upload.js';
import { type Call, FakeXhr, fakeApi, makeFakeXhr } from './fixtures.js';

const ID = 'RGVtbyBDUEE_x';
const file = (name: string, bytes = 10) => new File(['x'.repeat(bytes)], name, { type: 'application/pdf' });

const link = (over: Partial<DropLink> = {}): DropLink => ({
  id: ID,
  firm_name: 'Demo CPA',
  firm_slug: 'demo-cpa',
  notify_user_ids: ['u-paula'],
  enabled: true,
  firm_users: [{ id: 'u-paula', full_name: 'Paula Partner', email: 'partner@demo-cpa.test' }],
  ...over,
});

const received: DropOff = {
  id: '6f1c2a8e-2a55-4c8e-9b0e-1a2b3c4d5e6f',
  name: 'passport.pdf',
  size: '2048',
  uploader_name: 'Vera Visitor',
  uploader_email: 'vera@example.test',
  note: 'For the 2024 return',
  created_at: '2026-03-02T10:00:00Z',
};

describe('routes and links', () => {
  it('serves /drop-link publicly and /drop-link-settings to partners, admins and full users with the drop link on', () => {
    const dropOff = descriptor.routes.find((r) => r.path === '/drop-link');
    expect(dropOff).toMatchObject({ module: './DropOff', layout: 'public', audience: 'public' });
    const settings = descriptor.routes.find((r) => r.path === '/drop-link-settings');
    expect(settings).toMatchObject({
      module: './DropLinkSettings',
      layout: 'advisor',
      audience: 'advisor',
      firmAccess: ['partner', 'admin', 'full'],
      requires: ['drop_link_enabled'],
    });
    expect(descriptor.nav?.find((n) => n.id === 'drop-link')?.path).toBe('/drop-link-settings');
  });

  it('builds the link from the id alone, and reads id and signin from the query', () => {
    expect(dropLinkUrl('https://portal.test', ID)).toBe(`https://portal.test/drop-link?id=${ID}`);
    expect(dropOffParams(new URLSearchParams(`id=${ID}&signin=false`))).toEqual({
      id: ID,
      firmSlug: '',
      signIn: false,
    });
    expect(dropOffParams(new URLSearchParams(`id=${ID}`)).signIn).toBe(true);
  });

  it("serves /secure-upload publicly, for ?firm= or else the portal's own firm", () => {
    expect(descriptor.routes.find((r) => r.path === '/secure-upload')).toMatchObject({
      module: './DropOff',
      layout: 'public',
      audience: 'public',
    });
    expect(dropOffParams(new URLSearchParams(''), 'demo-cpa').firmSlug).toBe('demo-cpa');
    expect(secureUploadUrl('https://portal.test', 'demo-cpa', 'demo-cpa')).toBe(
      'https://portal.test/secure-upload',
    );
    expect(secureUploadUrl('https://portal.test', 'demo-cpa', 'other')).toBe(
      'https://portal.test/secure-upload?firm=demo-cpa',
    );
    expect(dropOffParams(new URLSearchParams('firm=%20other-firm%20'), 'demo-cpa').firmSlug).toBe(
      'other-firm',
    );
  });
});

/** The drop link's answer: the firm's name, public branding and Sign in setting. */
const dropLinkInfo = (hideSignIn = false) => ({
  firm_name: 'Demo CPA',
  firm_slug: 'demo-cpa',
  logo_url: 'https://cdn.test/logo.png',
  primary: '#0b7285',
  hide_sign_in_button: hideSignIn,
});

/** The public page on a fake gateway: the drop link's firm and the drop-off calls. */
function visit(
  query: string,
  handler: (call: Call) => { status?: number; body: unknown } | undefined = () => undefined,
  info = dropLinkInfo(),
) {
  const gw = fakeApi((call) => {
    if (call.path === `/integrations/drop_link/${ID}`) return { body: info };
    if (call.path === `/integrations/drop_link/${ID}/upload_links`) {
      const files = call.body.files as { name: string }[];
      return {
        body: {
          links: files.map((f, i) => ({
            upload_id: `up-${i}`,
            file_name: f.name,
            url: `http://s3.test/bucket/up-${i}`,
            method: 'PUT',
            headers: { 'content-type': 'application/octet-stream' },
            expires_at: '',
          })),
        },
      };
    }
    return handler(call);
  });
  renderWithClient(
    <DropOffRoute basePath="/drop-link" makeXhr={makeFakeXhr} />,
    gw.client,
    `/drop-link?${query}`,
  );
  return gw;
}

const processed = (ids: string[], invalid: string[] = []) => ({
  body: {
    files: ids.map((id) => ({
      upload_id: id,
      document_name: id,
      document_location: '',
      is_duplicate: false,
      invalid: invalid.includes(id),
      is_protected: false,
      message: '',
    })),
    message: invalid.length ? UPLOAD_MESSAGES.invalid : 'Document(s) uploaded successfully',
    invalid_files: invalid,
  },
});

/** A gateway handler that files the uploads sent to the drop link's process call (those in `invalid` as invalid). */
const processing =
  (invalid: string[] = []) =>
  (call: Call) =>
    call.path === `/integrations/drop_link/${ID}/process`
      ? processed(call.body.uploadIds as string[], invalid)
      : undefined;

/**
 * Sends fake.pdf, lost.pdf and ok.pdf, lost.pdf's transfer failing (500), and waits for the run's
 * success line (the gateway decides which of the others it refuses).
 */
async function uploadThreeOneLost() {
  await fill([file('fake.pdf'), file('lost.pdf'), file('ok.pdf')]);
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  await waitFor(() => expect(FakeXhr.all).toHaveLength(3));
  act(() => {
    (FakeXhr.all[0] as FakeXhr).respond(200);
    (FakeXhr.all[1] as FakeXhr).respond(500);
    (FakeXhr.all[2] as FakeXhr).respond(200);
  });
  expect((await screen.findByTestId('drop-off-success')).textContent).toBe(UPLOAD_MESSAGES.success);
}

async function fill(files: File[], who = { name: 'Vera Visitor', email: 'vera@example.test' }) {
  fireEvent.change(await screen.findByRole('textbox', { name: /Your name/ }), {
    target: { value: who.name },
  });
  fireEvent.change(screen.getByRole('textbox', { name: /Your email/ }), { target: { value: who.email } });
  fireEvent.change(screen.getByRole('textbox', { name: /Message/ }), {
    target: { value: 'For the 2024 return' },
  });
  await act(async () => {
    fireEvent.change(screen.getByLabelText('Choose files'), { target: { files } });
  });
}

describe('the public drop-off page', () => {
  beforeEach(() => {
    FakeXhr.all = [];
  });

  it("shows the firm's name, logo and a Sign in button to its sign-in page", async () => {
    visit(`id=${ID}`);
    await waitFor(() => expect(screen.getByTestId('drop-off-firm').textContent).toBe('Demo CPA'));
    expect(((await screen.findByRole('img', { name: 'Demo CPA' })) as HTMLImageElement).src).toBe(
      'https://cdn.test/logo.png',
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin?firm=demo-cpa');
    expect(screen.getByText(/Send files securely to Demo CPA/)).toBeTruthy();
  });

  it('hides the Sign in button when the firm hides it, and with signin=false', async () => {
    const hidden = visit(`id=${ID}`, undefined, dropLinkInfo(true));
    await waitFor(() => expect(screen.getByTestId('drop-off-firm').textContent).toBe('Demo CPA'));
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(hidden.calls.every((c) => !c.path.includes('get_firm_theme_by_slug'))).toBe(true);
    cleanup();
    visit(`id=${ID}&signin=false`);
    await waitFor(() => expect(screen.getByTestId('drop-off-firm').textContent).toBe('Demo CPA'));
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it("shows the service's refusal of a link that is wrong or turned off, and says when the id is missing", async () => {
    visit('id=nope', (call) =>
      call.path === '/integrations/drop_link/nope'
        ? { status: 404, body: { error: 'not_found', message: 'This drop link is not valid' } }
        : undefined,
    );
    expect((await screen.findByTestId('drop-link-refused')).textContent).toBe('This drop link is not valid');
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
  });

  it('says when the id is missing', async () => {
    visit('');
    expect(await screen.findByText(DROP_OFF_MESSAGES.missingLink)).toBeTruthy();
  });

  it('asks for a name, a valid email and at least one file before any call', async () => {
    const gw = visit(`id=${ID}`);
    fireEvent.change(await screen.findByRole('textbox', { name: /Your email/ }), {
      target: { value: 'vera@example' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(DROP_OFF_MESSAGES.nameRequired)).toBeTruthy();
    expect(screen.getByText(DROP_OFF_MESSAGES.emailInvalid)).toBeTruthy();
    expect(screen.getByText(DROP_OFF_MESSAGES.filesRequired)).toBeTruthy();
    expect(gw.calls.some((c) => c.method === 'POST')).toBe(false);
    // Spec 1 s.9's label of an upload box, as it stands.
    expect(screen.getByText('Max size 150 MB').textContent).toBe('Max size 150 MB');
  });

  it('moves the focus to the first field in error on Upload, its error announced and read with it', async () => {
    const user = userEvent.setup();
    visit(`id=${ID}`);
    await user.type(await screen.findByRole('textbox', { name: /Your name/ }), 'Vera Visitor');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(document.activeElement).toBe(
      screen.getByRole('textbox', { name: /Your email/, description: DROP_OFF_MESSAGES.emailInvalid }),
    );
    // Read once, with the field focused (its description), not also as alerts.
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(screen.getByText(DROP_OFF_MESSAGES.filesRequired)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Your email/ }), 'vera@example.test');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Choose files', description: DROP_OFF_MESSAGES.filesRequired }),
    );
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('refuses a name that hides text or carries a web address before any file is sent', async () => {
    for (const [name, message] of [
      ['Vera \u202eVisitor', DROP_OFF_MESSAGES.nameCharacters],
      ['Verify at https://evil.example', DROP_OFF_MESSAGES.nameAddress],
    ] as const) {
      const gw = visit(`id=${ID}`);
      await fill([file('w2.pdf')], { name, email: 'vera@example.test' });
      fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
      expect(await screen.findByText(message)).toBeTruthy();
      expect(gw.calls.some((c) => c.method === 'POST')).toBe(false);
      cleanup();
    }
  });

  it('refuses a message with control characters before any file is sent, keeping tabs and line breaks', async () => {
    const gw = visit(`id=${ID}`, processing());
    await fill([file('w2.pdf')]);
    const message = screen.getByRole('textbox', { name: /Message/ });
    fireEvent.change(message, { target: { value: 'For the\u0007 2024 return' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    // Focused, with the error read with it (and the field's own description).
    expect(
      await screen.findByRole('textbox', {
        name: /Message/,
        description: (text) => text.includes(DROP_OFF_MESSAGES.noteCharacters),
      }),
    ).toBe(document.activeElement);
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(gw.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(FakeXhr.all).toHaveLength(0);

    fireEvent.change(message, { target: { value: 'For the 2024 return:\n\tW-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(screen.queryByText(DROP_OFF_MESSAGES.noteCharacters)).toBeNull();
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    expect((await screen.findByTestId('drop-off-success')).textContent).toBe(UPLOAD_MESSAGES.success);
    expect(gw.calls.find((c) => c.path.endsWith('/process'))?.body.note).toBe('For the 2024 return:\n\tW-2');
  });

  it('lets a visitor remove a chosen file, and refuses a file over 150 MB', async () => {
    visit(`id=${ID}`);
    const big = file('huge.pdf');
    Object.defineProperty(big, 'size', { value: 151 * 1024 * 1024 });
    await fill([file('keep.pdf'), big]);
    const chosen = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(UPLOAD_MESSAGES.tooLarge('huge.pdf'))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove huge.pdf' }));
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(1);
  });

  it("keeps the focus on a Remove as files are removed, then gives it to 'Choose files'", async () => {
    const user = userEvent.setup();
    visit(`id=${ID}`);
    await fill([file('a.pdf'), file('b.pdf'), file('c.pdf')]);
    const remove = (name: string) => screen.getByRole('button', { name: `Remove ${name}` });
    await user.click(remove('b.pdf'));
    expect(document.activeElement).toBe(remove('c.pdf'));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(remove('a.pdf'));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('list', { name: 'Chosen files' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose files' }));
  });

  it('uploads each file with its own progress, then sends who and the message, and says it worked', async () => {
    const gw = visit(`id=${ID}`, processing());
    await fill([file('w2.pdf'), file('1099.pdf')]);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    expect(gw.calls.find((c) => c.path.endsWith('/upload_links'))?.body).toEqual({
      files: [
        { name: 'w2.pdf', size: 10, contentType: 'application/pdf' },
        { name: '1099.pdf', size: 10, contentType: 'application/pdf' },
      ],
    });
    act(() => (FakeXhr.all[0] as FakeXhr).progress(40, 100));
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Upload of all files',
      'Upload of w2.pdf',
      'Upload of 1099.pdf',
    ]);
    expect(bars[1]?.getAttribute('aria-valuenow')).toBe('40');
    act(() => {
      for (const x of FakeXhr.all) {
        x.progress(100, 100);
        x.respond(200);
      }
    });
    expect((await screen.findByTestId('drop-off-success')).textContent).toBe(UPLOAD_MESSAGES.success);
    expect(screen.getAllByText(UPLOAD_MESSAGES.fileDone)).toHaveLength(2);
    expect(FakeXhr.all.map((x) => [x.method, x.url])).toEqual([
      ['PUT', 'http://s3.test/bucket/up-0'],
      ['PUT', 'http://s3.test/bucket/up-1'],
    ]);
    expect(gw.calls.find((c) => c.path.endsWith('/process'))?.body).toEqual({
      uploadIds: ['up-0', 'up-1'],
      uploaderName: 'Vera Visitor',
      uploaderEmail: 'vera@example.test',
      note: 'For the 2024 return',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Drop off more files' }));
    expect(screen.queryAllByRole('progressbar')).toHaveLength(0);
    expect((screen.getByRole('textbox', { name: /Your email/ }) as HTMLInputElement).value).toBe(
      'vera@example.test',
    );
  });

  it('marks invalid files with the INVALID message and a failed transfer with the failure message', async () => {
    visit(`id=${ID}`, processing(['up-0']));
    await uploadThreeOneLost();
    expect(screen.getByText(UPLOAD_MESSAGES.invalid)).toBeTruthy();
    expect(screen.getByText(UPLOAD_MESSAGES.failed)).toBeTruthy();
    expect(screen.getByText(UPLOAD_MESSAGES.fileFailed)).toBeTruthy();
    expect(screen.getByText('Invalid')).toBeTruthy();
  });

  it('keeps the files lost on the way chosen after a partial drop-off, and sends only those again', async () => {
    const gw = visit(`id=${ID}`, processing());
    await fill([file('w2.pdf'), file('lost.pdf')]);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => {
      (FakeXhr.all[0] as FakeXhr).respond(200);
      (FakeXhr.all[1] as FakeXhr).respond(0);
    });
    expect((await screen.findByTestId('drop-off-success')).textContent).toBe(UPLOAD_MESSAGES.success);
    expect(screen.getByText(UPLOAD_MESSAGES.fileFailed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Drop off more files' })).toBeNull();
    FakeXhr.all = [];
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    const links = gw.calls.filter((c) => c.path === `/integrations/drop_link/${ID}/upload_links`);
    expect(links.at(-1)?.body.files).toEqual([expect.objectContaining({ name: 'lost.pdf' })]);
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    expect(await screen.findByRole('button', { name: 'Drop off more files' })).toBeTruthy();
  });

  it('cancels a drop-off in flight: nothing is sent to the firm and the chosen files show again', async () => {
    const gw = visit(`id=${ID}`, processing());
    await fill([file('w2.pdf'), file('1099.pdf')]);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect((await screen.findByTestId('drop-off-info')).textContent).toBe(UPLOAD_MESSAGES.cancelled);
    expect((FakeXhr.all[1] as FakeXhr).aborted).toBe(true);
    expect(gw.calls.filter((c) => c.path.endsWith('/process'))).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Cancel upload' })).toBeNull();
    const chosen = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);
    // Sent again, both go.
    FakeXhr.all = [];
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => {
      for (const x of FakeXhr.all) x.respond(200);
    });
    expect(await screen.findByRole('button', { name: 'Drop off more files' })).toBeTruthy();
  });

  it('after a partial drop-off, lists again only the files left to send, which can be removed or added to', async () => {
    // The first drop-off's first file is invalid; the next one's files are all filed.
    let runs = 0;
    const gw = visit(`id=${ID}`, (call) =>
      call.path.endsWith('/process')
        ? processed(call.body.uploadIds as string[], ++runs === 1 ? ['up-0'] : [])
        : undefined,
    );
    await uploadThreeOneLost();
    // The outcome of the run stays: the spec's messages and each file's line.
    expect(screen.getByText(UPLOAD_MESSAGES.invalid)).toBeTruthy();
    expect(screen.getByText(UPLOAD_MESSAGES.failed)).toBeTruthy();
    // Filed (ok.pdf) and refused (fake.pdf, INVALID) are no longer chosen; the lost one is, removable.
    const chosen = await screen.findByRole('list', { name: 'Chosen files' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('lost.pdf')]);
    expect(screen.queryByRole('button', { name: 'Remove fake.pdf' })).toBeNull();
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('new.pdf')] } });
    });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove lost.pdf' }));
    FakeXhr.all = [];
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    const links = gw.calls.filter((c) => c.path === `/integrations/drop_link/${ID}/upload_links`);
    expect(links.at(-1)?.body.files).toEqual([expect.objectContaining({ name: 'new.pdf' })]);
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    expect(await screen.findByRole('button', { name: 'Drop off more files' })).toBeTruthy();
  });

  it("shows the service's refusal, and the INVALID message when every file was invalid", async () => {
    let answer: { status: number; body: { error: string; message: string } } = {
      status: 400,
      body: { error: 'invalid_input', message: UPLOAD_MESSAGES.invalid },
    };
    visit(`id=${ID}`, (call) => (call.path.endsWith('/process') ? answer : undefined));
    await fill([file('fake.pdf')]);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => (FakeXhr.all[0] as FakeXhr).respond(200));
    expect(await screen.findByText(UPLOAD_MESSAGES.invalid)).toBeTruthy();
    expect(screen.queryByTestId('drop-off-success')).toBeNull();
    // The invalid file is no longer chosen: the visitor chooses the corrected one.
    expect(screen.queryByRole('list', { name: 'Chosen files' })).toBeNull();
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('fixed.pdf')] } });
    });

    answer = { status: 404, body: { error: 'not_found', message: 'The drop link is turned off' } };
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => (FakeXhr.all[1] as FakeXhr).respond(200));
    expect(await screen.findByText('The drop link is turned off')).toBeTruthy();
  });
});

describe('the secure upload page', () => {
  beforeEach(() => {
    FakeXhr.all = [];
  });

  /** /secure-upload on a fake gateway, in a portal whose runtime configuration names `portalFirm`. */
  function visitSecureUpload(
    query: string,
    portalFirm: string | undefined,
    answer: (slug: string) => { status?: number; body: unknown },
  ) {
    const gw = fakeApi((call) => {
      const bySlug = /^\/integrations\/secure_upload\/(.+)$/.exec(call.path);
      if (bySlug) return answer(decodeURIComponent(bySlug[1] as string));
      if (call.path === `/integrations/drop_link/${ID}/upload_links`)
        return {
          body: {
            links: [
              {
                upload_id: 'up-0',
                file_name: 'w2.pdf',
                url: 'http://s3.test/bucket/up-0',
                method: 'PUT',
                headers: {},
                expires_at: '',
              },
            ],
          },
        };
      if (call.path === `/integrations/drop_link/${ID}/process`) return processed(['up-0']);
      return undefined;
    });
    renderWithClient(
      <ShellContext.Provider value={{ apiUrl: '', signOut: async () => {}, firmSlug: portalFirm }}>
        <DropOffRoute basePath="/secure-upload" makeXhr={makeFakeXhr} />
      </ShellContext.Provider>,
      gw.client,
      `/secure-upload${query}`,
    );
    return gw;
  }

  it("asks for the portal's firm and uploads through the drop link its answer names", async () => {
    const gw = visitSecureUpload('', 'demo-cpa', (slug) => ({
      body: { ...dropLinkInfo(), firm_slug: slug, drop_link_id: ID },
    }));
    await waitFor(() => expect(screen.getByTestId('drop-off-firm').textContent).toBe('Demo CPA'));
    expect(gw.calls[0]?.path).toBe('/integrations/secure_upload/demo-cpa');
    await fill([file('w2.pdf')]);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => {
      (FakeXhr.all[0] as FakeXhr).progress(100, 100);
      (FakeXhr.all[0] as FakeXhr).respond(200);
    });
    expect((await screen.findByTestId('drop-off-success')).textContent).toBe(UPLOAD_MESSAGES.success);
    expect(gw.calls.map((c) => c.path)).toEqual([
      '/integrations/secure_upload/demo-cpa',
      `/integrations/drop_link/${ID}/upload_links`,
      `/integrations/drop_link/${ID}/process`,
    ]);
  });

  it('takes ?firm= over the portal, shows the refusal of a firm with its drop link off, and says when no firm is known', async () => {
    visitSecureUpload('?firm=other-firm', 'demo-cpa', (slug) =>
      slug === 'other-firm'
        ? { status: 404, body: { error: 'not_found', message: 'This drop link is not available' } }
        : { body: dropLinkInfo() },
    );
    expect((await screen.findByTestId('drop-link-refused')).textContent).toBe(
      'This drop link is not available',
    );
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    cleanup();
    const none = visitSecureUpload('', undefined, () => ({ body: dropLinkInfo() }));
    expect(await screen.findByText(DROP_OFF_MESSAGES.missingFirm)).toBeTruthy();
    expect(none.calls).toHaveLength(0);
  });
});

describe('the drop link settings page', () => {
  const writeText = jest.fn(async (_text: string) => {});
  beforeEach(() => {
    writeText.mockClear();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  /** The page against a gateway of the firm's drop link; `received` answers the received-files calls. */
  function settings(
    over: Partial<DropLink> = {},
    preferences: Record<string, unknown> = {},
    receivedFiles?: (
      call: Call,
    ) =>
      | { status?: number; body: unknown }
      | undefined
      | Promise<{ status?: number; body: unknown } | undefined>,
  ) {
    const gw = fakeApi(async (call) => {
      const answer = await receivedFiles?.(call);
      if (answer) return answer;
      if (call.path === '/integrations/drop_link') return { body: link(over) };
      if (call.path === '/integrations/drop_offs') return { body: { drop_offs: [received], next_page: '' } };
      if (call.path === `/integrations/drop_offs/${received.id}/download`)
        return {
          body: { document: { data: { link: 'http://s3.test/passport', file_name: 'passport.pdf' } } },
        };
      if (call.path === '/firms/current_user_firm')
        return { body: { id: 'f-1', name: 'Demo CPA', slug: 'demo-cpa', preferences } };
      return undefined;
    });
    renderWithClient(
      <DropLinkSettingsRoute basePath="/drop-link-settings" />,
      gw.client,
      '/drop-link-settings',
    );
    return gw;
  }

  it('shows the link to copy, the users to notify, and the received files', async () => {
    const gw = settings({}, { drop_link_enabled: true, hide_sign_in_button_on_drop_link: true });
    expect(screen.getByRole('heading', { name: 'Drop Link' })).toBeTruthy();
    const url = (await screen.findByTestId('drop-link-url')) as HTMLInputElement;
    expect(url.value).toBe(`http://localhost/drop-link?id=${ID}`);
    expect((screen.getByRole('checkbox', { name: /Paula Partner/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(url.value));
    expect(await screen.findByText(DROP_LINK_MESSAGES.copied)).toBeTruthy();
    // The same drop-off at the portal's fixed address, for this firm.
    const page = screen.getByTestId('secure-upload-url') as HTMLInputElement;
    expect(page.value).toBe('http://localhost/secure-upload?firm=demo-cpa');
    fireEvent.click(screen.getByRole('button', { name: 'Copy the secure upload page' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(page.value));

    const table = await screen.findByRole('table', { name: 'Received files' });
    expect(within(table).getByText('passport.pdf')).toBeTruthy();
    expect(within(table).getByText('Vera Visitor')).toBeTruthy();
    expect(within(table).getByText('vera@example.test')).toBeTruthy();
    const row = within(table).getByText('passport.pdf').closest('tr') as HTMLElement;
    const message = within(table)
      .getAllByRole('columnheader')
      .findIndex((h) => h.textContent === 'Message');
    expect(within(row).getAllByRole('cell')[message]?.textContent).toBe('For the 2024 return');
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(`${this.href} ${this.download}`);
    });
    try {
      fireEvent.click(within(table).getByRole('button', { name: 'Download passport.pdf' }));
      await waitFor(() => expect(followed).toEqual(['http://s3.test/passport passport.pdf']));
    } finally {
      click.mockRestore();
    }
    expect(gw.calls.some((c) => c.path === `/integrations/drop_offs/${received.id}/download`)).toBe(true);
  });

  it('shows more received files on demand, and deletes the chosen ones after asking', async () => {
    const more: DropOff = { ...received, id: '7a2d3b9f-3b66-4d9f-8c1f-2b3c4d5e6f70', name: 'w2.pdf' };
    let deleted: string[] = [];
    settings({}, {}, (call) => {
      const listed = [received, more].filter((f) => !deleted.includes(f.id));
      if (call.path === '/integrations/drop_offs')
        return { body: { drop_offs: listed.slice(0, 1), next_page: listed.length > 1 ? 'p2' : '' } };
      if (call.path === '/integrations/drop_offs?page=p2')
        return { body: { drop_offs: listed.slice(1), next_page: '' } };
      if (call.path === '/integrations/drop_offs/delete') {
        deleted = (call.body as { ids: string[] }).ids;
        return { body: { deleted: deleted.length, message: 'Deleted successfully' } };
      }
      return undefined;
    });
    const table = await screen.findByRole('table', { name: 'Received files' });
    expect(within(table).queryByText('w2.pdf')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show more received files' }));
    expect(await within(table).findByText('w2.pdf')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more received files' })).toBeNull();

    // Nothing chosen, nothing to delete.
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select w2.pdf' }));
    expect(screen.getByText('1 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/Are you sure you want to delete "w2.pdf"\?/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted successfully')).toBeTruthy();
    expect(deleted).toEqual([more.id]);
    await waitFor(() => expect(within(table).queryByText('w2.pdf')).toBeNull());
    expect(within(table).getByText('passport.pdf')).toBeTruthy();
  });

  it('says when received files could not be deleted, and keeps them', async () => {
    settings({}, {}, (call) =>
      call.path === '/integrations/drop_offs/delete' ? { status: 500, body: { message: 'boom' } } : undefined,
    );
    const table = await screen.findByRole('table', { name: 'Received files' });
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select all received files shown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted Failed')).toBeTruthy();
    expect(within(table).getByText('passport.pdf')).toBeTruthy();
  });

  it('deletes more received files than one call takes in calls of 500, one after the other', async () => {
    const many: DropOff[] = Array.from({ length: 600 }, (_, i) => ({
      ...received,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `scan-${i}.pdf`,
    }));
    const sent: string[][] = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    settings({}, {}, async (call) => {
      if (call.path === '/integrations/drop_offs')
        return { body: { drop_offs: many.filter((f) => !sent.flat().includes(f.id)), next_page: '' } };
      if (call.path !== '/integrations/drop_offs/delete') return undefined;
      const ids = (call.body as { ids: string[] }).ids;
      inFlight += 1;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight -= 1;
      sent.push(ids);
      return { body: { deleted: ids.length, message: 'Deleted successfully' } };
    });
    const table = await screen.findByRole('table', { name: 'Received files' });
    await within(table).findByText('scan-599.pdf');
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select all received files shown' }));
    expect(screen.getByText('600 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    // The toast is looked for where toasts show: each look through the whole page, 600 rows of it, took
    // most of a second on a loaded machine, more than findBy's wait for the two calls and the toast.
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(toasts).findByText('Deleted successfully')).toBeTruthy();
    expect(sent.map((ids) => ids.length)).toEqual([500, 100]);
    expect(sent.flat()).toEqual(many.map((f) => f.id));
    expect(mostAtOnce).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete' })).toBeNull());
    await waitFor(() => expect(screen.getByText('No files have been dropped off yet.')).toBeTruthy());
  });

  it('keeps the at-least-one-user rule of the dialog', async () => {
    settings();
    fireEvent.click(await screen.findByRole('checkbox', { name: /Paula Partner/ }));
    expect(screen.getByRole('alert').textContent).toBe(DROP_LINK_MESSAGES.selectUser);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('refuses both Copy buttons, saying why, while nobody saved is notified of drop-offs', async () => {
    const user = userEvent.setup();
    // user-event puts a clipboard of its own in place: this test's is the one to watch.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    // A new firm: nobody chosen yet. Saving answers the choice saved.
    settings({ notify_user_ids: [] }, {}, (call) =>
      call.path === '/integrations/drop_link' && call.method === 'POST'
        ? { body: link({ notify_user_ids: (call.body as { notifyUserIds: string[] }).notifyUserIds }) }
        : undefined,
    );
    const copy = () => screen.getByRole('button', { name: 'Copy' });
    const copyPage = () => screen.getByRole('button', { name: 'Copy the secure upload page' });
    const url = await screen.findByTestId('drop-link-url');
    expect(screen.getByRole('alert').textContent).toBe(DROP_LINK_MESSAGES.selectUser);
    for (const [button, name] of [
      [copy, 'Copy'],
      [copyPage, 'Copy the secure upload page'],
    ] as const) {
      // Refused, the reason read with it, and still within the keyboard's reach.
      expect(button().getAttribute('aria-disabled')).toBe('true');
      expect((button() as HTMLButtonElement).disabled).toBe(false);
      expect(screen.getByRole('button', { name, description: DROP_LINK_MESSAGES.selectUser })).toBe(button());
      fireEvent.click(button());
    }
    await user.click(url);
    await user.tab();
    expect(document.activeElement).toBe(copy());
    await user.keyboard('{Enter}');
    expect(writeText).not.toHaveBeenCalled();

    // Chosen but not saved: still refused, as any unsaved choice.
    fireEvent.click(screen.getByRole('checkbox', { name: /Paula Partner/ }));
    expect(screen.getByRole('button', { name: 'Copy', description: DROP_LINK_MESSAGES.unsaved })).toBe(
      copy(),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(copy().getAttribute('aria-disabled')).toBeNull());
    expect(copyPage().getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(copy());
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`http://localhost/drop-link?id=${ID}`));
  });

  it("says which address was copied, in the spec's words", async () => {
    settings();
    const page = (await screen.findByTestId('secure-upload-url')) as HTMLInputElement;
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    fireEvent.click(screen.getByRole('button', { name: 'Copy the secure upload page' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(page.value));
    expect(await within(toasts).findByText('Link copied to clipboard')).toBeTruthy();
    expect(within(toasts).queryByText('Drop link copied to clipboard')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await within(toasts).findByText('Drop link copied to clipboard')).toBeTruthy();
  });

  it('lays the received files out for a narrow screen: sender, size and date under the name, no sideways scroll', async () => {
    // jsdom applies no container queries (file-manager.css, as the file manager's list): this checks the
    // cells a narrow list hides and what it shows under the name instead.
    settings();
    const table = await screen.findByRole('table', { name: 'Received files' });
    expect(table.closest('.portico-fm-list')).toBeTruthy();
    expect(table.className).toContain('portico-fm-table');
    expect(table.dataset.list).toBe('received-files');
    const wideOnly = (cell: Element | null | undefined) => cell?.className.includes('portico-fm-wide');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      '',
      'File',
      'From',
      'Message',
      'Size',
      'Received',
      'Download',
    ]);
    expect(headers.map(wideOnly)).toEqual([false, false, true, true, true, true, false]);
    const row = within(table).getByText('passport.pdf').closest('tr') as HTMLElement;
    // Still a table to a screen reader: each row's cells under the same headers.
    expect(within(row).getAllByRole('cell').map(wideOnly)).toEqual(headers.map(wideOnly));
    expect(wideOnly(within(row).getByRole('button', { name: 'Download passport.pdf' }).closest('td'))).toBe(
      false,
    );
    const details = within(row).getByTestId('narrow-details');
    expect(details.className).toContain('portico-fm-narrow');
    expect(details.closest('td')).toBe(within(row).getByText('passport.pdf').closest('td'));
    // The date in the machine's locale.
    expect(details.textContent).toMatch(
      /^Vera Visitor \(vera@example\.test\) · 2\.0 KB · \S.*\d.*For the 2024 return$/,
    );
    // No minimum width making a phone scroll sideways to reach Download.
    const scroller = table.closest('[style*="--table-min-width"]') as HTMLElement;
    expect(
      Number.parseFloat(scroller.style.getPropertyValue('--table-min-width').replace(/^calc\(/, '')),
    ).toBe(0);
  });

  it('says the drop link is off, with no received files, when the firm turned it off', async () => {
    const gw = settings({ enabled: false });
    expect(await screen.findByText(DROP_LINK_MESSAGES.off)).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Received files' })).toBeNull();
    expect(gw.calls.some((c) => c.path === '/integrations/drop_offs')).toBe(false);
  });

  it('says the drop link is off when documents refuses its calls for that reason', async () => {
    const gw = settings({}, {}, (call) =>
      call.path === '/integrations/drop_link'
        ? {
            status: 403,
            body: {
              error: 'This drop link is not available',
              message: 'This drop link is not available',
              code: 'drop_link_disabled',
            },
          }
        : undefined,
    );
    expect(await screen.findByText(DROP_LINK_MESSAGES.off)).toBeTruthy();
    expect(screen.queryByText('This drop link is not available')).toBeNull();
    expect(gw.calls.some((c) => c.path === '/integrations/drop_offs')).toBe(false);
  });
});
