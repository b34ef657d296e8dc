/**
 * Reads a JSON request body and validates it, with clear 4xx errors for a
 * wrong content type, malformed JSON or invalid fields.
 * @module
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { PressroomError } from '../domain/errors.ts';
import { parseInput } from '../domain/validation.ts';

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
  const text = await c.req.text();
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
  return parseInput(schema, value);
}

/** Validates the query string of `c` with `schema` (field names are the parameter names). */
export function readQuery<S extends z.ZodTypeAny>(c: Context, schema: S): z.output<S> {
  return parseInput(schema, c.req.query(), 'query');
}
