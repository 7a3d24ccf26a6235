import type { Entity } from '@portico/kit';
import type { DocumentsApi } from '../api/documents-api.js';
import { PreviewDialog } from '../preview/PreviewDialog.js';
import type { Capabilities, Verdict } from '../rules/capabilities.js';
import { UploadDialog } from '../upload/UploadDialog.js';
import type { UploadEntry } from '../upload/upload.js';
import type { useUploads } from '../upload/useUploads.js';
import { DropLinkDialog } from './DropLinkDialog.js';
import type { DialogState } from './dialog-state.js';
import {
  ConvertDownloadDialog,
  CreateFolderDialog,
  DeleteDialog,
  DescriptionDialog,
  MoveCopyDialog,
  RenameDialog,
  RestoreDialog,
  TagsDialog,
} from './dialogs.js';
import { MESSAGES } from './file-manager.messages.js';
import type { DocumentCommands } from './useDocumentCommands.js';

interface FileManagerDialogsProps {
  dialog: DialogState;
  onClose: () => void;
  commands: DocumentCommands;
  api: DocumentsApi;
  company: Entity;
  caps: Capabilities;
  firmTags: string[];
  uploads: ReturnType<typeof useUploads>;
  /** Uploads into the current folder (the file manager decides what a folder may take). */
  onUpload: (entries: UploadEntry[]) => void;
  folderUpload: Verdict;
}

/** The file manager's open dialog, if any, wired to the command it confirms. */
export function FileManagerDialogs({
  dialog,
  onClose,
  commands,
  api,
  company,
  caps,
  firmTags,
  uploads,
  onUpload,
  folderUpload,
}: FileManagerDialogsProps) {
  switch (dialog.kind) {
    case 'none':
      return null;
    case 'createFolder':
      return <CreateFolderDialog onClose={onClose} onCreate={commands.createFolder} />;
    case 'upload':
      return (
        <UploadDialog
          files={uploads.files}
          busy={uploads.busy}
          onClose={() => {
            onClose();
            uploads.clear();
          }}
          onFiles={onUpload}
          onCancel={uploads.cancel}
          onRetryFailed={uploads.retryFailed}
          folderUpload={folderUpload}
        />
      );
    case 'rename':
      return (
        <RenameDialog
          item={dialog.item}
          onClose={onClose}
          onRename={(newName) => commands.rename(dialog.item, newName)}
        />
      );
    case 'description':
      return (
        <DescriptionDialog
          item={dialog.item}
          onClose={onClose}
          onSave={(description) => commands.saveItem(dialog.item, { description }, MESSAGES.updateFailed)}
        />
      );
    case 'tags':
      return (
        <TagsDialog
          item={dialog.item}
          firmTags={firmTags}
          onClose={onClose}
          onSave={(tags) => commands.saveItem(dialog.item, { tags }, MESSAGES.tagsFailed)}
        />
      );
    case 'delete':
      return (
        <DeleteDialog
          items={dialog.items}
          progress={commands.bulkProgress}
          onClose={onClose}
          onConfirm={() => commands.deleteItems(dialog.items)}
        />
      );
    case 'restore':
      return (
        <RestoreDialog
          items={dialog.items}
          progress={commands.bulkProgress}
          onClose={onClose}
          onConfirm={() => commands.restoreItems(dialog.items)}
        />
      );
    case 'move':
    case 'copy':
      return (
        <MoveCopyDialog
          mode={dialog.kind}
          items={dialog.items}
          progress={commands.bulkProgress}
          api={api}
          company={company}
          caps={caps}
          onClose={onClose}
          onConfirm={(to) => commands.moveOrCopy(dialog.items, dialog.kind === 'move', to)}
        />
      );
    case 'download':
    case 'downloadFolder':
      return (
        <ConvertDownloadDialog
          onClose={onClose}
          onDownload={(convert) => commands.downloadChoice(dialog, convert)}
        />
      );
    case 'dropLink':
      return <DropLinkDialog api={api} onClose={onClose} />;
    case 'preview':
      return (
        <PreviewDialog
          item={dialog.item}
          api={api}
          companyId={company.id}
          onClose={onClose}
          onDownload={commands.download}
        />
      );
  }
}
