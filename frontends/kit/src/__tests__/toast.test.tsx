import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { TOAST_DEFAULTS, toast, toastDuration } from '../toast/toast.js';
import { renderWithKit } from './render.js';

describe('toast duration', () => {
  it('is at least 4000 ms', () => {
    expect(toastDuration('Saved!')).toBe(4000);
    expect(toastDuration('')).toBe(4000);
  });

  it('is 50 ms per character past 80 characters', () => {
    expect(toastDuration('x'.repeat(80))).toBe(4000);
    expect(toastDuration('x'.repeat(81))).toBe(4050);
    expect(toastDuration('x'.repeat(200))).toBe(10_000);
  });
});

/** How long a closing toast takes to leave: the kit's notifications have no exit transition in tests. */
const EXIT_TRANSITION_MS = 0;

/**
 * Moves the clock `ms` on, then runs what that made due at that moment without moving it further: a toast
 * that auto-closed by then starts its exit only once React has rendered the close, so without this it
 * would still be in the page and pass for shown.
 */
function advance(ms: number) {
  act(() => jest.advanceTimersByTime(ms));
  act(() => jest.advanceTimersByTime(0));
}

/**
 * Exactly: `text` still shows 1 ms before `duration` has passed, and is gone once `duration` and the
 * exit transition have, so a toast that closed early fails as one that stayed longer does.
 */
function expectShownFor(text: string, duration: number) {
  advance(duration - 1);
  expect(screen.queryByText(text)).not.toBeNull();
  advance(1 + EXIT_TRANSITION_MS);
  expect(screen.queryByText(text)).toBeNull();
}

