/**
 * API keys: generation, hashing and comparison. Only the hash is stored; the
 * key itself is shown once, at creation.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Characters of a key kept in clear to identify it in listings and revocations. */
export const KEY_PREFIX_LENGTH = 12;

/** A new key and what is stored of it. */
export interface GeneratedKey {
  /** The secret; show once, never store. */
  readonly key: string;
  /** Its first characters, safe to list. */
  readonly prefix: string;
  /** SHA-256 hex of the key, stored. */
  readonly hash: string;
}

/** Hashes a key for storage and lookup. Keys are 256-bit random, so a fast hash is enough. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Generates a fresh key (`prk_` + 43 base64url characters). */
export function generateApiKey(): GeneratedKey {
  const key = `prk_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** Compares two hex hashes in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
