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

/** What makes parsed JSON unfit to forward: nesting deeper than allowed, or a number JSON cannot write. */
export type JsonFault = 'too_deep' | 'not_finite';

/**
 * The first fault of parsed JSON, or undefined: nesting deeper than `maxDepth` arrays or objects, or a
 * number that is not finite (JSON.parse reads 1e400 as Infinity, which no message can carry on to a
 * service). Iterative, so a body of thousands of nested brackets (which JSON.parse takes) cannot exhaust
 * the stack of a recursive check after it.
 */
export function jsonFault(value: unknown, maxDepth: number): JsonFault | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'number' && !Number.isFinite(next.value)) return 'not_finite';
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= maxDepth) return 'too_deep';
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return undefined;
}
