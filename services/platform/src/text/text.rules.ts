const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID as PostgreSQL's uuid columns take it; anything else there is a 22P02 error. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** The answer to text holding a control character, wherever it is refused. */
export const CONTROL_CHARACTERS_MESSAGE = 'Must not contain control characters';

/**
 * Whether text holds a C0 control character (NUL among them, which PostgreSQL refuses in text) or DEL.
 * `typed` text (a note, a description) may keep tabs and line breaks; names, paths and ids may not.
 */
export function hasControlCharacters(value: string, { typed = false } = {}): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const whitespace = code === 0x09 || code === 0x0a || code === 0x0d;
    if ((code < 0x20 || code === 0x7f) && !(typed && whitespace)) return true;
  }
  return false;
}

/**
 * Characters that hide in a name: C1 controls, zero-width spaces and word joiners, the byte-order mark,
 * and the bidirectional marks, overrides and isolates (U+202E turns the rest of a name around). A name
 * of nothing else looks blank, and one with them looks the same as another. The zero-width joiner and
 * non-joiner stay: scripts and emoji need them.
 */
const HIDDEN = /[\u0080-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

export const hasHiddenCharacters = (value: string): boolean => HIDDEN.test(value);
