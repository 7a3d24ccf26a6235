import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KitProvider } from '@portico/kit';
import { act, fireEvent, render, waitFor } from '@testing-library/react';

/** pdf.js, arriving when the test opens `arrive`, with a document of 300 pages. */
let arrive: () => void = () => {};
const arrived = new Promise<void>((resolve) => {
  arrive = resolve;
});
const destroy = jest.fn(async () => {});
const rendered: number[] = [];
const cleaned: number[] = [];
/** While set, every render ends only when it settles. */
let renderHeld: Promise<void> | undefined;
const drawing = new Set<unknown>();
const getPage = jest.fn(async (n: number) => ({
  getViewport: () => ({ width: 600, height: 800 }),
  render: ({ canvas }: { canvas: unknown }) => {
    // As pdf.js: a second render on a canvas whose render has not ended is refused.
    if (drawing.has(canvas))
      return {
        promise: Promise.reject(new Error('Cannot use the same canvas during multiple render() operations')),
      };
    rendered.push(n);
    drawing.add(canvas);
    return { promise: (renderHeld ?? Promise.resolve()).finally(() => drawing.delete(canvas)) };
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
const { PDF_MESSAGES, PdfView } = await import('../preview/PdfView.js');

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

  it('asks for the password of a protected PDF, says when it is wrong, and opens it with the right one', async () => {
    arrive();
    let open: (doc: unknown) => void = () => {};
    type OnPassword = (update: (password: string) => void, reason: number) => void;
    const task: { promise: Promise<unknown>; destroy: typeof destroy; onPassword: OnPassword | null } = {
      promise: new Promise((resolve) => {
        open = resolve;
      }),
      destroy,
      onPassword: null,
    };
    getDocument.mockImplementationOnce(() => task as never);
    const view = render(
      <KitProvider env="test">
        <PdfView url="http://s3.test/locked.pdf" />
      </KitProvider>,
    );
    await waitFor(() => expect(task.onPassword).not.toBeNull());
    // As pdf.js: asked first (1, a password is needed), and again after a wrong one (2).
    const tried: string[] = [];
    const update = (password: string) => {
      tried.push(password);
      if (password === 'right-one') open({ numPages: 1, getPage });
      else task.onPassword?.(update, 2);
    };
    await act(async () => task.onPassword?.(update, 1));
    expect(await view.findByText(PDF_MESSAGES.password)).toBeTruthy();
    expect(view.queryByText(PDF_MESSAGES.wrongPassword)).toBeNull();
    const enter = (password: string) => {
      fireEvent.change(view.getByLabelText('Password'), { target: { value: password } });
      fireEvent.click(view.getByRole('button', { name: 'Open' }));
    };
    enter('wrong-one');
    expect(await view.findByText(PDF_MESSAGES.wrongPassword)).toBeTruthy();
    enter('right-one');
    await waitFor(() => expect(view.container.querySelectorAll('canvas')).toHaveLength(1));
    expect(tried).toEqual(['wrong-one', 'right-one']);
    view.unmount();
  });

  it('keeps a page drawn when it comes back into view while it was being let go', async () => {
    arrive();
    rendered.length = 0;
    cleaned.length = 0;
    let endRender: () => void = () => {};
    renderHeld = new Promise<void>((resolve) => {
      endRender = resolve;
    });
    const view = render(
      <KitProvider env="test">
        <PdfView url="http://s3.test/back.pdf" />
      </KitProvider>,
    );
    await waitFor(() => expect(view.container.querySelectorAll('canvas')).toHaveLength(300));
    // Page 1 is being drawn, is scrolled away from and back to before its drawing ends.
    await act(async () => FakeObserver.current?.show([1]));
    await waitFor(() => expect(rendered).toEqual([1]));
    await act(async () => FakeObserver.current?.show([]));
    await act(async () => FakeObserver.current?.show([1]));
    await act(async () => {
      endRender();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    renderHeld = undefined;
    const first = view.container.querySelector('canvas') as HTMLCanvasElement;
    expect([first.width, first.height]).toEqual([600, 800]);
    expect(rendered).toEqual([1]);
    expect(cleaned).toEqual([]);
    // Left for good, it is emptied once.
    await act(async () => FakeObserver.current?.show([]));
    await waitFor(() => expect(cleaned).toEqual([1]));
    expect([first.width, first.height]).toEqual([0, 0]);
    view.unmount();
  });
});
