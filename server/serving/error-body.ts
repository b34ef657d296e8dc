/**
 * The error body of both APIs: `{schema_version, error: {code, message, details?}}`.
 * @module
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../domain/errors.ts';
import { SCHEMA_VERSION } from '../read-model/wire.ts';

/** The JSON error body. */
export interface ErrorBody {
  schema_version: typeof SCHEMA_VERSION;
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/** Builds an error body; the message defaults to the catalogue's. */
export function errorBody(code: ErrorCode, message?: string, details?: Record<string, unknown>): ErrorBody {
  return {
    schema_version: SCHEMA_VERSION,
    error: { code, message: message ?? ERROR_CATALOGUE[code].message, ...(details !== undefined && { details }) },
  };
}
