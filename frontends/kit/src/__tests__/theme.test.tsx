import { describe, expect, it, jest } from '@jest/globals';
import { Loader, MantineProvider } from '@mantine/core';
import { render, waitFor } from '@testing-library/react';
import { SignInThemeProvider } from '../lean/SignInThemeProvider.js';
import { DEFAULT_THEME_CSS } from '../theme/default-theme-css.js';
import { KitThemeProvider } from '../theme/KitThemeProvider.js';
import { createPorticoTheme, DEFAULT_PRIMARY, porticoCssVariables } from '../theme/theme.js';

/** The stylesheets of CSS variables a provider rendered (Mantine marks its own the same way). */
const variableSheets = (container: HTMLElement) =>
  [...container.ownerDocument.querySelectorAll('style[data-mantine-styles]')]
    .filter((s) => s.getAttribute('data-mantine-styles') !== 'classes')
    .map((s) => s.textContent);

describe('theme variables', () => {
  it('renders for the default theme exactly what Mantine computes for it (rerun build/default-theme-css.mjs if not)', () => {
    const mantine = render(
      <MantineProvider
        theme={createPorticoTheme(undefined)}
        env="test"
        cssVariablesResolver={porticoCssVariables}
      >
        <div />
      </MantineProvider>,
    );
    const computed = variableSheets(mantine.container);
    mantine.unmount();
    expect(computed).toEqual([DEFAULT_THEME_CSS]);

    for (const primary of [undefined, DEFAULT_PRIMARY, DEFAULT_PRIMARY.toUpperCase()]) {
      const kit = render(
        <KitThemeProvider primary={primary} env="test">
          <div />
        </KitThemeProvider>,
      );
      expect(variableSheets(kit.container)).toEqual([DEFAULT_THEME_CSS]);
      kit.unmount();
    }
  });

  it("computes them for a firm's colour", () => {
    const kit = render(
      <KitThemeProvider primary="#c92a2a" env="test">
        <div />
      </KitThemeProvider>,
    );
    const [sheet] = variableSheets(kit.container);
    expect(sheet).toContain('--mantine-color-firm-6: #c92a2a');
    expect(sheet).not.toEqual(DEFAULT_THEME_CSS);
    kit.unmount();
  });

  it('gives every spinner the status role, so its name is allowed and announced', () => {
    const kit = render(
      <KitThemeProvider env="test">
        <Loader aria-label="Loading" />
      </KitThemeProvider>,
    );
    expect(kit.getByRole('status', { name: 'Loading' })).toBeTruthy();
    kit.unmount();
  });

  it('is always light: neither a stored scheme nor storage events change it', () => {
    window.localStorage.setItem('mantine-color-scheme-value', 'dark');
    const listen = jest.spyOn(window, 'addEventListener');
    const kit = render(
      <KitThemeProvider env="test">
        <div />
      </KitThemeProvider>,
    );
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light');
    expect(listen.mock.calls.map(([type]) => type)).not.toContain('storage');
    kit.unmount();
    listen.mockRestore();
    window.localStorage.removeItem('mantine-color-scheme-value');
  });

  it("gives the sign-in page, without Mantine's provider, the variables that provider renders", async () => {
    const firm = '#c92a2a';
    const mantine = render(
      <MantineProvider theme={createPorticoTheme(firm)} env="test" cssVariablesResolver={porticoCssVariables}>
        <div />
      </MantineProvider>,
    );
    const computed = variableSheets(mantine.container);
    mantine.unmount();
    document.documentElement.removeAttribute('data-mantine-color-scheme');

    const page = render(
      <SignInThemeProvider primary={firm}>
        <div />
      </SignInThemeProvider>,
    );
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light');
    // The default colour's at once, the firm's once its module has loaded.
    expect(variableSheets(page.container)).toEqual([DEFAULT_THEME_CSS]);
    await waitFor(() => expect(variableSheets(page.container)).toEqual(computed));
    page.rerender(
      <SignInThemeProvider primary={DEFAULT_PRIMARY.toUpperCase()}>
        <div />
      </SignInThemeProvider>,
    );
    expect(variableSheets(page.container)).toEqual([DEFAULT_THEME_CSS]);
    page.unmount();
  });
});
