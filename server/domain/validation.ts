/**
 * Parses untrusted input with a zod schema and turns every problem into a
 * field-level message under `error.details.fields` (422).
 * @module
 */
import type { z } from 'zod';
import { validationError, type FieldErrors } from './errors.ts';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Formats a zod issue as a message that says what to send instead. */
// zod's own wording; anything else was written for this schema and is kept.
const ZOD_DEFAULT = /^(Expected |Required$|Invalid |Number must|String must|Array must)/;

function message(issue: z.ZodIssue, input: unknown): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') {
        const options = issue.expected.includes('|') ? issue.expected.split('|').map((o) => o.trim().replace(/^'|'$/g, '')) : null;
        return options ? `Required. Use one of: ${options.join(', ')}.` : `Required. Send ${article(issue.expected)}.`;
      }
      return `Expected ${article(issue.expected)}, got ${describe(valueAt(input, issue.path))}.`;
    case 'invalid_enum_value':
      return `"${String(issue.received)}" is not allowed. Use one of: ${issue.options.map(String).join(', ')}.`;
    case 'too_small':
      if (issue.type === 'string') return `Too short: at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'}.`;
      if (issue.type === 'array') return `Give at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}.`;
      return `Must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.type === 'string') return `Too long: at most ${issue.maximum} characters.`;
      if (issue.type === 'array') return `Give at most ${issue.maximum} items.`;
      return `Must be at most ${issue.maximum}.`;
    default:
      return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  }
}

function article(expected: string): string {
  if (expected === 'integer') return 'an integer';
  if (expected === 'object' || expected === 'array') return `an ${expected}`;
  return `a ${expected}`;
}

function valueAt(input: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Joins a zod path as `translations.0.title`; the root is `body`. */
export function fieldPath(path: ReadonlyArray<string | number>, root = 'body'): string {
  return path.length === 0 ? root : path.join('.');
}

// A key such as `__proto__` (JSON.parse makes it an own property) would set
// the prototype of a plain object on assignment and vanish from the answer;
// defining it keeps every name as an ordinary, serialisable field.
function setField(fields: FieldErrors, key: string, text: string): void {
  if (Object.hasOwn(fields, key)) return;
  Object.defineProperty(fields, key, { value: text, enumerable: true, writable: true, configurable: true });
}

/**
 * Validates `input` against `schema`.
 * @throws PressroomError VALIDATION_FAILED naming every bad field.
 * @example const body = parseInput(channelCreateSchema, await c.req.json());
 */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown, root = 'body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        setField(fields, fieldPath([...issue.path, key], root), 'Unknown field. Remove it or check its spelling against the API docs.');
      }
      continue;
    }
    const key = fieldPath(issue.path, root);
    setField(fields, key, message(issue, input));
  }
  throw validationError(fields);
}
