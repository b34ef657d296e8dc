/**
 * Where a body's relative link targets are, found once when the body is
 * rendered and stored beside it (`link_targets`), so that the build, which
 * makes them absolute in every public Markdown output
 * (`server/render/absolute-links.ts`), need not parse the body again:
 * parsing was the largest part of a cold build's rendering time
 * (docs/PERFORMANCE-HISTORY.md, issue 17's second session).
 *
 * A target is the raw destination of a link, image or definition as
 * micromark (the parser under remark) tokenises it, with GFM, or a raw HTML
 * token whose `href`/`src` may be relative. Offsets are UTF-16 positions
 * in `publicMarkdown(markdown)`, the text the public outputs start from. The
 * list depends only on that text, never on where the page lives, so it stays
 * true when a slug or the public URL changes.
 * @module
 */
// micromark's event edits in linear time (issue 40): before any Markdown is parsed.
import './micromark-linear-edits.ts';
import type { Nodes, Root } from 'mdast';
import { parse, postprocess, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { decodeString } from 'micromark-util-decode-string';
import { checkMarkdownBody } from './limits.ts';
import { publicMarkdown } from './safe-markdown.ts';

/** A relative destination (`url` decoded) or a raw HTML token (no `url`) between `start` and `end`. */
export interface LinkTarget {
  readonly start: number;
  readonly end: number;
  readonly url?: string;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Whether `url` needs a base: not empty, no scheme, not a fragment of this document. */
export function isRelativeTarget(url: string): boolean {
  const trimmed = url.trim();
  return trimmed !== '' && !trimmed.startsWith('#') && !SCHEME.test(trimmed);
}

// Where a relative target can be written: after `](` (links, images), `]:` (definitions), or in an
// href/src attribute of raw HTML, not followed by a scheme, `#` or the end of the destination.
const MAY_HAVE_RELATIVE_TARGET = /(?:\]\(\s*<?|\]:\s*<?|(?:href|src)\s*=\s*["']?)(?![a-zA-Z][a-zA-Z0-9+.-]*:|#|\)|>|["'])/i;
const MAY_HAVE_RELATIVE_ATTRIBUTE = /\b(?:href|src)\s*=\s*["']?(?![a-zA-Z][a-zA-Z0-9+.-]*:|#|["'])/i;
const DESTINATION_TOKENS: ReadonlySet<string> = new Set(['resourceDestinationString', 'definitionDestinationString']);
const HTML_TOKENS: ReadonlySet<string> = new Set(['htmlFlow', 'htmlText']);

/**
 * The relative link targets of `markdown` (already in its public form), in
 * document order. Text without a candidate (most bodies: links are mostly
 * absolute) is not parsed.
 */
export function findLinkTargets(markdown: string): LinkTarget[] {
  if (!MAY_HAVE_RELATIVE_TARGET.test(markdown)) return [];
  return targetsOfTokens(markdown, 0);
}

/** The targets micromark finds in `text`, a piece of a document that starts at `offset`. */
function targetsOfTokens(markdown: string, offset: number): LinkTarget[] {
  const events = postprocess(parse({ extensions: [gfm()] }).document().write(preprocess()(markdown, undefined, true)));
  const targets: LinkTarget[] = [];
  for (const [kind, token] of events) {
    if (kind !== 'enter') continue;
    const start = token.start.offset;
    const end = token.end.offset;
    if (DESTINATION_TOKENS.has(token.type)) {
      // The token is the raw destination: escapes and character references are still in it.
      const url = decodeString(markdown.slice(start, end));
      if (isRelativeTarget(url)) targets.push({ start: start + offset, end: end + offset, url });
    } else if (HTML_TOKENS.has(token.type) && MAY_HAVE_RELATIVE_ATTRIBUTE.test(markdown.slice(start, end))) {
      targets.push({ start: start + offset, end: end + offset });
    }
  }
  return targets.sort((a, b) => a.start - b.start);
}

const TREE_TYPES: ReadonlySet<string> = new Set(['link', 'image', 'definition', 'html']);

/**
 * `findLinkTargets(markdown)` from the remark tree of exactly `markdown`
 * (remark-parse with GFM, as the renderer parses it), without parsing the
 * whole text again: the save has just parsed it to render it. A link,
 * image or definition on one line is tokenised on its own (its destination
 * is written inside it, so the piece gives the same tokens as the whole);
 * raw HTML is taken as the tree has it. When any such node spans lines
 * (container prefixes such as `> ` may sit inside it), the whole text is
 * parsed instead. `link-targets.test.ts` holds both ways to the same answer.
 */
export function findLinkTargetsInTree(markdown: string, tree: Root): LinkTarget[] {
  if (!MAY_HAVE_RELATIVE_TARGET.test(markdown)) return [];
  const found = new Map<number, LinkTarget>();
  let multiline = false;
  const visit = (node: Nodes): void => {
    if (multiline) return;
    if (TREE_TYPES.has(node.type) && node.position?.start.offset !== undefined && node.position.end.offset !== undefined) {
      const start = node.position.start.offset;
      const piece = markdown.slice(start, node.position.end.offset);
      if (/[\r\n]/.test(piece)) {
        multiline = true;
        return;
      }
      if (node.type === 'html') {
        if (MAY_HAVE_RELATIVE_ATTRIBUTE.test(piece)) found.set(start, { start, end: node.position.end.offset });
      } else if (piece.startsWith('[') || piece.startsWith('![')) {
        // Autolinks (`<https://…>`, GFM's bare www. and e-mail links) have no destination to rewrite.
        if (MAY_HAVE_RELATIVE_TARGET.test(piece)) for (const target of targetsOfTokens(piece, start)) found.set(target.start, target);
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  if (multiline) return findLinkTargets(markdown);
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/** What `storedLinkTargets` stores, from a list of targets. */
export function encodeLinkTargets(targets: readonly LinkTarget[]): string {
  return JSON.stringify(targets.map((t) => (t.url === undefined ? [t.start, t.end] : [t.start, t.end, t.url])));
}

/**
 * What is stored in `link_targets` for a stored body: the targets of its
 * public form as JSON (`[[start, end, url] | [start, end], …]`), or null
 * for a body over the limits, whose public outputs find them when built.
 */
export function storedLinkTargets(markdown: string): string | null {
  if (checkMarkdownBody(markdown)) return null;
  return encodeLinkTargets(findLinkTargets(publicMarkdown(markdown)));
}

/**
 * The targets stored as `storedLinkTargets` wrote them, checked against
 * `markdown`, the text they must have been found in: each destination must
 * still spell its URL there and each HTML target start a tag. Null when the
 * value is missing or does not fit (a text or a rule changed since), so the
 * caller finds them again instead of trusting it.
 */
export function readLinkTargets(stored: string | null | undefined, markdown: string): LinkTarget[] | null {
  const length = markdown.length;
  if (!stored) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  const targets: LinkTarget[] = [];
  let after = 0;
  for (const item of value) {
    if (!Array.isArray(item) || (item.length !== 2 && item.length !== 3)) return null;
    const [start, end, url] = item as [unknown, unknown, unknown];
    if (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < after || (end as number) < (start as number) || (end as number) > length) return null;
    if (item.length === 3 && typeof url !== 'string') return null;
    const piece = markdown.slice(start as number, end as number);
    if (item.length === 3 ? decodeString(piece) !== url : !piece.startsWith('<')) return null;
    targets.push(item.length === 3 ? { start: start as number, end: end as number, url: url as string } : { start: start as number, end: end as number });
    after = end as number;
  }
  return targets;
}
