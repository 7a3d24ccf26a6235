import { EMAIL_PATTERN } from '@portico/kit';

/** The drop link's messages (spec 1 s.5.4 and s.8). */
export const DROP_LINK_MESSAGES = {
  selectUser: 'Please select at least one user to receive notifications',
  /** Copy of the drop link; */
  copied: 'Drop link copied to clipboard',
  /** of the secure upload page's address. */
  pageCopied: 'Link copied to clipboard',
  saved: 'Saved!',
  saveFailed: 'Failed to update',
  unsaved: 'Save your changes before copying the link.',
  off: 'The drop link is turned off for this firm.',
} as const;

/** The public drop-off page's own texts; the upload outcomes use the upload messages of spec 1 s.8. */
export const DROP_OFF_MESSAGES = {
  nameRequired: 'Please enter your name',
  nameCharacters: 'Your name contains characters that are not allowed',
  nameAddress: 'Your name cannot contain a web address',
  emailInvalid: 'Please enter a valid email',
  noteCharacters: 'The note contains characters that are not allowed',
  filesRequired: 'Please choose at least one file',
  missingLink: 'This drop link is incomplete. Please ask the firm for the full link.',
  missingFirm: 'This page does not know which firm to upload to. Please ask the firm for its link.',
} as const;

export { EMAIL_PATTERN };

/**
 * C0 controls and DEL (by code: a lint rule keeps them out of patterns); typed text (a message) may keep
 * tabs and line breaks. Then what hides or reorders text.
 */
const hasControl = (value: string, typed = false) =>
  [...value].some((c) => {
    if (typed && (c === '\t' || c === '\n' || c === '\r')) return false;
    return (c.codePointAt(0) ?? 0) < 0x20 || c === '\u007f';
  });
const HIDDEN = /[\u0080-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
const WEB_ADDRESS = /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i;

/**
 * What the documents service refuses in an uploader's name (it goes into the firm's email), checked here
 * too so that no file is sent before the name is: control characters, characters that hide or reorder
 * text, and web addresses.
 */
export function uploaderNameProblem(name: string): string | undefined {
  if (!name.trim()) return DROP_OFF_MESSAGES.nameRequired;
  if (hasControl(name) || HIDDEN.test(name)) return DROP_OFF_MESSAGES.nameCharacters;
  if (WEB_ADDRESS.test(name)) return DROP_OFF_MESSAGES.nameAddress;
  return undefined;
}

/**
 * What the documents service refuses in the visitor's message (it goes into the firm's email): control
 * characters other than tabs and line breaks. Checked before any file is sent.
 */
export function noteProblem(note: string): string | undefined {
  return hasControl(note, true) ? DROP_OFF_MESSAGES.noteCharacters : undefined;
}

/** The public page of the firm drop link (spec 1 s.2.1). */
export const DROP_LINK_PATH = '/drop-link';
/** The same page for the portal's own firm: a fixed address a firm can print, with no id in it. */
export const SECURE_UPLOAD_PATH = '/secure-upload';

/**
 * The firm's public drop-off page: /drop-link with the query id (spec 1 s.2.1). The page asks the drop
 * link for the firm's branding and Sign in setting, so a link copied once stays right when they change.
 */
export function dropLinkUrl(origin: string, id: string): string {
  const url = new URL(DROP_LINK_PATH, origin);
  url.searchParams.set('id', id);
  return url.toString();
}

/**
 * The firm's secure upload page on this portal: /secure-upload, with ?firm= unless the portal's own firm
 * (its runtime configuration) is that firm.
 */
export function secureUploadUrl(origin: string, firmSlug: string, portalFirmSlug = ''): string {
  const url = new URL(SECURE_UPLOAD_PATH, origin);
  if (firmSlug && firmSlug !== portalFirmSlug) url.searchParams.set('firm', firmSlug);
  return url.toString();
}

/**
 * What the public page reads from its query: the drop link id (/drop-link) or the firm's slug
 * (/secure-upload: ?firm=, else the portal's own firm), and signin=false to hide Sign in.
 */
export function dropOffParams(
  search: URLSearchParams,
  portalFirmSlug = '',
): { id: string; firmSlug: string; signIn: boolean } {
  const signin = (search.get('signin') ?? '').trim().toLowerCase();
  return {
    id: (search.get('id') ?? '').trim(),
    firmSlug: (search.get('firm') ?? '').trim() || portalFirmSlug.trim(),
    signIn: !['false', '0', 'no'].includes(signin),
  };
}

/** Whether two choices of users differ, whatever their order. */
export function choiceChanged(saved: string[], chosen: string[]): boolean {
  const a = new Set(saved);
  return a.size !== new Set(chosen).size || chosen.some((id) => !a.has(id));
}
