import type { DropzoneInputProps } from 'react-dropzone';

/**
 * A dropzone's file input, which a visible control opens (a button, or the page as a drop target):
 * hidden from assistive technology, which has that control. react-dropzone makes it unfocusable too;
 * `tabIndex` says so where the linter sees it.
 */
export function HiddenFileInput({ inputProps, label }: { inputProps: DropzoneInputProps; label: string }) {
  return <input {...inputProps} aria-label={label} aria-hidden="true" tabIndex={-1} />;
}
