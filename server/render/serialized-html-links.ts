/**
 * The `href` and `src` values of a rendered body, rewritten by scanning its
 * text instead of parsing it: a body's HTML is what hast-util-to-html wrote
 * (rehype-stringify, default options; `domain/body/render.ts`), and in that
 * form every `<` of the text is written `&#x3C;`, so each `<` starts a tag,
 * and every attribute value is double-quoted with `"`, `&`, `'`, `` ` `` and
 * NUL written as hexadecimal character references. Parsing the body
 * (parse5) and serialising it again took ~3 ms per article page and per
 * `include=html` answer on the benchmark corpus, whose bodies link to their
 * sibling articles; the scan takes microseconds.
 *
 * Anything outside that form (a comment, a raw-text element such as
 * `<script>` or `<style>`, a `<` that opens no tag, an unquoted value, a
 * character reference the serialiser does not write) returns null, and the
 * caller parses, as before (`absolute-links.ts`). The result is then the
 * parse's: the same attributes changed, and written as the serialiser
 * writes them (`absolute-links.test.ts` compares both on every body).
 * @module
 */

// Elements whose content is not escaped text, and markup the serialiser writes only for nodes a sanitised body
// has none of: their content could hold a `<` that opens no tag, so the scan leaves them to the parser.
const UNSCANNABLE = /<(?:!|\?|\/?(?:script|style|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext|template|svg|math)\b)/i;
const TAG_NAME = /[a-zA-Z][a-zA-Z0-9-]*/y;
const ATTRIBUTE_NAME = /[^\s"'>/=\0]+/y;
// The only references the serialiser writes in a double-quoted value: hexadecimal, with the semicolon.
const REFERENCE = /&#x([0-9A-F]+);/g;
const ESCAPED_IN_VALUE = /[\0"&'`]/g;

/** A double-quoted attribute value as written, decoded; null when it holds a `&` the serialiser would not write. */
function decodeValue(written: string): string | null {
  if (!written.includes('&')) return written;
  const decoded = written.replace(REFERENCE, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
  // A `&` left over was not written by the serialiser (which always writes `&` as `&#x26;`).
  return written.replace(REFERENCE, '').includes('&') ? null : decoded;
}

/** `value` written as the serialiser writes a double-quoted attribute value. */
export function encodeValue(value: string): string {
  return value.replace(ESCAPED_IN_VALUE, (c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`);
}

/**
 * `html` with each `href` and `src` value for which `rewrite` gives a string replaced by it; values it
 * answers null for are kept byte for byte.
 * @returns null when `html` is not in the form the scan reads (see module doc): parse it instead.
 */
export function rewriteSerializedLinks(html: string, rewrite: (value: string) => string | null): string | null {
  if (UNSCANNABLE.test(html)) return null;
  const parts: string[] = [];
  let copied = 0;
  let at = 0;
  for (;;) {
    const open = html.indexOf('<', at);
    if (open < 0) break;
    let i = open + 1;
    const closing = html[i] === '/';
    if (closing) i++;
    TAG_NAME.lastIndex = i;
    const name = TAG_NAME.exec(html);
    if (!name) return null;
    i = TAG_NAME.lastIndex;
    if (closing) {
      if (html[i] !== '>') return null;
      at = i + 1;
      continue;
    }
    for (;;) {
      if (html[i] === '>') {
        i++;
        break;
      }
      if (html[i] !== ' ') return null;
      i++;
      ATTRIBUTE_NAME.lastIndex = i;
      const attribute = ATTRIBUTE_NAME.exec(html);
      if (!attribute) return null;
      i = ATTRIBUTE_NAME.lastIndex;
      if (html[i] !== '=') continue;
      if (html[i + 1] !== '"') return null;
      const start = i + 2;
      const end = html.indexOf('"', start);
      if (end < 0) return null;
      i = end + 1;
      const key = attribute[0];
      if (key !== 'href' && key !== 'src') continue;
      const value = decodeValue(html.slice(start, end));
      if (value === null) return null;
      const replaced = rewrite(value);
      if (replaced === null) continue;
      parts.push(html.slice(copied, start), encodeValue(replaced));
      copied = end;
    }
    at = i;
  }
  if (copied === 0) return html;
  parts.push(html.slice(copied));
  return parts.join('');
}
