import { describe, expect, it } from '@jest/globals';
import { blockedPrefixes, isInBlockedFolder } from '../rules/blocked-folders.js';
import {
  ACCOUNT_READ_ONLY,
  capabilitiesAt,
  capabilitiesFor,
  DISABLED_BY_FIRM,
  ENTITY_READ_ONLY,
  itemActions,
  SYSTEM_FOLDER_RESERVED,
  visibleItems,
} from '../rules/capabilities.js';
import {
  crumbs,
  isNew,
  isStaffOnly,
  joinPath,
  linkedFile,
  parentPath,
  previewKind,
  renamedName,
  splitExtension,
} from '../rules/names.js';
import { bulkActions, FOLDERS_NOT_DOWNLOADABLE } from '../rules/selection.js';
import { readView, saveView, VIEW_COOKIE } from '../rules/view-preference.js';
import { splitFolders } from '../upload/upload.js';
import { anItem } from './fixtures.js';

const advisor = capabilitiesFor({ role: 'advisor', preferences: { document_tags_enabled: true } });
const client = capabilitiesFor({ role: 'client' });

describe('capabilities per role', () => {
  it('gives advisors the advisor-only pieces and clients none of them', () => {
    for (const key of [
      'includeDeleted',
      'copyClientFileUrl',
      'folderDownload',
      'descriptionColumn',
      'tagsColumn',
    ] as const) {
      expect(advisor[key]).toBe(true);
      expect(client[key]).toBe(false);
    }
    // The copy-folder-URL button is the file manager's, for advisors and clients alike (spec 1 s.2.7).
    expect([advisor.copyFolderUrl, client.copyFolderUrl]).toEqual([true, true]);
    expect(advisor.editDescription).toEqual({ visible: true, enabled: true });
    expect(client.editDescription.visible).toBe(false);
    expect(client.restore.visible).toBe(false);
    expect(capabilitiesFor({ role: 'advisor' }).editTags.visible).toBe(false);
    expect(client.upload.enabled && client.createFolder.enabled && client.fileEdit.enabled).toBe(true);
  });

  it('gives the drop link to partners, admins and full users when the firm has it on, and other companies to advisors', () => {
    const on = { drop_link_enabled: true };
    for (const firmAccess of ['partner', 'admin', 'full'])
      expect(capabilitiesFor({ role: 'advisor', firmAccess, preferences: on }).dropLink).toBe(true);
    expect(capabilitiesFor({ role: 'advisor', firmAccess: 'group', preferences: on }).dropLink).toBe(false);
    expect(capabilitiesFor({ role: 'advisor', firmAccess: 'partner' }).dropLink).toBe(false);
    expect(capabilitiesFor({ role: 'client', firmAccess: 'partner', preferences: on }).dropLink).toBe(false);
    expect(advisor.otherCompanies).toBe(true);
    expect(client.otherCompanies).toBe(false);
  });

  it("blocks clients' folder and file actions by firm preference with 'Disabled by firm', never staff", () => {
    const prefs = { disable_folder_action: true, disable_file_edit_action: true };
    const c = capabilitiesFor({ role: 'client', preferences: prefs });
    expect(c.createFolder).toEqual({ visible: true, enabled: false, reason: DISABLED_BY_FIRM });
    expect(c.folderEdit.reason).toBe(DISABLED_BY_FIRM);
    expect(c.fileEdit.reason).toBe(DISABLED_BY_FIRM);
    expect(c.upload.enabled).toBe(true);
    const a = capabilitiesFor({ role: 'advisor', preferences: prefs });
    expect(a.folderEdit.enabled && a.fileEdit.enabled && a.createFolder.enabled).toBe(true);
    const onlyFiles = capabilitiesFor({ role: 'client', preferences: { disable_file_edit_action: true } });
    expect(onlyFiles.folderEdit.enabled).toBe(true);
    expect(itemActions(onlyFiles, anItem()).rename.reason).toBe(DISABLED_BY_FIRM);
    expect(itemActions(onlyFiles, anItem({ type: 'folder', name: 'A' })).rename.enabled).toBe(true);
  });

  it("holds clients' folder uploads with disable_folder_action, as it holds Add Folder", () => {
    const prefs = { disable_folder_action: true };
    expect(capabilitiesFor({ role: 'client', preferences: prefs }).folderUpload).toEqual({
      visible: true,
      enabled: false,
      reason: DISABLED_BY_FIRM,
    });
    expect(capabilitiesFor({ role: 'client' }).folderUpload.enabled).toBe(true);
    expect(capabilitiesFor({ role: 'advisor', preferences: prefs }).folderUpload.enabled).toBe(true);
    const file = (name: string) => new File(['x'], name);
    const plain = { file: file('w2.pdf'), dir: '' };
    const nested = { file: file('a.pdf'), dir: 'Receipts/May' };
    expect(splitFolders([plain, nested])).toEqual({ files: [plain], inFolders: [nested] });
  });

  it('reads the folders a company blocks for clients as the service does: prefixes and {year} over 2000 to 2034', () => {
    const prefixes = blockedPrefixes(['/{year}/Final', 'Locked/']);
    expect(isInBlockedFolder('/Locked', prefixes)).toBe(true);
    expect(isInBlockedFolder('/locked/inner/x.pdf', prefixes)).toBe(true);
    expect(isInBlockedFolder('/Lockedness', prefixes)).toBe(false);
    expect(isInBlockedFolder('/2000/Final', prefixes)).toBe(true);
    expect(isInBlockedFolder('/2034/Final/a.pdf', prefixes)).toBe(true);
    expect(isInBlockedFolder('/1999/Final', prefixes)).toBe(false);
    expect(isInBlockedFolder('/2035/Final', prefixes)).toBe(false);
    expect(isInBlockedFolder('/2024', prefixes)).toBe(false);
    // '/' is every folder, the root included; an empty entry is none.
    for (const path of ['/', '/Any/Where'])
      expect(isInBlockedFolder(path, blockedPrefixes([' / ']))).toBe(true);
    expect(isInBlockedFolder('/Any', blockedPrefixes(['', '  ']))).toBe(false);
  });

  it("disables a client's changes inside the company's blocked folders with 'Disabled by firm', never staff's", () => {
    const blockedFolders = ['/{year}/Final'];
    const c = capabilitiesFor({ role: 'client', blockedFolders });
    const inFinal = capabilitiesAt(c, '/2024/Final');
    for (const verdict of [inFinal.upload, inFinal.createFolder, inFinal.folderEdit, inFinal.fileEdit]) {
      expect(verdict).toEqual({ visible: true, enabled: false, reason: DISABLED_BY_FIRM });
    }
    expect(capabilitiesAt(c, '/2024').upload.enabled).toBe(true);
    // Row actions follow each item's own path: the blocked folder itself, and what is inside it.
    expect(itemActions(c, anItem({ type: 'folder', name: 'Final', path: '/2024' })).delete.reason).toBe(
      DISABLED_BY_FIRM,
    );
    expect(itemActions(c, anItem({ path: '/2024/Final' })).rename.reason).toBe(DISABLED_BY_FIRM);
    expect(itemActions(c, anItem({ path: '/2024' })).rename.enabled).toBe(true);
    const inside = anItem({ path: '/2024/Final' });
    expect(bulkActions(c, [anItem({ path: '/2024' }), inside]).reasons.delete).toBe(DISABLED_BY_FIRM);
    const staff = capabilitiesFor({ role: 'advisor', blockedFolders });
    expect(capabilitiesAt(staff, '/2024/Final').upload.enabled).toBe(true);
    const readOnly = capabilitiesFor({ role: 'client', blockedFolders, userReadOnly: true });
    expect(capabilitiesAt(readOnly, '/2024/Final').upload.reason).toBe(ACCOUNT_READ_ONLY);
  });

  it('refuses uploads and new folders in the system folder, as the service does, and nothing else there', () => {
    const reserved = { visible: true, enabled: false, reason: SYSTEM_FOLDER_RESERVED };
    for (const path of ['/_portico', '/_portico/Signature Requests', '/_PORTICO/Tax Return Delivery/2024']) {
      for (const caps of [advisor, client]) {
        const here = capabilitiesAt(caps, path);
        expect([here.upload, here.folderUpload, here.createFolder]).toEqual([reserved, reserved, reserved]);
        // A file filed there can still be renamed, moved, copied or deleted.
        expect(here.fileEdit.enabled).toBe(true);
      }
    }
    expect(capabilitiesAt(advisor, '/_portico archive').upload.enabled).toBe(true);
    const readOnly = capabilitiesFor({ role: 'client', userReadOnly: true });
    expect(capabilitiesAt(readOnly, '/_portico').upload.reason).toBe(ACCOUNT_READ_ONLY);
  });

  it('makes read-only users, read-only and inactive entities change nothing', () => {
    expect(capabilitiesFor({ role: 'client', userReadOnly: true }).upload.reason).toBe(ACCOUNT_READ_ONLY);
    expect(capabilitiesFor({ role: 'advisor', entityReadOnly: true }).fileEdit.reason).toBe(ENTITY_READ_ONLY);
    expect(capabilitiesFor({ role: 'advisor', entityInactive: true }).upload.enabled).toBe(false);
  });

  it('never lets the system folder be deleted, renamed or moved, and offers restore only on deleted items', () => {
    const system = itemActions(advisor, anItem({ type: 'folder', name: '_portico', is_system: true }));
    expect(system.delete.enabled || system.rename.enabled || system.move.enabled).toBe(false);
    const gone = itemActions(advisor, anItem({ deleted_at: '2024-01-01T00:00:00Z' }));
    expect(gone.restore.enabled).toBe(true);
    expect(gone.rename.visible || gone.download.visible).toBe(false);
    expect(itemActions(client, anItem({ deleted_at: '2024-01-01T00:00:00Z' })).restore.visible).toBe(false);
    expect(itemActions(client, anItem({ type: 'folder', name: 'X' })).download.visible).toBe(false);
    expect(itemActions(advisor, anItem({ type: 'folder', name: 'X' })).copyUrl.visible).toBe(true);
  });

  it("offers an advisor the client's link to a file the client can see, and only that", () => {
    expect(itemActions(advisor, anItem()).copyClientUrl.enabled).toBe(true);
    expect(itemActions(advisor, anItem({ staff_only: true })).copyClientUrl.visible).toBe(false);
    expect(itemActions(advisor, anItem({ type: 'folder', name: 'X' })).copyClientUrl.visible).toBe(false);
    expect(itemActions(advisor, anItem({ deleted_at: '2024-01-01T00:00:00Z' })).copyClientUrl.visible).toBe(
      false,
    );
    expect(itemActions(client, anItem()).copyClientUrl.visible).toBe(false);
  });

  it('hides STAFF ONLY folders from clients only', () => {
    const staff = anItem({ type: 'folder', name: 'Tax Returns and Tax Organizers (STAFF ONLY)' });
    const plain = anItem({ type: 'folder', name: '2024' });
    expect(isStaffOnly(staff)).toBe(true);
    expect(visibleItems(client, [staff, plain])).toEqual([plain]);
    expect(visibleItems(advisor, [staff, plain])).toHaveLength(2);
  });
});

