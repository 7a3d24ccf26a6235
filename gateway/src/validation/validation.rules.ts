import { AppError } from '@portico/platform';
import type { z } from 'zod';

/** One message per field (the first issue wins), keyed by the field's dotted path. */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Parses input with its schema; a failure is a 400 whose `error` is the first field's message (what the
 * browser shows in its toast) and whose `fields` carry every field's message.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields = issuesToFields(result.error.issues);
  const first = Object.values(fields)[0] ?? 'Invalid input';
  throw new AppError('bad_request', 'invalid_input', first, { fields });
}
