import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KitProvider } from '@portico/kit';
import { act, render, waitFor } from '@testing-library/react';

/** pdf.js, arriving when the test opens `arrive`, with a document of 300 pages. */
let arrive: () => void = () => {};
const arrived = new Promise<void>((resolve) => {
  arrive = resolve;
});
const destroy = jest.fn(async () => {});
const rendered: number[] = [];
const cleaned: number[] = [];
const getPage = jest.fn(async (n: number) => ({
  getViewport: () => ({ width: 600, height: 800 }),
  render: () => {
    rendered.push(n);
    return { promise: Promise.resolve() };
  },
  cleanup: () => cleaned.push(n),
}));
const getDocument = jest.fn(() => ({
  promise: Promise.resolve({ numPages: 300, getPage }),
  destroy,
  onPassword: null,
}));
jest.unstable_mockModule('pdfjs-dist', async () => {
  await arrived;
  return { getDocument, GlobalWorkerOptions: {}, PasswordResponses: { INCORRECT_PASSWORD: 2 } };
});
const { PdfView } = await import('../preview/PdfView.js');

/** An IntersectionObserver the test drives: `show(pages)` reports those pages near the view, the rest not. */
class FakeObserver {
  static current?: FakeObserver;
  readonly targets: Element[] = [];
  constructor(private readonly callback: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
    FakeObserver.current = this;
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {}
  show(pages: number[]) {
    this.callback(
      this.targets.map((target) => ({
        target,
        isIntersecting: pages.includes(Number((target as HTMLElement).dataset.page)),
      })),
    );
  }
}

describe('PDF preview', () => {
  beforeEach(() => {
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeObserver;
  });
  afterEach(() => {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
  });

  it('loads no document when closed before pdf.js arrived', async () => {
    const view = render(
      <KitProvider env="test">
        <PdfView url="http://s3.test/closed.pdf" />
      </KitProvider>,
    );
    view.unmount();
    await act(async () => {
      arrive();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(getDocument).not.toHaveBeenCalled();
  });

  it('draws the pages near the view and lets go of those left, not all 300 at once', async () => {
    const view = render(
      <KitProvider env="test">
        <PdfView url="http://s3.test/return.pdf" />
      </KitProvider>,
    );
    await waitFor(() => expect(view.container.querySelectorAll('canvas')).toHaveLength(300));
    expect(view.container.querySelector('canvas')?.getAttribute('aria-label')).toBe('Page 1');
    await act(async () => FakeObserver.current?.show([1, 2]));
    await waitFor(() => expect(rendered.sort()).toEqual([1, 2]));
    // Scrolled on: pages 1 and 2 are emptied, 150 and 151 drawn.
    await act(async () => FakeObserver.current?.show([150, 151]));
    await waitFor(() => expect(rendered.sort((a, b) => a - b)).toEqual([1, 2, 150, 151]));
    await waitFor(() => expect(cleaned.sort()).toEqual([1, 2]));
    const first = view.container.querySelector('canvas') as HTMLCanvasElement;
    expect([first.width, first.height]).toEqual([0, 0]);
    view.unmount();
    expect(destroy).toHaveBeenCalled();
  });
});
