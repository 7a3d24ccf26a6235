import { Box, Button, Group, Stack, Text } from '@portico/kit';
import { memo } from 'react';
import type { FileProgress } from './upload.js';

const STATE_TEXT: Record<FileProgress['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  processing: 'Processing',
  done: 'Uploaded',
  failed: 'Failed',
  invalid: 'Invalid',
  duplicate: 'Already uploaded',
};

/** No label replaced: one object, so the memoised lines see the same prop on every render. */
const NO_OVERRIDES = {};

const IN_FLIGHT: ReadonlySet<FileProgress['state']> = new Set(['waiting', 'uploading', 'processing']);

/**
 * One progress bar per file (the kit has no progress component, so a plain one with its ARIA role).
 * `stateText` replaces some of the state labels (the drop-off page's 'Upload successful'). With
 * `onRetryFailed`, once nothing is in flight, the files that failed get a button to send them again.
 */
export function UploadProgressList({
  files,
  stateText = NO_OVERRIDES,
  onRetryFailed,
}: {
  files: FileProgress[];
  stateText?: Partial<Record<FileProgress['state'], string>>;
  onRetryFailed?: () => void;
}) {
  if (!files.length) return null;
  const failed = files.filter((f) => f.state === 'failed').length;
  const settled = !files.some((f) => IN_FLIGHT.has(f.state));
  return (
    <Stack gap={6} data-testid="upload-progress">
      {files.map((f) => (
        <ProgressRow key={f.key} file={f} stateText={stateText} />
      ))}
      {onRetryFailed && failed && settled ? (
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={onRetryFailed}>
            {failed === 1
              ? 'Try the failed file again'
              : `Try the ${failed.toLocaleString()} failed files again`}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * One file's line. Memoised: each progress event replaces one file's entry and keeps the others, so
 * only that line renders again (with 500 files, every event rendered all of them).
 */
const ProgressRow = memo(function ProgressRow({
  file: f,
  stateText,
}: {
  file: FileProgress;
  stateText: Partial<Record<FileProgress['state'], string>>;
}) {
  const pct = Math.round(f.progress * 100);
  const bad = f.state === 'failed' || f.state === 'invalid';
  return (
    <Box>
      <Group justify="space-between" wrap="nowrap">
        <Text size="xs" truncate>
          {f.name}
        </Text>
        <Text size="xs" c={bad ? 'red' : 'dimmed'}>
          {stateText[f.state] ?? STATE_TEXT[f.state]}
          {f.state === 'uploading' ? ` ${pct}%` : ''}
        </Text>
      </Group>
      <div
        role="progressbar"
        aria-label={`Upload of ${f.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        style={{
          height: 6,
          borderRadius: 3,
          background: 'var(--mantine-color-gray-2)',
          overflow: 'hidden',
        }}
      >
        <div
          style={{
            width: `${pct}%`,
            height: '100%',
            background: bad ? 'var(--mantine-color-red-6)' : 'var(--mantine-primary-color-filled)',
            transition: 'width 120ms linear',
          }}
        />
      </div>
    </Box>
  );
});
