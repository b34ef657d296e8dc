import { describe, expect, it } from 'vitest';
import { instanceName, isPostgresUrl, shownDatabaseUrl } from './postgres-database.ts';
import { vectorPieces, searchableText, VECTOR_PIECE_CHARS } from './search-index.postgres.ts';

describe('the Postgres store', () => {
  it('tells a Postgres URL from a SQLite file', () => {
    expect(isPostgresUrl('postgres://a@b/c')).toBe(true);
    expect(isPostgresUrl('postgresql://a@b/c')).toBe(true);
    expect(isPostgresUrl('/srv/data/pressroom.db')).toBe(false);
    expect(isPostgresUrl('data/postgres://x')).toBe(false);
  });

  it('never shows a password in logs and messages', () => {
    expect(shownDatabaseUrl('postgres://app:s3cret@db:5432/pressroom?sslmode=require')).toBe('postgres://app:***@db:5432/pressroom?sslmode=require');
    expect(shownDatabaseUrl('postgres://app@db/pressroom')).toBe('postgres://app@db/pressroom');
    expect(shownDatabaseUrl('postgres://app:s3cret@[not a host')).not.toContain('s3cret');
  });

  it('names a server to the database in the 63 bytes Postgres keeps, pid first', () => {
    expect(instanceName(4242, 'web-1')).toBe('pressroom pid 4242 on web-1');
    const long = instanceName(4242, `ci-runner-${'x'.repeat(80)}`);
    expect(Buffer.byteLength(long)).toBe(63);
    expect(long.startsWith('pressroom pid 4242 on ci-runner-')).toBe(true);
    // A host name cut inside a character loses the broken character, not the rest.
    expect(instanceName(1, 'é'.repeat(40))).not.toContain('\uFFFD');
  });
});

describe('search text on Postgres', () => {
  it('cuts text into words as FTS5 does', () => {
    expect(searchableText('ops@example.org, v2.0.1 x86_64 — co-operation; Café ΑΘΗΝΑ')).toBe('ops example org v2 0 1 x86 64 co operation café αθηνα');
  });

  it('cuts a long body into pieces at spaces, losing nothing', () => {
    const body = Array.from({ length: 40_000 }, (_, i) => `word${i}`).join(' ');
    const pieces = vectorPieces(body);
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.join('')).toBe(body);
    for (const piece of pieces.slice(1)) expect(piece.startsWith(' ')).toBe(true);
    for (const piece of pieces) expect(piece.length).toBeLessThan(VECTOR_PIECE_CHARS + 20);
    expect(vectorPieces('short')).toEqual(['short']);
  });
});
