/**
 * The error body of both APIs: `{schema_version, error: {code, message, details?}}`.
 * @module
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../domain/errors.ts';

/** Value of `schema_version` in every JSON payload. */
export const SCHEMA_VERSION = '1.0';

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
