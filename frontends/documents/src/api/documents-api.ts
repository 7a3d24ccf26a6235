import type { ApiClient } from '@portico/kit';
import { apiFolder } from '../rules/names.js';

/** A file or folder of a company's tree, as the gateway returns it (spec 1 s.3, Document item). */
export interface DocItem {
  id: string;
  name: string;
  type: 'file' | 'folder' | string;
  /** The item's full path, e.g. /2024/Receipts/scan.pdf. */
  link: string;
  description: string;
  tags: string[];
  created_at: string;
  updated_at: string;
  deleted_at: string;
  questionnaire_id: string;
  extracted_document_id: string;
  parent_document_id: string;
  items_count: number;
  company_id: string;
  size: string;
  content_type: string;
  is_protected: boolean;
  staff_only: boolean;
  is_system: boolean;
  /** The folder the item is in. */
  path: string;
  /** HEIC previews: none, pending, ready or failed. */
  preview_status: string;
  upload_type: string;
}

export interface DocList {
  documents: DocItem[];
  path: string;
  count: number;
  /** A search: more items match than it answers. */
  more_matches?: boolean;
}

/**
 * get_documents with lean: the items without link, path and company_id (the listing's, given once)
 * and without the fields at their default; `expandLean` fills them back.
 */
export interface LeanDocList {
  documents: (Partial<DocItem> & Pick<DocItem, 'id' | 'name' | 'type' | 'created_at'>)[];
  path: string;
  count: number;
  company_id?: string;
}

/** The full Document items of a lean listing (an item that already has every field stays as it is). */
export function expandLean(list: LeanDocList, companyId: string): DocList {
  const path = list.path || '/';
  const folder = apiFolder(path);
  const company = list.company_id || companyId;
  return {
    path,
    count: list.count,
    documents: list.documents.map((item) => ({
      description: '',
      tags: [],
      updated_at: item.created_at,
      deleted_at: '',
      questionnaire_id: '',
      extracted_document_id: '',
      parent_document_id: '',
      items_count: 0,
      size: '0',
      content_type: '',
      is_protected: false,
      staff_only: false,
      is_system: false,
      preview_status: 'none',
      upload_type: '',
      link: `${folder}/${item.name}`,
      path,
      company_id: company,
      ...item,
    })),
  };
}

export interface ItemResponse {
  document: DocItem;
  message?: string;
}

export interface LinkData {
  link: string;
  file_name: string;
  expires_at: string;
  preview_status?: string;
}

export interface LinkResponse {
  document: { data: LinkData };
}

export interface UploadLink {
  upload_id: string;
  file_name: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  expires_at: string;
  /** How long the link stays valid from the answer (older services leave it out). */
  expires_in_seconds?: number;
}

export interface ProcessedFile {
  upload_id: string;
  document_name: string;
  document_location: string;
  is_duplicate: boolean;
  invalid: boolean;
  is_protected: boolean;
  message: string;
}

export interface ProcessResponse {
  files: ProcessedFile[];
  message: string;
  invalid_files: string[];
  document_location: string;
  is_duplicate: boolean;
}

/** A firm user who can be chosen to receive drop-off notifications. */
export interface DropLinkUser {
  id: string;
  full_name: string;
  email: string;
}

/** The firm drop link (GET and POST /integrations/drop_link). */
export interface DropLink {
  id: string;
  firm_name: string;
  notify_user_ids: string[];
  enabled: boolean;
  firm_users: DropLinkUser[];
  /** The firm's public slug (its secure upload page). */
  firm_slug: string;
}

/** The public drop-off page's firm: its name, public branding, and whether it shows Sign in. */
export interface DropLinkInfo {
  firm_name: string;
  firm_slug: string;
  logo_url: string;
  primary: string;
  hide_sign_in_button: boolean;
  /** The drop link to upload through (the answer to /secure-upload, which has no id of its own). */
  drop_link_id: string;
}

/** A file left through the firm drop link. */
export interface DropOffPage {
  drop_offs: DropOff[];
  /** Empty after the last page. */
  next_page: string;
}

export interface DropOff {
  id: string;
  name: string;
  /** Bytes, as a string (int64). */
  size: string;
  uploader_name: string;
  uploader_email: string;
  note: string;
  created_at: string;
}

/** Who drops the files off, as the public page asks (the service requires the email). */
export interface Uploader {
  uploaderName: string;
  uploaderEmail: string;
  note: string;
}

export type DropOffProcessResponse = Pick<ProcessResponse, 'files' | 'message' | 'invalid_files'>;

