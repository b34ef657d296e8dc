/**
 * Code points HTML forbids in a document: the C0 controls other than tab,
 * LF, FF and CR, DEL and the C1 controls (parse errors; the Nu Html
 * Checker's "forbidden code point"). The API refuses them in every text
 * field; a body may still carry them raw (pasted text), and rows stored
 * before the rule may hold them anywhere, so the body renderer and the page
 * renderer drop them from what they write.
 * @module
 */

const FORBIDDEN_CODE_POINTS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;
// Non-global twin: almost no text has one, and a test is cheaper than a replace.
const HAS_FORBIDDEN_CODE_POINT = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/** `text` without the code points HTML forbids (see module doc). */
export function withoutForbiddenCodePoints(text: string): string {
  return HAS_FORBIDDEN_CODE_POINT.test(text) ? text.replace(FORBIDDEN_CODE_POINTS, '') : text;
}
