/**
 * Text that is safe inside XML (RSS, sitemap). Publisher text can hold any
 * Unicode, but XML 1.0 forbids most control characters and lone surrogates:
 * one stray U+0000 in a title would make a whole feed unreadable, so such
 * characters are dropped rather than escaped (they cannot be escaped).
 * @module
 */

// Everything outside the XML 1.0 `Char` production. With the `u` flag a lone surrogate is one code point and matches.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes characters XML 1.0 cannot carry; everything else (bidi marks, RTL text, emoji) is kept. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

// Anything escapeXml changes: markup characters or characters XML cannot carry.
const NEEDS_ESCAPE = /[&<>"']|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Escapes text for an XML element or a double- or single-quoted attribute. */
export function escapeXml(text: string): string {
  // Most URLs and dates need nothing: one test instead of six replacements (sitemaps hold thousands).
  if (!NEEDS_ESCAPE.test(text)) return text;
  return xmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
