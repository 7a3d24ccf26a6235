import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { IN_APP_BANNER_COOKIE, InAppBanner, ReadOnlyBanner } from '../feedback/banners.js';
import { KitProvider } from '../theme/KitProvider.js';
import { readCookie, writeCookie } from '../utils/cookies.js';

const withKit = ({ children }: { children: ReactNode }) => <KitProvider env="test">{children}</KitProvider>;

describe('read-only banners', () => {
  it("say the account's or the entity's read-only state in the spec's words", () => {
    render(
      <>
        <ReadOnlyBanner />
        <ReadOnlyBanner variant="entity" />
      </>,
      { wrapper: withKit },
    );
    expect(screen.getByTestId('read-only-account').textContent).toBe(
      'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
    );
    expect(screen.getByTestId('read-only-entity').textContent).toBe(
      'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
    );
    // Each is a status (so is the toasts' region the kit's provider renders).
    const statuses = screen.getAllByRole('status');
    expect(statuses).toContain(screen.getByTestId('read-only-account'));
    expect(statuses).toContain(screen.getByTestId('read-only-entity'));
  });
});

describe("the firm's in-app banner", () => {
  beforeEach(() => writeCookie(IN_APP_BANNER_COOKIE, '', 0));

  const banner = () => screen.queryByTestId('in-app-banner');
  const dismiss = () => fireEvent.click(screen.getByRole('button', { name: 'Dismiss banner' }));

  it("shows the firm's text while enabled, and nothing for a blank text", () => {
    const { rerender } = render(<InAppBanner enabled text="Office closed Friday" />, { wrapper: withKit });
    expect(banner()?.textContent).toBe('Office closed Friday');
    rerender(<InAppBanner enabled={false} text="Office closed Friday" />);
    expect(banner()).toBeNull();
    rerender(<InAppBanner enabled text="   " />);
    expect(banner()).toBeNull();
  });

  it('stays dismissed for the same text, on a re-render and on the next visit', () => {
    const { rerender, unmount } = render(<InAppBanner enabled text="Office closed Friday" />, {
      wrapper: withKit,
    });
    dismiss();
    expect(banner()).toBeNull();
    rerender(<InAppBanner enabled text="Office closed Friday" />);
    expect(banner()).toBeNull();
    unmount();
    render(<InAppBanner enabled text="Office closed Friday" />, { wrapper: withKit });
    expect(banner()).toBeNull();
    expect(readCookie(IN_APP_BANNER_COOKIE)).toBeTruthy();
  });

  it('shows again when the firm changes its text, while on the page or on the next visit', () => {
    const { rerender, unmount } = render(<InAppBanner enabled text="Office closed Friday" />, {
      wrapper: withKit,
    });
    dismiss();
    rerender(<InAppBanner enabled text="Office closed Monday" />);
    expect(banner()?.textContent).toBe('Office closed Monday');
    unmount();
    render(<InAppBanner enabled text="Office closed Monday" />, { wrapper: withKit });
    expect(banner()?.textContent).toBe('Office closed Monday');
  });
});
