/**
 * Writing plain text into Markdown we generate (llms.txt lines, the media
 * upload's snippet), so that a title, excerpt or alt text stays text: it
 * cannot open a link, an image, raw HTML, an entity, emphasis or a code span,
 * close the brackets it sits in, or start a new line.
 * @module
 */

// Every ASCII punctuation character that can start or end inline syntax in
// CommonMark/GFM (`!` `[` `]` links and images, `<` `>` HTML and autolinks,
// `&` entities, `*` `_` `~` emphasis, `` ` `` code, `\` escapes, `|` table
// cells, `#` a heading's closing sequence, `(` `)` destinations). A
// backslash before ASCII punctuation always means the character itself.
const INLINE_SPECIAL = /[\\`*_~[\]()<>!&|#]/g;

/**
 * One line of literal text for Markdown: whitespace (line breaks included)
 * folded to single spaces, inline syntax characters backslash-escaped.
 * @example escapeMarkdownText('A [link](javascript:x)\n# no') // 'A \\[link\\]\\(javascript:x\\) \\# no'
 */
export function escapeMarkdownText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(INLINE_SPECIAL, (c) => `\\${c}`);
}

/**
 * A URL as a Markdown link destination: characters that would end it or
 * change its parsing (whitespace, parentheses, angle brackets, backslashes)
 * are percent-encoded.
 */
export function markdownLinkDestination(url: string): string {
  // encodeURIComponent leaves `(` and `)` as they are: percent-encode by code.
  return url.replace(/[\s()<>\\]/g, (c) => (c.charCodeAt(0) < 0x80 ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c)));
}