describe('bulk actions', () => {
  const live = anItem();
  const live2 = anItem();
  const gone = anItem({ deleted_at: '2024-01-01T00:00:00Z' });
  const folder = anItem({ type: 'folder', name: 'F' });

  it('offers nothing on a mix of deleted and live items', () => {
    const mix = bulkActions(advisor, [live, gone]);
    expect(mix.mixed).toBe(true);
    expect(mix.download || mix.move || mix.copy || mix.delete || mix.restore).toBe(false);
  });

  it('offers restore on deleted items (advisors) and the edit actions on live ones', () => {
    expect(bulkActions(advisor, [gone]).restore).toBe(true);
    expect(bulkActions(client, [gone]).restore).toBe(false);
    const files = bulkActions(advisor, [live, live2]);
    expect(files).toMatchObject({
      mixed: false,
      download: true,
      move: true,
      copy: true,
      delete: true,
      restore: false,
    });
  });

  it('refuses folders in a bulk download and explains why', () => {
    const withFolder = bulkActions(advisor, [live, folder]);
    expect(withFolder.download).toBe(false);
    expect(withFolder.reasons.download).toBe(FOLDERS_NOT_DOWNLOADABLE);
    const blocked = bulkActions(
      capabilitiesFor({ role: 'client', preferences: { disable_folder_action: true } }),
      [live, folder],
    );
    expect(blocked.move).toBe(false);
    expect(blocked.reasons.move).toBe(DISABLED_BY_FIRM);
  });
});

