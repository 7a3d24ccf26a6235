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

/** Renders every page of a PDF onto canvases; a protected PDF asks for its password first. */
export function PdfView({ url }: { url: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [password, setPassword] = useState('');
  const pagesRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    (async () => {
      try {
        const lib = await loadPdfJs();
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
        host.replaceChildren();
        for (let n = 1; n <= doc.numPages && !cancelled; n++) {
          const page = await doc.getPage(n);
          const viewport = page.getViewport({ scale: 1.4 });
          const canvas = document.createElement('canvas');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          canvas.style.maxWidth = '100%';
          canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,.2)';
          canvas.setAttribute('aria-label', `Page ${n}`);
          host.appendChild(canvas);
          await page.render({ canvas, viewport }).promise;
        }
      } catch {
        if (!cancelled) setState({ kind: 'failed' });
      }
    })();
    return () => {
      cancelled = true;
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
          <Text c="red">{PDF_MESSAGES.failed}</Text>
        </Center>
      ) : null}
      <Stack ref={pagesRef} align="center" gap="md" data-testid="pdf-pages" />
    </>
  );
}
