/**
 * Absolute links in the machine-readable bodies (`.md`, JSON
 * `content_markdown` and `content_html`; feeds carry no body): a relative
 * link, image or definition target is resolved against the canonical page
 * of the translation it is in (`translation.htmlUrl`), exactly as a browser
 * resolves it on that page. So `./other` in the Arabic document becomes the
 * Arabic page of `other`, the same-language sibling (a 404 when `other` has
 * no Arabic translation, as on the page: no language is substituted), and
 * the Markdown means the same wherever it is read from (the API's `.md`
 * address, a `_lang` file, a copy on disk). The HTML page keeps the
 * publisher's relative links.
 *
 * Only the targets change: in Markdown, the destination strings as
 * micromark (the parser under remark) tokenises them, with GFM, so the
 * publisher's formatting is kept byte for byte; in HTML, `href` and `src`.
 * Fragment-only targets (`#notes`) stay: they name a place in the same
 * document wherever it is. A body without a relative target is returned as
 * it is, without parsing (most bodies: links are mostly absolute).
 * @module
 */
import type { Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { parse, postprocess, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { decodeString } from 'micromark-util-decode-string';
import { markdownLinkDestination } from '../domain/body/markdown-escape.ts';
import { eachElement } from '../domain/body/tree-walk.ts';

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Whether `url` needs a base: not empty, no scheme, not a fragment of this document. */
export function isRelativeTarget(url: string): boolean {
  const trimmed = url.trim();
  return trimmed !== '' && !trimmed.startsWith('#') && !SCHEME.test(trimmed);
}

/** `url` resolved against `base`, or `url` itself when it is absolute, a fragment, or cannot be resolved. */
export function resolveTarget(url: string, base: string): string {
  if (!isRelativeTarget(url)) return url;
  try {
    return new URL(url.trim(), base).href;
  } catch {
    return url;
  }
}

// Where a relative target can be written: after `](` (links, images), `]:` (definitions), or in an
// href/src attribute of raw HTML, not followed by a scheme, `#` or the end of the destination.
const MAY_HAVE_RELATIVE_TARGET = /(?:\]\(\s*<?|\]:\s*<?|(?:href|src)\s*=\s*["']?)(?![a-zA-Z][a-zA-Z0-9+.-]*:|#|\)|>|["'])/i;
const HTML_ATTRIBUTE = /\b(href|src)(\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi;
const DESTINATION_TOKENS: ReadonlySet<string> = new Set(['resourceDestinationString', 'definitionDestinationString']);
const HTML_TOKENS: ReadonlySet<string> = new Set(['htmlFlow', 'htmlText']);

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `markdown` with every relative link, image and definition target (and
 * `href`/`src` in its raw HTML) made absolute against `base` (see module doc).
 */
export function absoluteMarkdownLinks(markdown: string, base: string): string {
  if (!MAY_HAVE_RELATIVE_TARGET.test(markdown)) return markdown;
  const events = postprocess(parse({ extensions: [gfm()] }).document().write(preprocess()(markdown, undefined, true)));
  const edits: Edit[] = [];
  for (const [kind, token] of events) {
    if (kind !== 'enter') continue;
    const start = token.start.offset;
    const end = token.end.offset;
    if (DESTINATION_TOKENS.has(token.type)) {
      // The token is the raw destination: escapes and character references are still in it.
      const url = decodeString(markdown.slice(start, end));
      if (isRelativeTarget(url)) edits.push({ start, end, text: markdownLinkDestination(resolveTarget(url, base)) });
    } else if (HTML_TOKENS.has(token.type)) {
      const raw = markdown.slice(start, end);
      const resolved = absoluteAttributes(raw, base);
      if (resolved !== raw) edits.push({ start, end, text: resolved });
    }
  }
  let out = markdown;
  // From the end, so earlier offsets stay valid; tokens of one kind never overlap.
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** `href`/`src` attributes of a raw HTML fragment made absolute (quoted values only: the sanitiser writes them so). */
function absoluteAttributes(html: string, base: string): string {
  return html.replace(HTML_ATTRIBUTE, (whole, name: string, eq: string, double?: string, single?: string) => {
    const value = double ?? single ?? '';
    const decoded = value.replace(/&amp;/g, '&');
    if (!isRelativeTarget(decoded)) return whole;
    const resolved = resolveTarget(decoded, base).replace(/&/g, '&amp;');
    return double !== undefined ? `${name}${eq}"${resolved.replace(/"/g, '%22')}"` : `${name}${eq}'${resolved.replace(/'/g, '%27')}'`;
  });
}

const MAY_HAVE_RELATIVE_ATTRIBUTE = /\s(?:href|src)="(?![a-zA-Z][a-zA-Z0-9+.-]*:|#|")/;

/**
 * `html` (a rendered body) with every relative `href` and `src` made
 * absolute against `base` (see module doc).
 */
export function absoluteHtmlLinks(html: string, base: string): string {
  if (!MAY_HAVE_RELATIVE_ATTRIBUTE.test(html)) return html;
  const tree = fromHtml(html, { fragment: true }) as Root;
  eachElement(tree, (element) => {
    for (const name of ['href', 'src'] as const) {
      const value = element.properties[name];
      if (typeof value === 'string' && isRelativeTarget(value)) element.properties[name] = resolveTarget(value, base);
    }
  });
  return toHtml(tree);
}
