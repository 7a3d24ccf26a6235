import { isUuid } from '@portico/platform';
import { isPgTimestamp } from '../items/listing.rules.js';
import type { DropOffCursor } from './drop-links.repository.js';

/** The next page of received files as the client sends it back: the last row's time and id, URL-safe. */
export const encodeDropOffPage = (cursor: DropOffCursor) =>
  Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');

/** The cursor of a `next_page`, or undefined when it is not one (it goes into SQL as parameters). */
export function decodeDropOffPage(page: string): DropOffCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(page)) return undefined;
  const [at, id, ...rest] = Buffer.from(page, 'base64url').toString('utf8').split('|');
  if (rest.length || !at || !id || !isUuid(id)) return undefined;
  // PostgreSQL's text of a timestamptz: '2026-11-26 12:25:57.123456+00', naming a real date and time
  // (a 13th month passed the shape and failed the query, a 500).
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at)) return undefined;
  if (!isPgTimestamp(at)) return undefined;
  return { at, id: id.toLowerCase() };
}