/** The documents calls of spec 1 s.7.6 through the gateway. */
export const documentsApi = (api: ApiClient) => ({
  /** A folder's items, asked in the lean shape (a fraction of the bytes for large folders) and filled back. */
  list: async (companyId: string, path: string, showWithDeleted = false): Promise<DocList> =>
    expandLean(
      await api.post<LeanDocList>('/integrations/get_documents', {
        companyId,
        path,
        showWithDeleted,
        lean: true,
      }),
      companyId,
    ),
  search: (companyId: string, searchTerm: string, showWithDeleted = false) =>
    api.post<DocList>('/integrations/search_documents', { companyId, searchTerm, showWithDeleted }),
  createFolder: (companyId: string, path: string, name: string) =>
    api.post<ItemResponse>('/integrations/create_folder', { companyId, path, name }),
  rename: (companyId: string, path: string, itemName: string, newName: string) =>
    api.post<ItemResponse>('/integrations/rename_item', { companyId, path, itemName, newName }),
  move: (p: {
    companyId: string;
    oldPath: string;
    newPath: string;
    deleteOldPath: boolean;
    isFolder: boolean;
    newCompanyId?: string;
  }) => api.post<ItemResponse>('/integrations/move_item', p),
  update: (companyId: string, link: string, changes: { description?: string; tags?: string[] }) =>
    api.post<ItemResponse>('/integrations/update_document', { companyId, link, ...changes }),
  downloadLink: (companyId: string, link: string, isDownload: boolean) =>
    api.post<LinkResponse>('/integrations/download_document', { companyId, link, isDownload }),
  /** `progressId` names the zip for the progress the gateway sends over the realtime socket (`onProgress`). */
  downloadFolder: (companyId: string, path: string, convertImagesToPdf = false, progressId?: string) =>
    api.post<LinkResponse>('/integrations/download_folder', {
      companyId,
      path,
      convertImagesToPdf,
      progressId,
    }),
  downloadMultiple: (companyId: string, links: string[], convertImagesToPdf = false, progressId?: string) =>
    api.post<LinkResponse>('/integrations/download_multiple_documents', {
      companyId,
      links,
      convertImagesToPdf,
      progressId,
    }),
  deleteDocument: (companyId: string, path: string, documentName: string, isFolder: boolean) =>
    api.post<{ message: string }>('/integrations/delete_document', {
      companyId,
      path,
      documentName,
      isFolder,
    }),
  deletePath: (companyId: string, path: string) =>
    api.post<{ message: string }>('/integrations/delete_path', { companyId, path }),
  restore: (companyId: string, path: string, id?: string) =>
    api.post<ItemResponse>('/integrations/restore_deleted_document', { companyId, path, id }),
  uploadLinks: (
    companyId: string,
    path: string,
    files: { name: string; size: number; contentType: string }[],
  ) => api.post<{ links: UploadLink[] }>('/integrations/upload_links', { companyId, path, files }),
  process: (companyId: string, path: string, uploadIds: string[]) =>
    api.post<ProcessResponse>('/integrations/process_document', { companyId, path, uploadIds }),
  dropLink: () => api.get<DropLink>('/integrations/drop_link'),
  saveDropLink: (notifyUserIds: string[]) => api.post<DropLink>('/integrations/drop_link', { notifyUserIds }),
  /** A page of received files, newest first; `page` is the `next_page` of the page before. */
  dropOffs: (page = '') =>
    api.get<DropOffPage>(`/integrations/drop_offs${page ? `?page=${encodeURIComponent(page)}` : ''}`),
  deleteDropOffs: (ids: string[]) =>
    api.post<{ deleted: number; message: string }>('/integrations/drop_offs/delete', { ids }),
  dropOffDownload: (id: string) =>
    api.get<LinkResponse>(`/integrations/drop_offs/${encodeURIComponent(id)}/download`),
  // The public drop-off page: no session, the drop link id is the only key.
  dropLinkInfo: (dropLinkId: string) =>
    api.get<DropLinkInfo>(`/integrations/drop_link/${encodeURIComponent(dropLinkId)}`, { auth: false }),
  secureUploadInfo: (firmSlug: string) =>
    api.get<DropLinkInfo>(`/integrations/secure_upload/${encodeURIComponent(firmSlug)}`, { auth: false }),
  /**
   * Links for new `files`, and links signed again for uploads handed out before (`renewUploadIds`, whose
   * links a long drop-off outlives: the same uploads, nothing more counted against the firm's day). The
   * renewed links come first, in that order, then one per file.
   */
  dropOffLinks: (
    dropLinkId: string,
    files: { name: string; size: number; contentType: string }[],
    renewUploadIds: string[] = [],
  ) =>
    api.post<{ links: UploadLink[] }>(
      `/integrations/drop_link/${encodeURIComponent(dropLinkId)}/upload_links`,
      renewUploadIds.length ? { files, renewUploadIds } : { files },
      { auth: false },
    ),
  processDropOff: (dropLinkId: string, uploadIds: string[], uploader: Uploader) =>
    api.post<DropOffProcessResponse>(
      `/integrations/drop_link/${encodeURIComponent(dropLinkId)}/process`,
      { uploadIds, ...uploader },
      { auth: false },
    ),
});

export type DocumentsApi = ReturnType<typeof documentsApi>;
