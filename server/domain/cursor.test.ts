import { describe, expect, it } from 'vitest';
import { createCursorCodec } from './cursor.ts';
import { PressroomError } from './errors.ts';

const codec = createCursorCodec('test-secret');
const cursor = codec.encode('articles:news:en', { published_at: '2026-11-22T12:00:00.000Z', id: 42 });
const [body, mac] = cursor.split('.') as [string, string];
const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

describe('cursor codec', () => {
  it('reads back what it made', () => {
    expect(codec.decode('articles:news:en', cursor)).toEqual({ published_at: '2026-11-22T12:00:00.000Z', id: 42 });
  });

  it.each([
    ['one character appended', `${cursor}A`],
    ['a character outside base64url appended', `${cursor}!`],
    ['a character inserted in the signature', `${body}.${mac.slice(0, 5)}*${mac.slice(5)}`],
    ['the last character removed', cursor.slice(0, -1)],
    ['the first character removed', cursor.slice(1)],
    ['the signature removed', `${body}.`],
    ['the last signature character changed', flip(cursor, cursor.length - 1)],
    ['the first character changed', flip(cursor, 0)],
    ['a character appended to the body', `${body}A.${mac}`],
    ['a third part', `${cursor}.x`],
    ['padding added', `${cursor}==`],
    ['the other list', codec.encode('articles:news:fr', { published_at: '2026-11-22T12:00:00.000Z', id: 42 })],
    ['another instance', createCursorCodec('other-secret').encode('articles:news:en', { id: 42 })],
    ['not a cursor', 'not-a-cursor'],
  ])('refuses %s with a 422 naming cursor', (_name, edited) => {
    let error: unknown;
    try {
      codec.decode('articles:news:en', edited);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PressroomError);
    expect((error as PressroomError).code).toBe('VALIDATION_FAILED');
    expect((error as PressroomError).details).toMatchObject({ fields: { cursor: expect.stringMatching(/next_cursor.*exactly as given/) } });
  });
});
