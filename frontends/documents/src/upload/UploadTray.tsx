import { Box, Button, Group, Paper, Progress, Text, Title, VisuallyHidden } from '@portico/kit';
import { memo, useId, useState } from 'react';
import { batchAnnouncement, destination, folderLabel, TRAY_TEXT } from './tray-text.js';
import { overallProgress, UploadProgressList } from './UploadProgressList.js';
import { type UploadBatch, uploadQueue } from './upload-queue.js';
import { useUploadBatches } from './useUploadBatches.js';

/**
 * The remote's uploads, whichever entity's documents are shown (or none): a panel in the bottom corner
 * while any batch is running or finished and not dismissed, one group per batch with its entity, its
 * folder and its files, cancel, retry and dismiss; above them one bar for everything still running.
 * Starts and ends of batches are announced politely.
 */
export function UploadTray() {
  const batches = useUploadBatches();
  const [showFiles, setShowFiles] = useState(true);
  const listId = useId();
  const running = batches.filter((batch) => batch.running);
  const runningFiles = running.flatMap((batch) => batch.files);
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
        <Paper
          component="section"
          aria-label={TRAY_TEXT.title}
          data-testid="upload-tray"
          withBorder
          shadow="md"
          p="sm"
          pos="fixed"
          bottom={16}
          right={16}
          // Above the page, under dialogs (200) and toasts.
          style={{ zIndex: 150, width: 'min(380px, calc(100vw - 32px))' }}
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
                {`${pct}% of ${runningFiles.length.toLocaleString()} file${runningFiles.length === 1 ? '' : 's'}`}
              </Text>
              <Progress value={pct} size={8} transitionDuration={120} aria-label={TRAY_TEXT.allUploads} />
            </Box>
          ) : null}
          <Box id={listId} hidden={!showFiles} mah="50vh" mt="xs" style={{ overflowY: 'auto' }}>
            {batches.map((batch) => (
              <BatchGroup key={batch.id} batch={batch} />
            ))}
          </Box>
        </Paper>
      ) : null}
    </>
  );
}

/** One batch: its entity and folder, then its files. Memoised: another batch's progress leaves it be. */
const BatchGroup = memo(function BatchGroup({ batch }: { batch: UploadBatch }) {
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
        onDismiss={() => uploadQueue.dismiss(batch.id)}
      />
    </Box>
  );
});
