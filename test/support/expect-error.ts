/**
 * Test support: expects a promise to fail with a PressroomError of a given
 * code, its catalogue status, and a message matching a pattern.
 * @module
 */
import { expect } from 'vitest';
import { ERROR_CATALOGUE, PressroomError, type ErrorCode } from '../../server/domain/errors.ts';

/** Resolves with the error `promise` rejected with, after checking its code, status and message. */
export async function expectError(promise: Promise<unknown>, code: ErrorCode, message?: RegExp): Promise<PressroomError> {
  const error = await promise.then(
    () => expect.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  expect(PressroomError.is(error)).toBe(true);
  const pe = error as PressroomError;
  expect({ code: pe.code, status: pe.status }).toEqual({ code, status: ERROR_CATALOGUE[code].status });
  if (message) expect(pe.message).toMatch(message);
  return pe;
}
