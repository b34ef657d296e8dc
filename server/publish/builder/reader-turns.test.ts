import { describe, expect, it } from 'vitest';
import { createReaderTurns } from './reader-turns.ts';

describe('turns for readers during a build', () => {
  it('goes on at once within its slice, and lets waiting callbacks run once the slice is over', async () => {
    let now = 0;
    const turns = createReaderTurns(5, () => now);
    const ran: string[] = [];
    setImmediate(() => ran.push('reader'));
    now = 4;
    await turns.between();
    // Within the slice: no turn given, the waiting callback has not run.
    expect(ran).toEqual([]);
    expect(turns.given).toBe(0);
    now = 5;
    await turns.between();
    expect(ran).toEqual(['reader']);
    expect(turns.given).toBe(1);
    // A new slice starts after the turn.
    setImmediate(() => ran.push('second'));
    now = 9;
    await turns.between();
    expect(ran).toEqual(['reader']);
    now = 10;
    await turns.between();
    expect(ran).toEqual(['reader', 'second']);
    expect(turns.given).toBe(2);
  });
});
