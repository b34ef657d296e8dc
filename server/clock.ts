/**
 * The clock, behind an interface so tests can move time without sleeping.
 * @module
 */

/** Tells the time. */
export interface Clock {
  /** Current time as a Date. */
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = Object.freeze({ now: () => new Date() });

/**
 * A clock that only moves when told to; for tests.
 * @example const clock = manualClock('2026-01-01T00:00:00Z'); clock.advance(60_000);
 */
export function manualClock(start: string | Date): Clock & { set(time: string | Date): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (time) => {
      current = new Date(time);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** The clock's time as the ISO string stored in the database. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
