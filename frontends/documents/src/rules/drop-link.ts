/** The drop link's messages (spec 1 s.5.4 and s.8). */
export const DROP_LINK_MESSAGES = {
  selectUser: 'Please select at least one user to receive notifications',
  copied: 'Drop link copied to clipboard',
  saved: 'Saved!',
  saveFailed: 'Failed to update',
  unsaved: 'Save your changes before copying the link.',
  off: 'The drop link is turned off for this firm.',
} as const;

/** The public drop-off page of a firm (spec 1 s.2.1: /drop-link with the query id). */
export function dropLinkUrl(origin: string, id: string): string {
  const url = new URL('/drop-link', origin);
  url.searchParams.set('id', id);
  return url.toString();
}

/** Whether two choices of users differ, whatever their order. */
export function choiceChanged(saved: string[], chosen: string[]): boolean {
  const a = new Set(saved);
  return a.size !== new Set(chosen).size || chosen.some((id) => !a.has(id));
}
