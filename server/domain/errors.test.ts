/**
 * The error catalogue is mirrored in the API docs: the `ErrorCode` schema of
 * each OpenAPI document lists exactly the catalogue's codes. Messages follow
 * the catalogue's rule: say what happened and what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { OPENAPI_FILES, PROJECT_ROOT as ROOT } from '../paths.ts';
import { ERROR_CATALOGUE, PressroomError, validationError, type ErrorCode } from './errors.ts';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The OpenAPI documents that must mirror the catalogue: both, always (a missing one fails the test rather than skipping it). */
const DOCS = [OPENAPI_FILES.publishing, OPENAPI_FILES.public].map((file) => path.relative(ROOT, file));

interface ErrorCodeSchema {
  enum?: unknown[];
  description?: string;
  'x-enum-descriptions'?: Record<string, unknown>;
}

function errorCodeSchema(doc: string): ErrorCodeSchema {
  const parsed = YAML.parse(fs.readFileSync(path.join(ROOT, doc), 'utf8')) as {
    components?: { schemas?: { ErrorCode?: ErrorCodeSchema } };
  };
  const schema = parsed.components?.schemas?.ErrorCode;
  if (!schema) throw new Error(`${doc} has no #/components/schemas/ErrorCode.`);
  return schema;
}

/** Verbs that start an instruction ("Send…", "Check…", "try again"). */
const INSTRUCTION =
  /\b(send|check|create|change|ask|remove|upgrade|reuse|publish|list|see|try|use|add|give|wait|contact|report|fix|read|schedule|choose|pass|include)\b/i;

describe.each(DOCS)('ErrorCode in %s', (doc) => {
  const schema = errorCodeSchema(doc);

  it('lists exactly the codes of ERROR_CATALOGUE', () => {
    const documented = (schema.enum ?? []).map(String);
    const missing = CODES.filter((code) => !documented.includes(code));
    const unknown = documented.filter((code) => !CODES.includes(code as ErrorCode));
    expect({ missing, unknown }, `Update ErrorCode in ${doc} to match server/domain/errors.ts.`).toEqual({ missing: [], unknown: [] });
    expect(new Set(documented).size, 'ErrorCode lists a code twice').toBe(documented.length);
  });

  it('explains every code, with its HTTP status', () => {
    const descriptions = schema['x-enum-descriptions'] ?? {};
    expect(Object.keys(descriptions).sort()).toEqual([...CODES].sort());
    for (const code of CODES) {
      const text = String(descriptions[code] ?? '');
      expect(text, `x-enum-descriptions.${code}`).toMatch(new RegExp(`^${ERROR_CATALOGUE[code].status}\\b`));
      expect(text.length, `x-enum-descriptions.${code} is too short`).toBeGreaterThan(20);
      expect(schema.description ?? '', `the ErrorCode description table lacks ${code}`).toContain(`\`${code}\` | ${ERROR_CATALOGUE[code].status} |`);
    }
  });
});

describe('ERROR_CATALOGUE', () => {
  it('uses UPPER_SNAKE codes and error statuses', () => {
    for (const code of CODES) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(ERROR_CATALOGUE[code].status, code).toBeGreaterThanOrEqual(400);
      expect(ERROR_CATALOGUE[code].status, code).toBeLessThan(600);
    }
  });

  it.each(CODES)('%s has a message that ends with a period and says what to do', (code) => {
    const { message } = ERROR_CATALOGUE[code];
    expect(message.trim(), 'no surrounding whitespace').toBe(message);
    expect(message, 'ends with a period').toMatch(/\.$/);
    expect(message.length, 'is long enough to help').toBeGreaterThanOrEqual(40);
    // What happened first, then what to do: the instruction is in a later sentence.
    const sentences = message.split(/(?<=\.)\s+(?=[A-Z"])/);
    expect(sentences.length, `"${message}" needs a second sentence that says what to do`).toBeGreaterThanOrEqual(2);
    expect(sentences.slice(1).join(' '), `"${message}" does not say what to do`).toMatch(INSTRUCTION);
  });
});

describe('PressroomError', () => {
  it('takes its status from the catalogue and defaults its message', () => {
    const error = new PressroomError('CHANNEL_NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.message).toBe(ERROR_CATALOGUE.CHANNEL_NOT_FOUND.message);
    expect(PressroomError.is(error)).toBe(true);
    expect(PressroomError.is(new Error('x'))).toBe(false);
  });

  it('validationError names every field under details.fields', () => {
    const error = validationError({ slug: 'Bad.', title: 'Empty.' });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ fields: { slug: 'Bad.', title: 'Empty.' } });
    expect(error.message).toContain('slug, title');
  });
});

describe('PressroomError.is', () => {
  it('recognises the error by its name and catalogue code, also from another copy of the module', () => {
    expect(PressroomError.is(new PressroomError('NOT_FOUND'))).toBe(true);
    // What a second copy of errors.ts (a bundle, another install) throws: same shape, another class.
    class CopiedPressroomError extends Error {
      readonly code = 'CHANNEL_NOT_FOUND';
      constructor() {
        super('copied');
        this.name = 'PressroomError';
      }
    }
    expect(PressroomError.is(new CopiedPressroomError())).toBe(true);
  });

  it('refuses other errors, unknown codes and plain objects', () => {
    expect(PressroomError.is(Object.assign(new Error('x'), { code: 'NOT_FOUND' }))).toBe(false);
    expect(PressroomError.is(Object.assign(new Error('x'), { name: 'PressroomError', code: 'NO_SUCH_CODE' }))).toBe(false);
    expect(PressroomError.is({ name: 'PressroomError', code: 'NOT_FOUND' })).toBe(false);
    expect(PressroomError.is(null)).toBe(false);
    expect(PressroomError.is('NOT_FOUND')).toBe(false);
  });
});
