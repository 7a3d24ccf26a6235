/**
 * A link an email carries to a page of the portal (`path`): `query` (nothing secret: the firm's slug) in
 * the query, and the one-time `secret` (`token`, `email_token`) in the fragment, `#token=...`. A browser
 * sends a fragment to no server and puts it in no Referer header, so the secret stays out of the access
 * logs of the edge (Kong logs the request line, the front ends' nginx every request): a mail scanner that
 * fetches the link without running the page's script would otherwise leave a still-valid secret there.
 * The page's script reads it from the fragment (and, for links sent before, from the query).
 */
export function portalLink(
  publicUrl: string,
  path: string,
  secret: Record<string, string>,
  query: Record<string, string> = {},
): string {
  const search = new URLSearchParams(query).toString();
  const fragment = new URLSearchParams(secret).toString();
  return `${publicUrl.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}${fragment ? `#${fragment}` : ''}`;
}

/**
 * A link to the portal's /signin with the one-time `secret` in its fragment (see `portalLink`), naming the
 * user's firm in the query (`?firm=<slug>`) so the page shows that firm's branding where the deployment
 * serves many firms.
 */
export function signInPageLink(publicUrl: string, firmSlug: string, secret: Record<string, string>): string {
  return portalLink(publicUrl, '/signin', secret, firmSlug ? { firm: firmSlug } : {});
}
