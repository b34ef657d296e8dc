import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.ts';

describe('describeError', () => {
  it('gives an error\'s message, or its stack when asked, and any other thrown value as a string', () => {
    const error = new Error('disk full');
    expect(describeError(error)).toBe('disk full');
    expect(describeError(error, { stack: true })).toMatch(/^Error: disk full\n\s+at /);
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError(42)).toBe('42');
    expect(describeError(undefined)).toBe('undefined');
  });
});
