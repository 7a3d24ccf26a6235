import {
  Box,
  Button,
  Group,
  Paper,
  Progress,
  Text,
  Title,
  useElementHeight,
  useMediaQuery,
  VisuallyHidden,
} from '@portico/kit';
import { memo, useId, useState } from 'react';
import {
  batchAnnouncement,
  destination,
  filesOfRun,
  folderLabel,
  overallLabel,
  TRAY_TEXT,
} from './tray-text.js';
import { overallProgress, UploadProgressList } from './UploadProgressList.js';
import { type UploadBatch, uploadQueue } from './upload-queue.js';
import { useUploadBatches } from './useUploadBatches.js';

/** Phones and small tablets (below the theme's `sm`, where the shell hides its navigation). */
export const SMALL_SCREEN_QUERY = '(max-width: 48em)';

/** The tray's distance from the window's edges, in px. */
const EDGE = 16;

/** The shell's navigation beside the page (0 where it is hidden), which the tray must not cover. */
const NAVIGATION_WIDTH = 'var(--app-shell-navbar-offset, 0rem)';

/**
 * The remote's uploads, whichever entity's documents are shown (or none): a panel in the bottom corner
 * while any batch is running or finished and not dismissed, one group per batch with its entity, its
 * folder and its files, cancel, retry and dismiss; above them one bar for everything still running.
 * Starts and ends of batches are announced politely.
 *
 * Bottom left, beside the shell's navigation: the kit's toasts show bottom right, above the tray, and
 * a batch ends with up to five of them, which there covered its Retry and Dismiss. While it shows, room
 * of its height is kept under the page, so the page's last rows and controls scroll above it. On a small
 * screen the file list starts hidden and shows less.
 */
export function UploadTray() {
  const batches = useUploadBatches();
  const small = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const [showFiles, setShowFiles] = useState(!small);
  const tray = useElementHeight<HTMLElement>();
  const listId = useId();
  const running = batches.filter((batch) => batch.running);
  // A retry counts only the files it sends again, not its whole batch.
  const runningFiles = running.flatMap(filesOfRun);
  const pct = Math.round(overallProgress(runningFiles) * 100);
  return (
    <>
      {/* Always in the page, so that the first announcement is heard too. */}
      <VisuallyHidden aria-live="polite" aria-atomic="false" data-testid="upload-announcer">
        {batches.map((batch) => (
          <p key={batch.id}>{batchAnnouncement(batch)}</p>
        ))}
      </VisuallyHidden>
      {batches.length ? (
        <>
          <Box aria-hidden h={tray.height + EDGE} data-testid="upload-tray-room" />
          <Paper
            ref={tray.ref}
            component="section"
            aria-label={TRAY_TEXT.title}
            data-testid="upload-tray"
            withBorder
            shadow="md"
            p="sm"
            pos="fixed"
            bottom={EDGE}
            left={`calc(${NAVIGATION_WIDTH} + ${EDGE}px)`}
            // Above the page; under the shell's header and navigation (100, 101: opened on a phone, the
            // navigation covers the page), dialogs (200) and toasts (400).
            style={{ zIndex: 99, width: `min(380px, calc(100vw - ${NAVIGATION_WIDTH} - ${2 * EDGE}px))` }}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Title order={2} size="h5">
                {TRAY_TEXT.title}
              </Title>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-expanded={showFiles}
                  aria-controls={listId}
                  onClick={() => setShowFiles((shown) => !shown)}
                >
                  {showFiles ? TRAY_TEXT.hide : TRAY_TEXT.show}
                </Button>
                {running.length ? null : (
                  <Button size="compact-xs" variant="default" onClick={() => uploadQueue.dismissFinished()}>
                    {TRAY_TEXT.dismissAll}
                  </Button>
                )}
              </Group>
            </Group>
            {running.length ? (
              <Box mt={6}>
                <Text size="xs" c="dimmed">
                  {overallLabel(pct, runningFiles.length)}
                </Text>
                <Progress value={pct} size={8} transitionDuration={120} aria-label={TRAY_TEXT.allUploads} />
              </Box>
            ) : null}
            <Box
              id={listId}
              hidden={!showFiles}
              mah={small ? '30vh' : '40vh'}
              mt="xs"
              style={{ overflowY: 'auto' }}
            >
              {batches.map((batch) => (
                <BatchGroup
                  key={batch.id}
                  batch={batch}
                  retryBlocked={running.some((other) => other.companyId === batch.companyId)}
                />
              ))}
            </Box>
          </Paper>
        </>
      ) : null}
    </>
  );
}

/** One batch: its entity and folder, then its files. Memoised: another batch's progress leaves it be. */
const BatchGroup = memo(function BatchGroup({
  batch,
  retryBlocked,
}: {
  batch: UploadBatch;
  /** Another upload to its entity runs: its failed files wait for it to end. */
  retryBlocked: boolean;
}) {
  const name = `Upload to ${destination(batch)}`;
  return (
    <Box
      role="group"
      aria-label={name}
      py="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Text size="sm" fw={600} truncate>
        {batch.companyName}
      </Text>
      <Text size="xs" c="dimmed" mb={4} truncate>
        {folderLabel(batch.path)}
      </Text>
      <UploadProgressList
        files={batch.files}
        summaryLabel={name}
        withReasons
        onCancel={() => uploadQueue.cancel(batch.id)}
        onRetryFailed={() => uploadQueue.retryFailed(batch.id)}
        retryBlocked={retryBlocked ? TRAY_TEXT.retryWaits(batch.companyName) : undefined}
        onDismiss={() => uploadQueue.dismiss(batch.id)}
      />
    </Box>
  );
});
