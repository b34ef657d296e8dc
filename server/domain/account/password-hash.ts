/**
 * Passwords as Argon2id hashes, through the maintained `@node-rs/argon2`
 * (prebuilt native binaries; the work runs on libuv's thread pool, off the
 * request thread). The only module that knows the library. A hash is a PHC
 * string that carries its parameters, so they can be raised later: a
 * sign-in whose hash was made with weaker ones stores a new hash.
 * @module
 */
import { hash, verify } from '@node-rs/argon2';

/** The parameters new hashes are made with (OWASP's first choice for Argon2id: 19 MiB, 2 passes, 1 lane). */
export const PASSWORD_HASH_PARAMETERS = Object.freeze({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });

/** Argon2id, as the library numbers the algorithms. */
const ARGON2ID = 2;

/** The shortest and the longest password accepted. */
export const PASSWORD_LENGTH = Object.freeze({ min: 12, max: 1_000 });

/** Hashes a password with the current parameters and a fresh salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { ...PASSWORD_HASH_PARAMETERS, algorithm: ARGON2ID });
}

/** Whether `password` is the one `stored` was made from (false for a stored text that is no Argon2 hash). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Whether `stored` was made with other parameters (or another algorithm) than new hashes are. */
export function needsRehash(stored: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  const [m, t, p] = match.slice(1).map(Number);
  const want = PASSWORD_HASH_PARAMETERS;
  return m !== want.memoryCost || t !== want.timeCost || p !== want.parallelism;
}

/**
 * A hash of no one's password, verified when the account named does not exist or has no password, so a
 * sign-in takes as long for a name that exists as for one that does not.
 */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(`decoy-${Math.random()}-${Date.now()}`);
  return decoy;
}
