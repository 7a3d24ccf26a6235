import { Progress, Stack, Text } from '@mantine/core';

/** '3 of 5 files' ('1 of 1 file'). */
function filesDoneText(done: number, total: number): string {
  return `${done.toLocaleString()} of ${total.toLocaleString()} ${total === 1 ? 'file' : 'files'}`;
}

/** A pending notice's text with how far its work has got under it: a bar, and the count in words. */
export function PendingProgress({ text, done, total }: { text: string; done: number; total: number }) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <Stack gap={4}>
      <div>{text}</div>
      <Progress value={percent} size="sm" aria-label="Files done" />
      <Text size="xs" c="dimmed">
        {filesDoneText(done, total)}
      </Text>
    </Stack>
  );
}
