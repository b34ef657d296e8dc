/**
 * Absolute links in the machine-readable bodies (`.md`, JSON
 * `content_markdown` and `content_html`; feeds carry no body): a relative
 * link, image or definition target is resolved against the canonical page
 * of the translation it is in (`translation.htmlUrl`), exactly as a browser
 * resolves it on that page. So `./other` in the Arabic document becomes the
 * Arabic page of `other`, the same-language sibling (a 404 when `other` has
 * no Arabic translation, as on the page: no language is substituted), and
 * the Markdown means the same wherever it is read from (the API's `.md`
 * address, a `_lang` file, a copy on disk). The HTML page resolves them
 * against the same page, and keeps those on the site's own origin
 * root-relative (`public-body.ts`, `pageHtmlOf`), so the page means the
 * same at each address it is served from (`/{channel}/{article}`, its copy
 * at `/{channel}/{lang}/{article}`, a host's `/{channel}/{article}/`), and
 * the same as its Markdown and JSON (issue 34).
 *
 * Only the targets change: in Markdown, the destination strings as
 * micromark (the parser under remark) tokenises them, with GFM, so the
 * publisher's formatting is kept byte for byte; in HTML, `href` and `src`.
 * Fragment-only targets (`#notes`) stay: they name a place in the same
 * document wherever it is. Where the targets are is found when a body is
 * rendered and stored with it (`domain/body/link-targets.ts`), so a build
 * does not parse the body again; a body without a relative target is
 * returned as it is.
 * @module
 */
import type { Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { findLinkTargets, isRelativeTarget, type LinkTarget } from '../domain/body/link-targets.ts';
import { markdownLinkDestination } from '../domain/body/markdown-escape.ts';
import { eachElement } from '../domain/body/tree-walk.ts';
import { rewriteSerializedLinks } from './serialized-html-links.ts';

export { isRelativeTarget };

/** `url` resolved against `base`, or `url` itself when it is absolute, a fragment, or cannot be resolved. */
export function resolveTarget(url: string, base: string): string {
  if (!isRelativeTarget(url)) return url;
  try {
    return new URL(url.trim(), base).href;
  } catch {
    return url;
  }
}

/**
 * `markdown` with every relative link, image and definition target (and
 * `href`/`src` in its raw HTML) made absolute against `base` (see module
 * doc). `targets` are where they are (`findLinkTargets(markdown)`, stored
 * with the body when it was rendered); without them the text is parsed.
 */
export function absoluteMarkdownLinks(markdown: string, base: string, targets: readonly LinkTarget[] = findLinkTargets(markdown)): string {
  if (targets.length === 0) return markdown;
  const parts: string[] = [];
  let at = 0;
  // In document order; tokens never overlap.
  for (const target of targets) {
    const raw = markdown.slice(target.start, target.end);
    parts.push(markdown.slice(at, target.start), target.url === undefined ? absoluteAttributes(raw, base) : markdownLinkDestination(resolveTarget(target.url, base)));
    at = target.end;
  }
  parts.push(markdown.slice(at));
  return parts.join('');
}

const HTML_ATTRIBUTE = /\b(href|src)(\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi;

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
 * absolute against `base` (see module doc), then passed through `shown`
 * (the page's root-relative form).
 */
export function absoluteHtmlLinks(html: string, base: string, shown: (absolute: string) => string = (absolute) => absolute): string {
  if (!MAY_HAVE_RELATIVE_ATTRIBUTE.test(html)) return html;
  // A body as the renderer wrote it is scanned, not parsed (`serialized-html-links.ts`); anything else is parsed.
  const scanned = rewriteSerializedLinks(html, (value) => (isRelativeTarget(value) ? shown(resolveTarget(value, base)) : null));
  if (scanned !== null) return scanned;
  return parsedAbsoluteHtmlLinks(html, base, shown);
}

/** `absoluteHtmlLinks` by parsing `html` and serialising it again: for HTML the scan does not read, and the tests. */
export function parsedAbsoluteHtmlLinks(html: string, base: string, shown: (absolute: string) => string = (absolute) => absolute): string {
  if (!MAY_HAVE_RELATIVE_ATTRIBUTE.test(html)) return html;
  const tree = fromHtml(html, { fragment: true }) as Root;
  eachElement(tree, (element) => {
    for (const name of ['href', 'src'] as const) {
      const value = element.properties[name];
      if (typeof value === 'string' && isRelativeTarget(value)) element.properties[name] = shown(resolveTarget(value, base));
    }
  });
  return toHtml(tree);
}