describe('rename keeps the extension', () => {
  it('splits the extension off files only', () => {
    expect(splitExtension('2024 W-2.final.pdf')).toEqual({ base: '2024 W-2.final', ext: '.pdf' });
    expect(splitExtension('.env')).toEqual({ base: '.env', ext: '' });
    expect(splitExtension('Receipts.2024', true)).toEqual({ base: 'Receipts.2024', ext: '' });
  });

  it('adds the old extension back and needs a non-empty name', () => {
    expect(renamedName('scan.PDF', 'W-2 2024')).toEqual({ name: 'W-2 2024.PDF' });
    expect(renamedName('scan.pdf', '  notes.pdf ')).toEqual({ name: 'notes.pdf' });
    expect(renamedName('scan.pdf', '   ')).toEqual({ error: 'Name is required' });
    expect(renamedName('Old', 'New.v2', true)).toEqual({ name: 'New.v2' });
  });
});

describe('names and paths', () => {
  it('joins and splits paths and builds breadcrumbs from All Files', () => {
    expect(joinPath('/', 'a')).toBe('/a');
    expect(joinPath('/a/', 'b')).toBe('/a/b');
    expect(parentPath('/a/b')).toBe('/a');
    expect(parentPath('/a')).toBe('/');
    expect(crumbs('/2024/Receipts').map((c) => c.path)).toEqual(['/', '/2024', '/2024/Receipts']);
    expect(crumbs('/')[0]?.name).toBe('All Files');
  });

  it('reads the file a documents link names: a path in file, or a name in path', () => {
    const q = (query: string) => linkedFile(new URLSearchParams(query));
    expect(q('path=/2024')).toBeNull();
    expect(q('file=')).toBeNull();
    expect(q('file=/2024/Receipts/W-2.pdf')).toEqual({ folder: '/2024/Receipts', name: 'W-2.pdf' });
    expect(q('path=/Other&file=2024/W-2.pdf')).toEqual({ folder: '/2024', name: 'W-2.pdf' });
    expect(q('file=/W-2.pdf')).toEqual({ folder: '/', name: 'W-2.pdf' });
    expect(q('path=/2024&file=W-2.pdf')).toEqual({ folder: '/2024', name: 'W-2.pdf' });
    expect(q('path=/2024&previewName=W-2.pdf')).toEqual({ folder: '/2024', name: 'W-2.pdf' });
    expect(q('previewName=W-2.pdf')).toEqual({ folder: '/', name: 'W-2.pdf' });
  });

  it('badges recent items as New and picks the previewer by extension', () => {
    const now = Date.parse('2024-05-10T00:00:00Z');
    expect(isNew({ created_at: '2024-05-09T00:00:00Z', deleted_at: '' }, now)).toBe(true);
    expect(isNew({ created_at: '2024-04-01T00:00:00Z', deleted_at: '' }, now)).toBe(false);
    expect(isNew({ created_at: '2024-05-09T00:00:00Z', deleted_at: '2024-05-09T00:00:00Z' }, now)).toBe(
      false,
    );
    expect(['a.pdf', 'b.JPG', 'c.heic', 'd.xlsx', 'e.docx'].map(previewKind)).toEqual([
      'pdf',
      'image',
      'heic',
      'sheet',
      'none',
    ]);
  });
});

describe('view preference cookie', () => {
  it('defaults to list and remembers grid for a year', () => {
    // biome-ignore lint/suspicious/noDocumentCookie: clearing the test cookie
    document.cookie = `${VIEW_COOKIE}=; max-age=0; path=/`;
    expect(readView()).toBe('list');
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor?.get?.call(document),
      set: (v: string) => {
        writes.push(v);
        descriptor?.set?.call(document, v);
      },
    });
    try {
      saveView('grid');
    } finally {
      delete (document as { cookie?: string }).cookie;
    }
    expect(writes[0]).toContain(`${VIEW_COOKIE}=grid`);
    expect(writes[0]).toContain('max-age=31536000');
    expect(readView()).toBe('grid');
    saveView('list');
    expect(readView()).toBe('list');
  });
});
