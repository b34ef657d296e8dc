/**
 * The documented error body of both APIs, checked strictly for the corpora:
 * `{schema_version: "1.0", error: {code, message, details?}}` and nothing else,
 * with a catalogue code and, for a 422, `details.fields` naming a field.
 * @module
 */
import { ERROR_CATALOGUE } from '../../server/domain/errors.ts';

/** Problems with an error body; empty when it has the documented shape. */
export function errorShapeProblems(status: number, body: unknown): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['the body is not a JSON object'];
  const { schema_version, error, ...rest } = body as Record<string, unknown>;
  if (schema_version !== '1.0') problems.push(`schema_version is ${JSON.stringify(schema_version)}`);
  if (Object.keys(rest).length) problems.push(`extra keys: ${Object.keys(rest).join(', ')}`);
  if (!error || typeof error !== 'object') return [...problems, 'no error object'];
  const { code, message, details, ...more } = error as Record<string, unknown>;
  if (Object.keys(more).length) problems.push(`extra error keys: ${Object.keys(more).join(', ')}`);
  if (typeof code !== 'string' || !(code in ERROR_CATALOGUE)) problems.push(`unknown code ${JSON.stringify(code)}`);
  else if (ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status !== status) problems.push(`code ${code} with status ${status}`);
  if (typeof message !== 'string' || message.trim() === '') problems.push('empty message');
  if (details !== undefined && (!details || typeof details !== 'object' || Array.isArray(details))) problems.push('details is not an object');
  if (code === 'VALIDATION_FAILED') {
    const fields = (details as { fields?: unknown } | undefined)?.fields;
    if (!fields || typeof fields !== 'object' || Object.keys(fields).length === 0) problems.push('a 422 without details.fields naming a field');
  }
  return problems;
}
