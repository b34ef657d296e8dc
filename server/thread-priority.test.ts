import { describe, expect, it } from 'vitest';
import { loweringNote } from './thread-priority.ts';

describe('loweringNote', () => {
  it('says nothing when background threads reached the idle policy, or off Linux', () => {
    expect(loweringNote('idle', 'linux')).toBeNull();
    expect(loweringNote(false, 'darwin')).toBeNull();
    expect(loweringNote('nice', 'win32')).toBeNull();
  });

  it('says what is missing and what to do when they did not', () => {
    expect(loweringNote('nice', 'linux')).toMatch(/niceness 19 .*chrt.*install util-linux/);
    expect(loweringNote(false, 'linux')).toMatch(/request thread's priority.*refused/);
  });
});
