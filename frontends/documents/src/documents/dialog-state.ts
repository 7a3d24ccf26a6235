import type { DocItem } from '../api/documents-api.js';

/** What the convert-and-download dialog downloads: chosen items, or a folder (null: the current one). */
export type DownloadChoice =
  | { kind: 'download'; items: DocItem[] }
  | { kind: 'downloadFolder'; item: DocItem | null };

/** The file manager's one open dialog, with what it acts on. */
export type DialogState =
  | { kind: 'none' }
  | { kind: 'createFolder' }
  | { kind: 'upload' }
  | { kind: 'rename'; item: DocItem }
  | { kind: 'description'; item: DocItem }
  | { kind: 'tags'; item: DocItem }
  | { kind: 'delete'; items: DocItem[] }
  | { kind: 'restore'; items: DocItem[] }
  | { kind: 'move' | 'copy'; items: DocItem[] }
  | DownloadChoice
  | { kind: 'preview'; item: DocItem }
  | { kind: 'dropLink' };
