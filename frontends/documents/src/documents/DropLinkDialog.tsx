import { Dialog } from '@portico/kit';
import type { DocumentsApi } from '../api/documents-api.js';
import { DropLinkPanel } from '../drop-link/DropLinkPanel.js';

/** The Drop Link dialog of the file manager: the drop link's settings, as on /drop-link-settings. */
export function DropLinkDialog({ api, onClose }: { api: DocumentsApi; onClose: () => void }) {
  return (
    <Dialog opened onClose={onClose} title="Drop Link" size="wide">
      <DropLinkPanel api={api} onClose={onClose} />
    </Dialog>
  );
}
