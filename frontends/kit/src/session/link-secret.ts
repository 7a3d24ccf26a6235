/**
 * The one-time secret an emailed link carries (`token`, `email_token`). New links put it in the address's
 * fragment (`#token=...`): a browser sends a fragment to no server and puts it in no Referer header, so
 * the secret stays out of the edge's access logs (Kong, the front ends' nginx) where a mail scanner that
 * fetches the link without running this script would otherwise leave it still valid. Links sent before
 * carry it in the query (`?token=...`), and still work. The fragment is read first.
 *
 * `search` and `hash` are the address's (`?...`, `#...`, or empty); the answer says them without the
 * secret, every other part kept as it was, for the page to take the secret out of its address.
 */
export function takeLinkSecret(
  name: string,
  address: { search: string; hash: string },
): { secret: string | null; search: string; hash: string } {
  const fromHash = without(name, address.hash, '#');
  const fromSearch = without(name, address.search, '?');
  return { secret: fromHash.value ?? fromSearch.value, search: fromSearch.rest, hash: fromHash.rest };
}

/**
 * `hash` (a fragment, `#...` or empty) with `name=secret` added, encoded as `takeLinkSecret` reads it back:
 * for a secret that came in a query (a link sent before) to go on in a fragment instead, out of the
 * addresses the servers see.
 */
export function putLinkSecret(name: string, secret: string, hash: string): string {
  const pair = new URLSearchParams([[name, secret]]).toString();
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  return `#${body ? `${body}&` : ''}${pair}`;
}

/** `part` (a query or fragment) without the `name=` pairs, and the first one's value. */
function without(name: string, part: string, mark: '?' | '#'): { value: string | null; rest: string } {
  const body = part.startsWith(mark) ? part.slice(1) : part;
  let value: string | null = null;
  const kept = body.split('&').filter((pair) => {
    // Decoded as URLSearchParams decodes the query ('+' a space, a bad escape kept as written).
    const [key, found] = [...new URLSearchParams(pair)][0] ?? [];
    if (key !== name) return true;
    value ??= found ?? '';
    return false;
  });
  if (value === null) return { value, rest: part };
  return { value, rest: kept.some(Boolean) ? `${mark}${kept.join('&')}` : '' };
}
