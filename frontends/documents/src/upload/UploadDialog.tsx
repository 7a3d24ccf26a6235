import { Button, Dialog, Group, Stack, Text } from '@portico/kit';
import { useRef } from 'react';
import { useDropzone } from 'react-dropzone';
import { GuardedButton } from '../documents/Guarded.js';
import type { Verdict } from '../rules/capabilities.js';
import { HiddenFileInput } from './HiddenFileInput.js';
import { useTouchOnly } from './touch.js';
import { CANCEL_UPLOAD, UploadProgressList } from './UploadProgressList.js';
import { entryOf, type FileProgress, type UploadEntry } from './upload.js';

export const UPLOAD_GOES_ON =
  'Closing this window does not stop the upload: it goes on in Uploads, at the bottom of the page.';

/**
 * The upload dialog: a drop area for files and folders, file and folder pickers, progress per file.
 * `folderUpload` says whether folders may be uploaded (a dropped folder is refused by `onFiles`' owner).
 * While files are being sent, its button cancels the upload; closed, the upload goes on in the upload
 * tray (before the tray, the dialog had to stay open, or the upload's progress was lost).
 */
export function UploadDialog({
  onClose,
  onFiles,
  onCancel,
  onRetryFailed,
  files,
  busy,
  folderUpload,
}: {
  onClose: () => void;
  onFiles: (entries: UploadEntry[]) => void;
  /** Stops the upload in flight. */
  onCancel: () => void;
  /** Sends the files of the last upload that failed again. */
  onRetryFailed: () => void;
  files: readonly FileProgress[];
  busy: boolean;
  folderUpload: Verdict;
}) {
  const folderInput = useRef<HTMLInputElement>(null);
  const touchOnly = useTouchOnly();
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    noClick: true,
    noKeyboard: true,
    multiple: true,
    // No maxFiles: the dropzone would keep the first 999 and drop the rest without a word; the upload's
    // own check refuses the whole choice with the spec's message instead.
    disabled: busy,
    onDrop: (accepted) => onFiles(accepted.map(entryOf)),
  });
  return (
    <Dialog opened onClose={onClose} title="Upload" size="wide">
      <Stack>
        <div
          {...getRootProps()}
          data-testid="upload-dropzone"
          style={{
            border: '2px dashed var(--mantine-color-gray-4)',
            borderRadius: 8,
            padding: 24,
            textAlign: 'center',
            background: isDragActive ? 'var(--mantine-primary-color-light)' : undefined,
          }}
        >
          <HiddenFileInput inputProps={getInputProps()} label="Choose files" />
          <Text fw={500}>
            {touchOnly
              ? 'Choose the files to upload'
              : folderUpload.enabled
                ? 'Drag files or folders here'
                : 'Drag files here'}
          </Text>
          <Text size="sm" c="dimmed">
            Max size 150 MB
          </Text>
          <Group justify="center" mt="sm">
            <Button variant="light" onClick={open} disabled={busy}>
              Choose files
            </Button>
            {touchOnly ? null : (
              <GuardedButton
                verdict={folderUpload}
                variant="light"
                onClick={() => folderInput.current?.click()}
                disabled={busy}
              >
                Choose a folder
              </GuardedButton>
            )}
          </Group>
          <input
            ref={(el) => {
              folderInput.current = el;
              el?.setAttribute('webkitdirectory', '');
            }}
            type="file"
            multiple
            hidden
            aria-label="Choose a folder"
            onChange={(e) => {
              const list = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              onFiles(list.map(entryOf));
            }}
          />
        </div>
        <UploadProgressList files={files} onRetryFailed={onRetryFailed} withReasons />
        {busy ? (
          <Text size="sm" c="dimmed">
            {UPLOAD_GOES_ON}
          </Text>
        ) : null}
        <Group justify="flex-end">
          {busy ? (
            <Button variant="default" onClick={onCancel}>
              {CANCEL_UPLOAD}
            </Button>
          ) : null}
          <Button variant="default" onClick={onClose}>
            {busy || !files.length ? 'Close' : 'Done'}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
