import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, PASSWORD_HASH_PARAMETERS, verifyPassword } from './password-hash.ts';

describe('password hashes', () => {
  it('are Argon2id with the parameters in the hash, salted afresh each time, and verify only their password', async () => {
    const { memoryCost, timeCost, parallelism } = PASSWORD_HASH_PARAMETERS;
    const [one, two] = await Promise.all([hashPassword('a long enough password'), hashPassword('a long enough password')]);
    expect(one.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`)).toBe(true);
    expect(one).not.toBe(two);
    expect(await verifyPassword(one, 'a long enough password')).toBe(true);
    expect(await verifyPassword(one, 'a long enough passwore')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('need a new hash when made with other parameters or another algorithm', async () => {
    expect(needsRehash(await hashPassword('x'.repeat(12)))).toBe(false);
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2g')).toBe(true);
    expect(needsRehash('$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g')).toBe(true);
    expect(needsRehash('$2b$10$abcdefghijklmnopqrstuv')).toBe(true);
  });
});
