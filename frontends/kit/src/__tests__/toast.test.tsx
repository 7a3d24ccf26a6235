import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen } from '@testing-library/react';
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
    act(() => jest.advanceTimersByTime(3900));
    expect(screen.queryByText('Profile updated successfully')).not.toBeNull();
    act(() => jest.advanceTimersByTime(200));
    act(() => jest.runOnlyPendingTimers());
    expect(screen.queryByText('Profile updated successfully')).toBeNull();
  });

  it('keeps a long message 50 ms per character', () => {
    const long = 'x'.repeat(120); // 6000 ms
    renderWithKit(<div />);
    act(() => {
      toast.error(long);
    });
    act(() => jest.advanceTimersByTime(5900));
    expect(screen.queryByText(long)).not.toBeNull();
    act(() => jest.advanceTimersByTime(200));
    act(() => jest.runOnlyPendingTimers());
    expect(screen.queryByText(long)).toBeNull();
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
    // Then it closes as any toast of its length does.
    act(() => jest.advanceTimersByTime(4100));
    act(() => jest.runOnlyPendingTimers());
    expect(screen.queryByText('Your zip file is ready: Home.zip')).toBeNull();
  });

  it('says how the work ended in a toast of its own when the pending notice was closed', () => {
    renderWithKit(<div />);
    let work: ReturnType<typeof toast.pending> | undefined;
    act(() => {
      work = toast.pending('Building your zip');
    });
    act(() => screen.getByRole('button', { name: 'Close notification' }).click());
    act(() => jest.runOnlyPendingTimers());
    expect(screen.queryByText('Building your zip')).toBeNull();
    act(() => work?.done('error', 'There was a problem downloading the folder.'));
    expect(screen.getByRole('alert').textContent).toContain('There was a problem downloading the folder.');
  });
});
