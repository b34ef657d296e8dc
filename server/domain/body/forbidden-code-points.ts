/**
 * Code points HTML forbids in a document: the C0 controls other than tab,
 * LF, FF and CR, DEL and the C1 controls (parse errors; the Nu Html
 * Checker's "forbidden code point"). The API refuses them in every text
 * field; a body loses them when it is saved (with the warning
 * `BODY_CONTROL_CHARACTERS_REMOVED`), and rows stored before that rule may
 * still hold them, so the body renderer, the page renderer and the public
 * Markdown (`publicMarkdown`) drop them from what they write: the page, its
 * `.md` and its JSON say the same.
 * @module
 */

const FORBIDDEN_CODE_POINTS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;
// Non-global twin: almost no text has one, and a test is cheaper than a replace.
const HAS_FORBIDDEN_CODE_POINT = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/** `text` without the code points HTML forbids, and how many were removed. */
export function stripForbiddenCodePoints(text: string): { text: string; count: number } {
  if (!HAS_FORBIDDEN_CODE_POINT.test(text)) return { text, count: 0 };
  let count = 0;
  return { text: text.replace(FORBIDDEN_CODE_POINTS, () => (count++, '')), count };
}

/** `text` without the code points HTML forbids (see module doc). */
export function withoutForbiddenCodePoints(text: string): string {
  return HAS_FORBIDDEN_CODE_POINT.test(text) ? text.replace(FORBIDDEN_CODE_POINTS, '') : text;
}
