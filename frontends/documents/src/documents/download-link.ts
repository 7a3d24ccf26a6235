/** Spec 1 s.9: the temporary download link is removed after 500 ms. */
export const LINK_REMOVAL_MS = 500;

export const DOWNLOAD_MESSAGES = {
  documentDownloadFailed: 'There was a problem downloading the document.',
  noLink: 'No download link found in response',
} as const;

/** Follows a short-lived download link with a temporary anchor, as a click on it would. */
export function clickLink(href: string, fileName?: string) {
  const a = document.createElement('a');
  a.href = href;
  if (fileName) a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  setTimeout(() => a.remove(), LINK_REMOVAL_MS);
}
