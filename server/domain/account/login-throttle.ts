/**
 * How many failed sign-ins are allowed before the dashboard refuses more for
 * a while: per account name (someone guessing one account's password from
 * many places) and per client address (one place guessing many accounts).
 * Fixed windows, in memory (one process serves the dashboard); a success
 * clears the name's count. Pure but for the clock it is given.
 * @module
 */
import type { Clock } from '../../clock.ts';

/** The limits: failures allowed per window. */
export interface LoginLimits {
  readonly perAccount: number;
  readonly perClient: number;
  readonly windowMs: number;
}

/** The defaults: 5 failures per name and 20 per address in 15 minutes. */
export const LOGIN_LIMITS: LoginLimits = Object.freeze({ perAccount: 5, perClient: 20, windowMs: 15 * 60_000 });

/** The throttle of one process. */
export interface LoginThrottle {
  /** Seconds to wait before another attempt for this name from this client, or 0 when one may be made now. */
  waitSeconds(accountName: string, client: string): number;
  /** Counts a failed attempt. */
  failed(accountName: string, client: string): void;
  /** Clears the name's failures after a success. */
  succeeded(accountName: string): void;
}

interface Window {
  startedAt: number;
  count: number;
}

/** Creates a throttle. */
export function createLoginThrottle(clock: Clock, limits: LoginLimits = LOGIN_LIMITS): LoginThrottle {
  const byAccount = new Map<string, Window>();
  const byClient = new Map<string, Window>();
  const current = (map: Map<string, Window>, key: string, now: number): Window | undefined => {
    const window = map.get(key);
    if (window && now - window.startedAt >= limits.windowMs) {
      map.delete(key);
      return undefined;
    }
    return window;
  };
  const count = (map: Map<string, Window>, key: string, now: number) => {
    const window = current(map, key, now);
    if (window) window.count++;
    else {
      // Old windows go as new ones come, so the maps stay as small as the recent failures.
      if (map.size > 10_000) for (const [k, w] of map) if (now - w.startedAt >= limits.windowMs) map.delete(k);
      map.set(key, { startedAt: now, count: 1 });
    }
  };
  const name = (accountName: string) => accountName.toLowerCase();
  return {
    waitSeconds(accountName, client) {
      const now = clock.now().getTime();
      let until = 0;
      const account = current(byAccount, name(accountName), now);
      if (account && account.count >= limits.perAccount) until = Math.max(until, account.startedAt + limits.windowMs);
      const address = current(byClient, client, now);
      if (address && address.count >= limits.perClient) until = Math.max(until, address.startedAt + limits.windowMs);
      return until === 0 ? 0 : Math.max(1, Math.ceil((until - now) / 1000));
    },
    failed(accountName, client) {
      const now = clock.now().getTime();
      count(byAccount, name(accountName), now);
      count(byClient, client, now);
    },
    succeeded(accountName) {
      byAccount.delete(name(accountName));
    },
  };
}