describe('toast', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    act(() => toast.clean());
    jest.useRealTimers();
  });

  it('shows the default texts', () => {
    renderWithKit(<div />);
    act(() => {
      toast.success();
      toast.error();
      toast.info();
    });
    expect(screen.getByText(TOAST_DEFAULTS.success)).toBeTruthy();
    expect(screen.getByText('Successfully updated')).toBeTruthy();
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText('Updated')).toBeTruthy();
  });

  it('closes a short message after 4000 ms, not before', () => {
    renderWithKit(<div />);
    act(() => {
      toast.success('Profile updated successfully');
    });
    expectShownFor('Profile updated successfully', 4000);
  });

  it('keeps a long message 50 ms per character', () => {
    const long = 'x'.repeat(120); // 6000 ms
    renderWithKit(<div />);
    act(() => {
      toast.error(long);
    });
    expectShownFor(long, 6000);
  });

  it('keeps a pending notice with a spinner until its work ends, then says how, in its place', () => {
    renderWithKit(<div />);
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    act(() => jest.advanceTimersByTime(60_000));
    const notice = screen.getByText('Building your zip').closest('[data-toast]') as HTMLElement;
    expect(notice.getAttribute('data-toast')).toBe('pending');
    expect(notice.querySelector('.mantine-Notification-loader')).not.toBeNull();

    act(() => work?.done('success', 'Your zip file is ready: Home.zip'));
    expect(screen.queryByText('Building your zip')).toBeNull();
    const ended = screen.getByText('Your zip file is ready: Home.zip').closest('[data-toast]') as HTMLElement;
    expect(ended.getAttribute('data-toast')).toBe('success');
    expect(ended.querySelector('.mantine-Notification-loader')).toBeNull();
    // Then it closes as any toast of its length does, timed from when the work ended.
    expectShownFor('Your zip file is ready: Home.zip', 4000);
  });

  it('says how the work ended in a toast of its own when the pending notice was closed', () => {
    renderWithKit(<div />);
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    act(() => screen.getByRole('button', { name: 'Close notification' }).click());
    advance(EXIT_TRANSITION_MS);
    expect(screen.queryByText('Building your zip')).toBeNull();
    act(() => work?.done('error', 'There was a problem downloading the folder.'));
    expect(screen.getByRole('alert').textContent).toContain('There was a problem downloading the folder.');
  });

  it('shows how far the work has got under the pending text, in place, until it ends', () => {
    renderWithKit(<div />);
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    const notice = () => screen.getByText('Building your zip').closest('[data-toast]') as HTMLElement;
    const first = notice();
    expect(screen.queryByRole('progressbar')).toBeNull();

    act(() => work?.progress(3, 5));
    expect(notice()).toBe(first);
    expect(notice().getAttribute('data-toast')).toBe('pending');
    expect(notice().querySelector('.mantine-Notification-loader')).not.toBeNull();
    expect(within(notice()).getByText('3 of 5 files')).toBeTruthy();
    const bar = within(notice()).getByRole('progressbar', { name: 'Files done' });
    expect(bar.getAttribute('aria-valuenow')).toBe('60');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');

    act(() => work?.progress(5, 5));
    expect(within(notice()).getByText('5 of 5 files')).toBeTruthy();
    expect(screen.queryByText('3 of 5 files')).toBeNull();
    expect(within(notice()).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    // It stays as long as the work goes on, as it did without progress.
    act(() => jest.advanceTimersByTime(60_000));
    expect(notice()).toBe(first);

    act(() => work?.done('success', 'Your zip file is ready: Home.zip'));
    expect(screen.queryByText('Building your zip')).toBeNull();
    expect(screen.queryByText('5 of 5 files')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    // Progress that comes after the end changes nothing.
    act(() => work?.progress(4, 5));
    expect(screen.queryByRole('progressbar')).toBeNull();
    const ended = screen.getByText('Your zip file is ready: Home.zip').closest('[data-toast]') as HTMLElement;
    expect(ended.getAttribute('data-toast')).toBe('success');
    expectShownFor('Your zip file is ready: Home.zip', 4000);
  });

  it('counts one file as one file, and shows no count for work of nothing', () => {
    renderWithKit(<div />);
    act(() => toast.pending('Building your zip').progress(0, 0));
    expect(screen.getByText('Building your zip')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText(/of 0 files/)).toBeNull();
    act(() => toast.pending('Building another zip').progress(0, 1));
    expect(screen.getByText('0 of 1 file')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
  });

  it('keeps the close handling of a notice showing progress, and shows nothing once it was closed', () => {
    renderWithKit(<div />);
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    act(() => work?.progress(1, 4));
    act(() => screen.getByRole('button', { name: 'Close notification' }).click());
    advance(EXIT_TRANSITION_MS);
    expect(screen.queryByText('Building your zip')).toBeNull();
    act(() => work?.progress(2, 4));
    expect(screen.queryByText('Building your zip')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => work?.done('error', 'There was a problem downloading the folder.'));
    expect(screen.getByRole('alert').textContent).toContain('There was a problem downloading the folder.');
  });

  it('says a toast in a polite status region that was there, empty, before it', () => {
    renderWithKit(<div />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    act(() => {
      toast.success('Saved!');
    });
    expect(region.textContent).toBe('Saved!');
    // The visible toast is the one text queries find, as before.
    expect(screen.getByText('Saved!').closest('[data-toast]')?.getAttribute('data-toast')).toBe('success');
    // The region holds what shows: the toast's words leave with it.
    expectShownFor('Saved!', 4000);
    expect(region.textContent).toBe('');
  });

  it('says the same words again as a new element, so they are read again', () => {
    renderWithKit(<div />);
    const region = screen.getByRole('status');
    act(() => {
      toast.info('Copied');
    });
    const first = region.firstElementChild;
    act(() => {
      toast.info('Copied');
    });
    expect(region.children).toHaveLength(2);
    expect(region.lastElementChild).not.toBe(first);
    expect(region.lastElementChild?.textContent).toBe('Copied');
  });

  it('leaves an error to its alert role, read as it appears, and keeps it out of the region', () => {
    renderWithKit(<div />);
    const region = screen.getByRole('status');
    act(() => {
      toast.error('There was a problem.');
    });
    expect(screen.getByRole('alert').textContent).toContain('There was a problem.');
    expect(region.textContent).toBe('');
  });

  it("says a pending notice, then its ending in its place, an error's too", () => {
    renderWithKit(<div />);
    const region = screen.getByRole('status');
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    const said = region.firstElementChild;
    expect(said?.textContent).toBe('Building your zip');
    // Its progress is not said: an update every few files would talk over everything else.
    act(() => work?.progress(3, 5));
    act(() => work?.progress(4, 5));
    expect(region.firstElementChild).toBe(said);
    expect(region.textContent).toBe('Building your zip');
    act(() => work?.done('error', 'There was a problem downloading the folder.'));
    expect(region.textContent).toBe('There was a problem downloading the folder.');
    expect(region.firstElementChild).not.toBe(said);
  });
});
