/**
 * Opaque, tamper-evident list cursors. A cursor carries the position after
 * the last item shown (keyset pagination, so items added or removed between
 * pages never cause duplicates or skips) and the filters it was made for,
 * signed with the instance's secret.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from './errors.ts';

/** Encodes and verifies cursors for one instance. */
export interface CursorCodec {
  /** Makes a cursor for `position` within the list named by `scope`. */
  encode(scope: string, position: Record<string, string | number>): string;
  /**
   * Reads a cursor back.
   * @throws PressroomError VALIDATION_FAILED (field `cursor`) when it was edited, forged or made for another list.
   */
  decode(scope: string, cursor: string): Record<string, string | number>;
  /**
   * The cursor of a position in a public list (`read-model/list-pages.ts`): a
   * keyed hash of the list and the position, 22 base64url characters. It
   * reveals nothing and is the name of the page's static file; the read API
   * resolves it by looking it up among the list's anchors.
   */
  token(scope: string, position: { readonly p: string; readonly id: number }): string;
}

/** The message of a list cursor that names no page of that list (edited, made for another list or language). */
export const INVALID_LIST_CURSOR =
  'Not a valid cursor for this list: it was edited, truncated or made for another list or language. Pass pagination.next_cursor of the previous ' +
  'response (or follow its _links.next) exactly as given, with the same lang.';

const INVALID =
  'Not a valid cursor: it was edited, truncated or made for another list. Pass pagination.next_cursor of the previous response ' +
  '(or follow its _links.next) exactly as given, with the same filters.';

/** Tokens remembered by one codec (~150 bytes each): every list page of a 100,000-article site in two languages. */
const TOKENS_KEPT = 400_000;

/**
 * Creates the codec.
 * @param secret the instance secret (from `instance_settings`).
 */
export function createCursorCodec(secret: string): CursorCodec {
  const sign = (text: string) => createHmac('sha256', secret).update(text).digest().subarray(0, 12).toString('base64url');
  // Every full build names every list page by its token (~30,000 at 10,000 articles): each is signed once.
  const tokens = new Map<string, string>();
  return Object.freeze({
    encode(scope, position) {
      const body = Buffer.from(JSON.stringify({ s: scope, p: position }), 'utf8');
      const text = body.toString('base64url');
      return `${text}.${sign(text)}`;
    },
    token(scope, position) {
      const text = `list\n${scope}\n${position.p}\n${position.id}`;
      let token = tokens.get(text);
      if (token === undefined) {
        token = createHmac('sha256', secret).update(text).digest().subarray(0, 16).toString('base64url');
        if (tokens.size >= TOKENS_KEPT) tokens.clear();
        tokens.set(text, token);
      }
      return token;
    },
    decode(scope, cursor) {
      const [body, mac, extra] = cursor.split('.');
      if (!body || !mac || extra !== undefined) throw validationError({ cursor: INVALID });
      // The signature is compared as text: base64url decoding skips characters
      // outside its alphabet and a trailing partial character, so comparing
      // decoded bytes let an appended or inserted character through.
      const expected = Buffer.from(sign(body), 'utf8');
      const given = Buffer.from(mac, 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw validationError({ cursor: INVALID });
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw validationError({ cursor: INVALID });
      }
      const record = parsed as { s?: unknown; p?: unknown };
      if (record.s !== scope || typeof record.p !== 'object' || record.p === null) {
        throw validationError({ cursor: INVALID });
      }
      return record.p as Record<string, string | number>;
    },
  } satisfies CursorCodec);
}

