import { describe, expect, it, jest } from '@jest/globals';
import { focusManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { HEIC_POLL_LIMIT, HEIC_POLL_MS, PREVIEW_FAILED } from '../preview/PreviewDialog.js';
import { anItem, fakeApi, SLOW_SERVICE_TEXT, slowServiceAnswer } from './fixtures.js';
import { renderPreview } from './render-preview.js';

/** A HEIC preview whose link answers follow `statuses` (the last one repeats), without a link until ready. */
function heic(statuses: string[]) {
  const answers = [...statuses];
  const gw = fakeApi((call) => {
    if (call.path !== '/integrations/download_document') return undefined;
    const status = answers.length > 1 ? (answers.shift() as string) : (answers[0] as string);
    return {
      body: {
        document: {
          data: {
            link: status === 'ready' ? 'http://s3.test/bucket/photo.jpg' : '',
            file_name: 'photo.heic',
            expires_at: '',
            preview_status: status,
          },
        },
      },
    };
  });
  const item = anItem({ name: 'photo.heic', content_type: 'image/heic' });
  const onDownload = jest.fn();
  renderPreview(item, gw, onDownload);
  return { gw, item, onDownload };
}

describe('HEIC preview', () => {
  it('says the preview failed, instead of loading for ever, when the conversion failed; Download stays', async () => {
    const { item, onDownload } = heic(['failed']);
    expect(await screen.findByText(PREVIEW_FAILED)).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(onDownload).toHaveBeenCalledWith(item);
  });

  it('shows Loading while the conversion is pending, then the failure once it fails', async () => {
    const { gw } = heic(['pending', 'failed']);
    expect(await screen.findByText('Loading')).toBeTruthy();
    expect(await screen.findByText(PREVIEW_FAILED, undefined, { timeout: 8_000 })).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
    expect(gw.calls.filter((c) => c.path === '/integrations/download_document')).toHaveLength(2);
  });

  it('says the preview failed once the conversion is still pending past the polling limit, and asks again on Try again', async () => {
    jest.useFakeTimers();
    try {
      let status = 'pending';
      const gw = fakeApi((call) =>
        call.path === '/integrations/download_document'
          ? {
              body: {
                document: {
                  data: {
                    link: status === 'ready' ? 'http://s3.test/bucket/photo.jpg' : '',
                    file_name: 'photo.heic',
                    expires_at: '',
                    preview_status: status,
                  },
                },
              },
            }
          : undefined,
      );
      renderPreview(anItem({ name: 'photo.heic', content_type: 'image/heic' }), gw);
      const asked = () => gw.calls.filter((c) => c.path === '/integrations/download_document').length;
      await act(() => jest.advanceTimersByTimeAsync(HEIC_POLL_MS * (HEIC_POLL_LIMIT + 10)));
      expect(asked()).toBe(HEIC_POLL_LIMIT);
      expect(screen.getByRole('alert').textContent).toBe(PREVIEW_FAILED);
      expect(screen.queryByText('Loading')).toBeNull();

      // Try again starts the polling afresh: Loading while pending, the image once converted.
      const tryAgain = screen.getByRole('button', { name: 'Try again' });
      tryAgain.focus();
      fireEvent.click(tryAgain);
      await act(() => jest.advanceTimersByTimeAsync(HEIC_POLL_MS * 3));
      expect(asked()).toBe(HEIC_POLL_LIMIT + 4);
      expect(screen.getByText('Loading')).toBeTruthy();
      // The button gave way to the loader: focus stayed in the dialog, not on the page behind it.
      expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
      expect(screen.queryByText(PREVIEW_FAILED)).toBeNull();
      status = 'ready';
      await act(() => jest.advanceTimersByTimeAsync(HEIC_POLL_MS * 2));
      expect(screen.getByRole('img', { name: 'photo.heic' }).getAttribute('src')).toBe(
        'http://s3.test/bucket/photo.jpg',
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the converted image once it is ready', async () => {
    heic(['ready']);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'photo.heic' }).getAttribute('src')).toBe(
        'http://s3.test/bucket/photo.jpg',
      ),
    );
  });
});

describe('preview link refused', () => {
  it("shows the gateway's text for a slow service, and previews on 'Try again'", async () => {
    let answered = false;
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/download_document') return undefined;
      if (!answered) return slowServiceAnswer();
      const data = { link: 'http://s3.test/bucket/photo.png', file_name: 'photo.png', expires_at: '' };
      return { body: { document: { data: { ...data, preview_status: 'none' } } } };
    });
    renderPreview(anItem({ name: 'photo.png', content_type: 'image/png' }), gw);
    expect((await screen.findByRole('alert')).textContent).toBe(SLOW_SERVICE_TEXT);
    answered = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'photo.png' }).getAttribute('src')).toBe(
        'http://s3.test/bucket/photo.png',
      ),
    );
  });
});

describe('image preview', () => {
  it('says the preview failed when the browser cannot show the image, instead of a broken image', async () => {
    const gw = fakeApi((call) =>
      call.path === '/integrations/download_document'
        ? {
            body: {
              document: {
                data: {
                  link: 'http://s3.test/bucket/scan.png',
                  file_name: 'scan.png',
                  expires_at: '',
                  preview_status: 'none',
                },
              },
            },
          }
        : undefined,
    );
    renderPreview(anItem({ name: 'scan.png', content_type: 'image/png' }), gw);
    const image = await screen.findByRole('img', { name: 'scan.png' });
    fireEvent.error(image);
    expect(await screen.findByText(PREVIEW_FAILED)).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'scan.png' })).toBeNull();
  });
});

describe('an open preview', () => {
  it("keeps its link through the file manager's refresh and a return to the tab, and drops it when closed", async () => {
    let issued = 0;
    const gw = fakeApi((call) => {
      if (call.path !== '/integrations/download_document') return undefined;
      issued += 1;
      // Each answer a new presigned link, as storage gives them.
      const data = {
        link: `http://s3.test/bucket/scan.png?sig=${issued}`,
        file_name: 'scan.png',
        expires_at: '',
      };
      return { body: { document: { data: { ...data, preview_status: 'none' } } } };
    });
    const view = renderPreview(anItem({ name: 'scan.png', content_type: 'image/png' }), gw);
    const image = await screen.findByRole('img', { name: 'scan.png' });
    expect(image.getAttribute('src')).toBe('http://s3.test/bucket/scan.png?sig=1');
    // What the file manager's refresh (after an upload, a rename…) asks again: everything of the company.
    await act(async () => {
      await view.queryClient.invalidateQueries({ queryKey: ['documents', 'c-1'] });
      focusManager.setFocused(false);
      focusManager.setFocused(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    focusManager.setFocused(undefined);
    expect(issued).toBe(1);
    expect(screen.getByRole('img', { name: 'scan.png' }).getAttribute('src')).toBe(
      'http://s3.test/bucket/scan.png?sig=1',
    );
    view.unmount();
    await waitFor(() => expect(view.queryClient.getQueryCache().getAll()).toHaveLength(0));
  });
});
