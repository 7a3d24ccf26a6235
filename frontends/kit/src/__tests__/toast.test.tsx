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
});
