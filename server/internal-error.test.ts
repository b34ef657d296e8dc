import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.ts';
import { INTERNAL_CODES, InternalError, invariant } from './internal-error.ts';

describe('InternalError', () => {
  it('carries a permanent code and keeps its cause', () => {
    const cause = new Error('disk full');
    const error = new InternalError('BACKUP_FAILED', 'The backup failed: disk full.', { cause });
    expect(error).toMatchObject({ name: 'InternalError', code: 'BACKUP_FAILED', message: 'The backup failed: disk full.', cause });
    expect(Object.keys(INTERNAL_CODES)).toContain(error.code);
  });

  it('is recognised by its shape, also when made by another copy of the module', () => {
    const copy = Object.assign(new Error('x'), { name: 'InternalError', code: 'INVARIANT_BROKEN' });
    expect(InternalError.is(copy)).toBe(true);
    expect(InternalError.is(Object.assign(new Error('x'), { name: 'InternalError', code: 'NO_SUCH_CODE' }))).toBe(false);
    expect(InternalError.is({ name: 'InternalError', code: 'INVARIANT_BROKEN' })).toBe(false);
    expect(InternalError.is(new Error('x'))).toBe(false);
  });

  it('invariant throws INVARIANT_BROKEN with the message when the rule does not hold', () => {
    expect(() => invariant(true, 'fine')).not.toThrow();
    expect(() => invariant(0, 'article 7 has no primary translation')).toThrow(expect.objectContaining({ code: 'INVARIANT_BROKEN', message: 'article 7 has no primary translation' }));
  });

  it('is described with its code, and with each cause\'s stack when the stack is asked for', () => {
    const error = new InternalError('MIGRATION_FAILED', 'Database migration "0014" failed.', { cause: new Error('no such column', { cause: 'the root' }) });
    expect(describeError(error)).toBe('Database migration "0014" failed. [MIGRATION_FAILED]');
    const stack = describeError(error, { stack: true });
    expect(stack).toMatch(/^InternalError: Database migration "0014" failed\.\n\s+at /);
    expect(stack).toMatch(/\[MIGRATION_FAILED\]\ncaused by: Error: no such column\n\s+at [^]*\ncaused by: the root$/);
  });
});
