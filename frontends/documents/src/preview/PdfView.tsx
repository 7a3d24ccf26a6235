import { Button, Center, Group, Loader, PasswordInput, Stack, Text } from '@portico/kit';
import { useEffect, useRef, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js is loaded only when a PDF is previewed, with its worker as a separate asset. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = new URL(
      'pdfjs-dist/build/pdf.worker.min.mjs',
      import.meta.url,
    ).toString();
    return lib;
  });
  return pdfjs;
}

export const PDF_MESSAGES = {
  password: 'This PDF is password-protected. Enter its password to view it.',
  wrongPassword: 'Incorrect password. Please try again.',
  failed: 'Failed to load PDF file',
} as const;

type State =
  | { kind: 'loading' }
  | { kind: 'password'; retry: boolean; submit: (password: string) => void }
  | { kind: 'ready'; pages: number }
  | { kind: 'failed' };

/** How far outside the view a page is drawn before it is scrolled to, and kept after it is left. */
const NEAR_VIEW = '150% 0px';
/** The scale pages are drawn at (the canvas then shrinks to the dialog's width). */
const SCALE = 1.4;

type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/**
 * Draws a PDF's pages as they come near the view and lets go of those far from it: a 300-page return
 * drawn up front held 300 canvases (about a gigabyte) and blanked pages on phones. Each page has its
 * place from the start (the first page's size), so the scroll bar is right; a protected PDF asks for its
 * password first. A preview closed before pdf.js or the document arrived loads nothing more.
 */
export function PdfView({ url }: { url: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [password, setPassword] = useState('');
  const pagesRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    let observer: IntersectionObserver | undefined;
    (async () => {
      try {
        const lib = await loadPdfJs();
        if (cancelled) return;
        const task = lib.getDocument({ url });
        destroy = () => void task.destroy();
        task.onPassword = (update: (password: string) => void, reason: number) => {
          if (cancelled) return;
          setState({
            kind: 'password',
            retry: reason === lib.PasswordResponses.INCORRECT_PASSWORD,
            submit: (pw) => {
              setState({ kind: 'loading' });
              update(pw);
            },
          });
        };
        const doc = await task.promise;
        if (cancelled) return;
        setState({ kind: 'ready', pages: doc.numPages });
        const host = pagesRef.current;
        if (!host) return;
        observer = await placePages(doc, host, () => cancelled);
      } catch {
        if (!cancelled) setState({ kind: 'failed' });
      }
    })();
    return () => {
      cancelled = true;
      observer?.disconnect();
      destroy?.();
    };
  }, [url]);

  if (state.kind === 'password') {
    return (
      <Center p="xl">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            state.submit(password);
          }}
        >
          <Stack w={360}>
            <Text>{PDF_MESSAGES.password}</Text>
            <PasswordInput
              label="Password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={state.retry ? PDF_MESSAGES.wrongPassword : undefined}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit">Open</Button>
            </Group>
          </Stack>
        </form>
      </Center>
    );
  }
  return (
    <>
      {state.kind === 'loading' ? (
        <Center p="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : null}
      {state.kind === 'failed' ? (
        <Center p="xl">
          <Text c="red.9">{PDF_MESSAGES.failed}</Text>
        </Center>
      ) : null}
      <Stack ref={pagesRef} align="center" gap="md" data-testid="pdf-pages" />
    </>
  );
}

/**
 * One canvas per page in `host`, sized as the first page until drawn; a page is drawn when it comes near
 * the view and its canvas emptied when it leaves (where the browser has no IntersectionObserver, every
 * page is drawn). Answers the observer, to disconnect when the preview closes.
 */
async function placePages(doc: PdfDocument, host: HTMLElement, closed: () => boolean) {
  const first = (await doc.getPage(1)).getViewport({ scale: SCALE });
  host.replaceChildren();
  const canvases: HTMLCanvasElement[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const canvas = document.createElement('canvas');
    canvas.dataset.page = String(n);
    canvas.style.maxWidth = '100%';
    canvas.style.aspectRatio = `${first.width} / ${first.height}`;
    canvas.style.width = `${first.width}px`;
    canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,.2)';
    canvas.setAttribute('aria-label', `Page ${n}`);
    canvases.push(canvas);
  }
  host.append(...canvases);
  // A page's draws and releases run one after the other, each doing what the page's latest wish asks
  // when its turn comes: a page scrolled away from and back to while it was drawn stays drawn, instead
  // of a second render on its canvas (which pdf.js refuses) followed by the first one's release.
  const wished = new Map<number, boolean>();
  const drawn = new Set<number>();
  const turns = new Map<number, Promise<void>>();
  const settle = async (canvas: HTMLCanvasElement, n: number) => {
    const shown = wished.get(n) ?? false;
    if (closed() || shown === drawn.has(n)) return;
    if (shown) {
      // Counted as drawn from the start: a page that cannot be drawn stays blank, and is emptied on release.
      drawn.add(n);
      const page = await doc.getPage(n);
      if (closed()) return;
      const viewport = page.getViewport({ scale: SCALE });
      canvas.width = viewport.width;
      canvas.height = viewport.height;
      canvas.style.aspectRatio = `${viewport.width} / ${viewport.height}`;
      canvas.style.width = `${viewport.width}px`;
      await page.render({ canvas, viewport }).promise;
    } else {
      drawn.delete(n);
      // An emptied canvas holds no pixels; the page's own resources go too.
      canvas.width = 0;
      canvas.height = 0;
      (await doc.getPage(n)).cleanup();
    }
  };
  const wish = (canvas: HTMLCanvasElement, shown: boolean) => {
    const n = Number(canvas.dataset.page);
    wished.set(n, shown);
    const turn = (turns.get(n) ?? Promise.resolve()).then(() =>
      settle(canvas, n).catch(() => {
        // A page that cannot be drawn stays blank; the others still are.
      }),
    );
    turns.set(n, turn);
  };
  const draw = (canvas: HTMLCanvasElement) => wish(canvas, true);
  const release = (canvas: HTMLCanvasElement) => wish(canvas, false);
  if (typeof IntersectionObserver === 'undefined') {
    for (const canvas of canvases) draw(canvas);
    return undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const canvas = entry.target as HTMLCanvasElement;
        if (entry.isIntersecting) draw(canvas);
        else release(canvas);
      }
    },
    { rootMargin: NEAR_VIEW },
  );
  for (const canvas of canvases) observer.observe(canvas);
  return observer;
}
