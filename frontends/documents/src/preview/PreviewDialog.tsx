import { Button, Center, Dialog, Group, Image, Loader, Stack, Text } from '@portico/kit';
import { type QueryState, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import type { DocItem, DocumentsApi, LinkResponse } from '../api/documents-api.js';
import { failureText } from '../rules/failure-text.js';
import { previewKind } from '../rules/names.js';
import { MAX_SHEET_BYTES, SHEET_TOO_LARGE } from './sheet-limits.js';

const PdfView = lazy(() => import('./PdfView.js').then((m) => ({ default: m.PdfView })));
const SheetView = lazy(() => import('./SheetView.js').then((m) => ({ default: m.SheetView })));

export const NOT_SUPPORTED = 'File type not supported yet';
/** A preview the service could not make (a HEIC whose conversion failed): spec 2 s.8's loading error. */
export const PREVIEW_FAILED = 'An error occurred while loading the document.';
export const HEIC_POLL_MS = 1500;
/**
 * Answers asked for while a HEIC conversion is pending: 160 tries of 1.5 s, four minutes. Past them the
 * preview says it could not be loaded, with Try again to ask for as many again.
 */
export const HEIC_POLL_LIMIT = 160;

/**
 * Preview of pdf (pdf.js), xlsx and xls (a read-only table), images, and HEIC through the server's
 * converted copy; other types are not previewed. The viewers of pdf and spreadsheets load on demand.
 */
export function PreviewDialog({
  item,
  api,
  companyId,
  onClose,
  onDownload,
}: {
  item: DocItem;
  api: DocumentsApi;
  companyId: string;
  onClose: () => void;
  onDownload: (item: DocItem) => void;
}) {
  const kind = previewKind(item.name);
  const tooLarge = kind === 'sheet' && Number(item.size) > MAX_SHEET_BYTES;
  const supported = kind !== 'none' && !tooLarge;
  const queryClient = useQueryClient();
  const queryKey = ['documents-preview', companyId, item.link];
  // The answers counted before the last Try again: each try asks HEIC_POLL_LIMIT times at most.
  const answersBefore = useRef(0);
  /** Answers since the opening, or since the last Try again. */
  const answersThisTry = (state: QueryState<LinkResponse> | undefined) =>
    (state?.dataUpdateCount ?? 0) - answersBefore.current;
  const link = useQuery({
    // Not under ['documents', companyId], which the file manager refreshes after every change: a new
    // presigned link would reload the viewer (a PDF back to page 1, its password asked again). One link
    // serves the preview while it is open (never stale, so neither focus nor a reconnection asks again);
    // closed, it is dropped, and the next opening asks afresh.
    queryKey,
    queryFn: () => api.downloadLink(companyId, item.link, false),
    enabled: supported,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    // A conversion still pending is asked after again, for HEIC_POLL_LIMIT tries (a few minutes): a
    // preview left open on one stuck for good would otherwise ask every 1.5 s for as long as it is open.
    refetchInterval: (q) =>
      q.state.data?.document.data.preview_status === 'pending' && answersThisTry(q.state) < HEIC_POLL_LIMIT
        ? HEIC_POLL_MS
        : false,
  });
  const data = link.data?.document.data;
  const pending = kind === 'heic' && (!data || data.preview_status === 'pending');
  // Still pending after every try: not a spinner for ever, but the loading error and Try again.
  const gaveUp =
    pending &&
    Boolean(data) &&
    !link.isFetching &&
    answersThisTry(queryClient.getQueryState<LinkResponse>(queryKey)) >= HEIC_POLL_LIMIT;
  const tryAgain = () => {
    answersBefore.current = queryClient.getQueryState(queryKey)?.dataUpdateCount ?? 0;
    void link.refetch();
  };
  // An answer without a link that is not still converting (preview_status failed) will never get one.
  const failed = Boolean(data) && !pending && !data?.link;
  let body: React.ReactNode;
  if (!supported) {
    body = (
      <Center p="xl">
        <Stack align="center">
          <Text>{tooLarge ? SHEET_TOO_LARGE : NOT_SUPPORTED}</Text>
          <Button onClick={() => onDownload(item)}>Download</Button>
        </Stack>
      </Center>
    );
  } else if (link.isError) {
    body = (
      <FailedWithTryAgain
        text={failureText(link.error, 'There was a problem downloading the document.')}
        onTryAgain={() => void link.refetch()}
      />
    );
  } else if (gaveUp) {
    body = <FailedWithTryAgain text={PREVIEW_FAILED} onTryAgain={tryAgain} />;
  } else if (failed) {
    body = (
      <Center p="xl">
        <Text c="red.9">{PREVIEW_FAILED}</Text>
      </Center>
    );
  } else if (pending || !data?.link) {
    body = (
      <Center p="xl">
        <Stack align="center" gap="xs">
          <Loader aria-label="Loading" />
          <Text size="sm" c="dimmed">
            Loading
          </Text>
        </Stack>
      </Center>
    );
  } else if (kind === 'pdf' || kind === 'sheet') {
    body = (
      <Suspense
        fallback={
          <Center p="xl">
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        {kind === 'pdf' ? <PdfView url={data.link} /> : <SheetView url={data.link} />}
      </Suspense>
    );
  } else {
    body = <ImagePreview src={data.link} name={item.name} />;
  }
  return (
    <Dialog opened onClose={onClose} title={item.name} size="full-screen">
      <Group justify="flex-end" mb="sm">
        <Button variant="light" onClick={() => onDownload(item)}>
          Download
        </Button>
      </Group>
      {body}
    </Dialog>
  );
}

/**
 * Why the preview is not shown, read as it appears, with Try again. Try again gives way to the loader:
 * focus goes to the dialog first, not with the button to the page.
 */
function FailedWithTryAgain({ text, onTryAgain }: { text: string; onTryAgain: () => void }) {
  const tryAgain = (e: React.MouseEvent<HTMLElement>) => {
    e.currentTarget.closest<HTMLElement>('[role="dialog"]')?.focus();
    onTryAgain();
  };
  return (
    <Center p="xl">
      <Stack align="center" gap="xs">
        <Text c="red.9" role="alert">
          {text}
        </Text>
        <Button variant="light" onClick={tryAgain}>
          Try again
        </Button>
      </Stack>
    </Center>
  );
}

/** An image, or the loading error when the browser cannot show it (damaged, or not the image it claims). */
function ImagePreview({ src, name }: { src: string; name: string }) {
  const [broken, setBroken] = useState(false);
  if (broken)
    return (
      <Center p="xl">
        <Text c="red.9" role="alert">
          {PREVIEW_FAILED}
        </Text>
      </Center>
    );
  return (
    <Center>
      <Image src={src} alt={name} fit="contain" mah="80vh" onError={() => setBroken(true)} />
    </Center>
  );
}
