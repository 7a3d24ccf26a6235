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

/**
 * Whether parsed JSON nests no deeper than `max` arrays or objects. Iterative, so a body of thousands
 * of nested brackets (which JSON.parse takes) cannot exhaust the stack of a recursive check after it.
 */
export function nestsAtMost(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return false;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return true;
}
