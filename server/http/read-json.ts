/**
 * Reads a JSON request body and validates it, with clear 4xx errors for a
 * wrong content type, malformed JSON or invalid fields.
 * @module
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { PressroomError, validationError } from '../domain/errors.ts';
import { fieldPath, parseInput } from '../domain/validation.ts';

// Invalid bytes throw instead of becoming U+FFFD, which would store text the client never sent.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// With the u flag, only a surrogate without its pair matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * The path of the first key or string holding a lone surrogate (`"\uD800"`
 * escapes are valid JSON but not Unicode text: SQLite and every output would
 * turn them into U+FFFD). Iterative, so any nesting JSON.parse accepted is safe.
 */
export function findLoneSurrogate(value: unknown): Array<string | number> | null {
  // Each entry links to its parent, so a path is built only when one is found (deep input stays linear).
  interface Entry { value: unknown; key: string | number | null; parent: Entry | null }
  const pathOf = (entry: Entry | null): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let e = entry; e && e.key !== null; e = e.parent) path.unshift(e.key);
    return path;
  };
  const stack: Entry[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return pathOf(entry);
    } else if (current !== null && typeof current === 'object') {
      const array = Array.isArray(current);
      for (const [key, child] of Object.entries(current)) {
        const childEntry: Entry = { value: child, key: array ? Number(key) : key, parent: entry };
        if (LONE_SURROGATE.test(key)) return pathOf(childEntry);
        stack.push(childEntry);
      }
    }
  }
  return null;
}

/**
 * Parses the body of `c` with `schema`.
 * @throws PressroomError UNSUPPORTED_MEDIA_TYPE, MALFORMED_JSON or VALIDATION_FAILED.
 */
export async function readJson<S extends z.ZodTypeAny>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new PressroomError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be JSON, but Content-Type is ${type ? `"${type}"` : 'missing'}. Send "Content-Type: application/json".`,
    );
  }
  let text: string;
  try {
    text = UTF8.decode(await c.req.arrayBuffer());
  } catch {
    throw new PressroomError('MALFORMED_JSON', 'The request body is not valid UTF-8. Send JSON encoded as UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? ` (${error.message})` : '';
    throw new PressroomError('MALFORMED_JSON', `The request body is not valid JSON${detail}. Check quotes, commas and brackets.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PressroomError('VALIDATION_FAILED', 'The request body must be a JSON object.', {
      fields: { body: 'Expected a JSON object with the fields described in the API docs.' },
    });
  }
  const surrogate = findLoneSurrogate(value);
  if (surrogate) {
    throw validationError({
      [fieldPath(surrogate)]: 'Contains a lone UTF-16 surrogate (a \\uD800–\\uDFFF escape without its pair), which is not a character. Send the character itself or a complete surrogate pair.',
    });
  }
  return parseInput(schema, value);
}

/** Validates the query string of `c` with `schema` (field names are the parameter names). */
export function readQuery<S extends z.ZodTypeAny>(c: Context, schema: S): z.output<S> {
  return parseInput(schema, c.req.query(), 'query');
}
