import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock.ts';
import { createLoginThrottle } from './login-throttle.ts';

describe('the login throttle', () => {
  const limits = { perAccount: 3, perClient: 5, windowMs: 60_000 };

  it('refuses a name after its failures, from any address, until the window ends; a success clears the name', () => {
    const clock = manualClock('2026-12-04T00:00:00.000Z');
    const throttle = createLoginThrottle(clock, limits);
    for (const client of ['a', 'b', 'c']) {
      expect(throttle.waitSeconds('Ana', client)).toBe(0);
      throttle.failed('Ana', client);
    }
    expect(throttle.waitSeconds('ana', 'd')).toBe(60);
    clock.advance(59_500);
    expect(throttle.waitSeconds('ana', 'd')).toBe(1);
    clock.advance(500);
    expect(throttle.waitSeconds('ana', 'd')).toBe(0);
    throttle.failed('ana', 'd');
    throttle.failed('ana', 'd');
    throttle.succeeded('ana');
    throttle.failed('ana', 'd');
    expect(throttle.waitSeconds('ana', 'd')).toBe(0);
  });

  it('refuses an address after its failures, whatever name it tries', () => {
    const clock = manualClock('2026-12-04T00:00:00.000Z');
    const throttle = createLoginThrottle(clock, limits);
    for (const name of ['a', 'b', 'c', 'd', 'e']) throttle.failed(name, 'x');
    expect(throttle.waitSeconds('f', 'x')).toBe(60);
    expect(throttle.waitSeconds('f', 'y')).toBe(0);
    // A success for one name does not lift the address's count.
    throttle.succeeded('a');
    expect(throttle.waitSeconds('a', 'x')).toBe(60);
  });
});
