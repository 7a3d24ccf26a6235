import { Box, Button, Group, Progress, Stack, Text } from '@portico/kit';
import { memo, useId } from 'react';
import { type FileProgress, UPLOAD_MESSAGES } from './upload.js';

const STATE_TEXT: Record<FileProgress['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  processing: 'Processing',
  done: UPLOAD_MESSAGES.fileDone,
  failed: UPLOAD_MESSAGES.fileFailed,
  invalid: 'Invalid',
  duplicate: 'Already uploaded',
  cancelled: 'Cancelled',
};

export const CANCEL_UPLOAD = 'Cancel upload';
/** The accessible name of the whole upload's bar, unless the list is given one. */
const ALL_FILES_LABEL = 'Upload of all files';

const IN_FLIGHT: ReadonlySet<FileProgress['state']> = new Set(['waiting', 'uploading', 'processing']);

/** Whether none of these files is waiting, being sent or being filed any more. */
const isSettled = (files: readonly FileProgress[]) => !files.some((f) => IN_FLIGHT.has(f.state));

/**
 * One progress bar per file, with its state. With `onCancel`, while files are in flight, a button cancels the upload; with
 * `onRetryFailed`, once nothing is in flight, the files that failed get a button to send them again.
 */
export function UploadProgressList({
  files,
  summaryLabel = ALL_FILES_LABEL,
  onCancel,
  onRetryFailed,
  retryBlocked,
  onDismiss,
  withReasons = false,
}: {
  files: readonly FileProgress[];
  /** The accessible name of the whole upload's bar (several lists on a page need their own). */
  summaryLabel?: string;
  onCancel?: () => void;
  onRetryFailed?: () => void;
  /** Why the failed files cannot be sent again now: the button is disabled and this is said under it. */
  retryBlocked?: string;
  /** Takes a finished upload's list away (shown on the page, not in the upload dialog). */
  onDismiss?: () => void;
  /** Shows under a failed file the service's reason (a page that shows it once for all files does not). */
  withReasons?: boolean;
}) {
  const blockedId = useId();
  if (!files.length) return null;
  const failed = files.filter((f) => f.state === 'failed').length;
  const settled = isSettled(files);
  return (
    <Stack gap={6} data-testid="upload-progress">
      {files.length > 1 ? <UploadSummary files={files} settled={settled} label={summaryLabel} /> : null}
      {files.map((f) => (
        <ProgressRow key={f.key} file={f} withReason={withReasons} />
      ))}
      {onCancel && !settled ? (
        <Group justify="flex-end">
          <Button size="xs" variant="default" onClick={onCancel}>
            {CANCEL_UPLOAD}
          </Button>
        </Group>
      ) : null}
      {settled && ((onRetryFailed && failed) || onDismiss) ? (
        <Group justify="flex-end">
          {onRetryFailed && failed ? (
            <Button
              size="xs"
              variant="light"
              onClick={onRetryFailed}
              disabled={Boolean(retryBlocked)}
              aria-describedby={retryBlocked ? blockedId : undefined}
            >
              {failed === 1
                ? 'Try the failed file again'
                : `Try the ${failed.toLocaleString()} failed files again`}
            </Button>
          ) : null}
          {onDismiss ? (
            <Button size="xs" variant="default" onClick={onDismiss}>
              Dismiss
            </Button>
          ) : null}
        </Group>
      ) : null}
      {settled && onRetryFailed && failed && retryBlocked ? (
        <Text id={blockedId} size="xs" c="dimmed" ta="right">
          {retryBlocked}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The whole upload's progress, by bytes (a file of unknown size counts as one byte). */
export function overallProgress(files: readonly FileProgress[]): number {
  let sent = 0;
  let total = 0;
  for (const f of files) {
    const weight = Math.max(1, f.size ?? 1);
    total += weight;
    sent += weight * (IN_FLIGHT.has(f.state) ? f.progress : 1);
  }
  return total ? sent / total : 0;
}

/** What became of an upload's files, once none is in flight: '6 of 8 files uploaded, 2 invalid'. */
export function uploadResult(files: readonly FileProgress[]): string {
  const count = (state: FileProgress['state']) => files.filter((f) => f.state === state).length;
  const others = (
    [
      ['failed', 'failed'],
      ['invalid', 'invalid'],
      ['duplicate', 'already uploaded'],
      ['cancelled', 'cancelled'],
    ] as const
  )
    .map(([state, text]) => [count(state), text] as const)
    .filter(([n]) => n > 0)
    .map(([n, text]) => `, ${n.toLocaleString()} ${text}`)
    .join('');
  return `${count('done').toLocaleString()} of ${files.length.toLocaleString()} files uploaded${others}`;
}

/**
 * Above the files' lines of an upload of several: how many are finished and one bar for all of them
 * (which with hundreds of files says more than their lines), then what became of them.
 */
function UploadSummary({
  files,
  settled,
  label,
}: {
  files: readonly FileProgress[];
  settled: boolean;
  label: string;
}) {
  if (settled)
    return (
      <Text size="sm" fw={500} data-testid="upload-summary" mb={4}>
        {uploadResult(files)}
      </Text>
    );
  const pct = Math.round(overallProgress(files) * 100);
  const finished = files.filter((f) => !IN_FLIGHT.has(f.state)).length;
  return (
    <Box data-testid="upload-summary" mb={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          {`${finished.toLocaleString()} of ${files.length.toLocaleString()} files finished`}
        </Text>
        <Text size="sm" c="dimmed">
          {pct}%
        </Text>
      </Group>
      <Progress value={pct} size={8} transitionDuration={120} aria-label={label} />
    </Box>
  );
}

/**
 * One file's line. Memoised: each progress event replaces one file's entry and keeps the others, so
 * only that line renders again (with 500 files, every event rendered all of them).
 */
const ProgressRow = memo(function ProgressRow({
  file: f,
  withReason,
}: {
  file: FileProgress;
  withReason: boolean;
}) {
  const pct = Math.round(f.progress * 100);
  const bad = f.state === 'failed' || f.state === 'invalid';
  return (
    <Box>
      <Group justify="space-between" wrap="nowrap">
        <Text size="xs" truncate>
          {f.name}
        </Text>
        <Text size="xs" c={bad ? 'red.9' : 'dimmed'}>
          {STATE_TEXT[f.state]}
          {f.state === 'uploading' ? ` ${pct}%` : ''}
        </Text>
      </Group>
      <Progress
        value={pct}
        size={6}
        color={bad ? 'red' : f.state === 'cancelled' ? 'gray' : undefined}
        transitionDuration={120}
        aria-label={`Upload of ${f.name}`}
      />
      {withReason && f.state === 'failed' && f.message ? (
        <Text size="xs" c="red.9" data-testid="upload-file-message">
          {f.message}
        </Text>
      ) : null}
    </Box>
  );
});
