/** The SQLSTATE of a PostgreSQL error, also when a query builder wrapped it as the `cause`. */
export function postgresCode(err: unknown): string | undefined {
  for (let current = err, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Another row already holds a unique value (23505). */
export const isUniqueViolation = (err: unknown): boolean => postgresCode(err) === '23505';

/**
 * Text PostgreSQL cannot store: NUL (22021, "invalid byte sequence") or a character the database's
 * encoding lacks (22P05). The caller sent it, so it is their error, not the service's.
 */
export const isUnstorableText = (err: unknown): boolean => {
  const code = postgresCode(err);
  return code === '22021' || code === '22P05';
};
