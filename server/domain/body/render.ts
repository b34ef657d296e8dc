/**
 * Rendering of stored Markdown to safe HTML and to plain text.
 *
 * Raw HTML in Markdown is allowed through and then sanitised with the same
 * allowlist as HTML input, so Markdown is not a way around the rules.
 * @module
 */

// micromark's event edits in linear time (issue 40): before any Markdown is parsed.
import './micromark-linear-edits.ts';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import {
  rehypeAccessibleMarkup,
  rehypeDemoteH1,
  rehypeEnforceDir,
  rehypeLinkClobberedIds,
  rehypeLtrIslands,
  rehypeRawIfNeeded,
  rehypeStripBidi,
} from './rehype-plugins.ts';
import { withoutForbiddenCodePoints } from './forbidden-code-points.ts';
import { checkMarkdownBody } from './limits.ts';
import { encodeLinkTargets, findLinkTargets, findLinkTargetsInTree } from './link-targets.ts';
import { publicMarkdown } from './safe-markdown.ts';
import { takeParsedBody } from './parsed-bodies.ts';
import { parseMarkdown } from './processors.ts';
import { ARTICLE_SCHEMA } from './schema.ts';
import { firstCodePoints, PROSE_MAX_CHARS, proseOf } from './prose.ts';
import { rehypeImagesNeedAlt } from './image-alt.ts';

// Built once: setting up this chain costs far more than running it.
// `clobberPrefix: ''` because the sanitiser adds `user-content-` to ids
// itself; letting remark-rehype prefix footnote ids too would double it.
const renderer = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true, clobberPrefix: '' })
  .use(rehypeRawIfNeeded)
  .use(rehypeStripBidi)
  .use(rehypeDemoteH1)
  .use(rehypeEnforceDir)
  .use(rehypeSanitize, ARTICLE_SCHEMA)
  .use(rehypeImagesNeedAlt)
  .use(rehypeLinkClobberedIds)
  .use(rehypeLtrIslands)
  .use(rehypeAccessibleMarkup)
  .use(rehypeStringify)
  .freeze();

function renderTree(markdown: string): Root {
  return renderer.runSync(parseTree(markdown));
}

function parseTree(markdown: string): MdastRoot {
  // remark-parse + remark-gfm with default options, as `renderer`; a long body is parsed part by part.
  return takeParsedBody(markdown) ?? parseMarkdown(markdown);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * What a body over `BODY_LIMITS` renders to: its text, escaped, in one
 * paragraph. Saves refuse such bodies, but rows stored before the limits
 * existed may hold one; a build must not spend minutes on it or overflow
 * the stack, and nothing of it can be unsafe this way.
 */
function overLimitBody(markdown: string): { html: string; text: string } {
  const text = markdown.replace(/\s+/g, ' ').trim();
  const clean = withoutForbiddenCodePoints(text);
  return { html: `<p>${clean.replace(/[&<>"]/g, (c) => ESCAPES[c]!)}</p>`, text: clean };
}

/** Renders stored Markdown to safe HTML (for API responses and public pages). */
export function renderMarkdown(markdown: string): string {
  if (checkMarkdownBody(markdown)) return overLimitBody(markdown).html;
  return withoutForbiddenCodePoints(renderer.stringify(renderTree(markdown)));
}

// Elements whose boundaries separate words even without whitespace in the
// source, e.g. `<td>a</td><td>b</td>` from raw HTML must not read "ab".
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt',
  'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'li', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'tr', 'ul',
]);

function collectText(node: Root | Element | RootContent | ElementContent, out: string[]): void {
  if (node.type === 'text') {
    out.push(node.value);
  } else if (node.type === 'root' || node.type === 'element') {
    const block = node.type === 'element' && BLOCK_TAGS.has(node.tagName);
    if (block) out.push(' ');
    for (const child of node.children) collectText(child, out);
    if (block) out.push(' ');
  }
}

function plainText(tree: Root): string {
  const out: string[] = [];
  collectText(tree, out);
  return out.join('').replace(/\s+/g, ' ').trim();
}

/** Plain text of a Markdown body (for excerpts / search); whitespace collapsed. */
export function markdownToPlainText(markdown: string): string {
  if (checkMarkdownBody(markdown)) return overLimitBody(markdown).text;
  return withoutForbiddenCodePoints(plainText(renderTree(markdown)));
}

/**
 * Names the output of this renderer. Revisions store their rendered body
 * with it (`revisions.body_version`), and a stored body of another version
 * is rendered again when read, so bump it whenever a change here, in the
 * plugins, the schema or the remark/rehype versions can change any byte of
 * the HTML or the text. `render-version.test.ts` fails when the output of
 * its samples changes while this stays the same.
 */
export const BODY_RENDER_VERSION = '3';

/**
 * Both renderings of a body from one parse: the same values as
 * `renderMarkdown` and `markdownToPlainText`, at half the cost. Parsing is
 * most of a static build's time, and every published body needs both. Also
 * where its relative link targets are (`storedLinkTargets`), which the
 * public Markdown outputs need.
 */
export function renderMarkdownBody(markdown: string): RenderedBody {
  if (checkMarkdownBody(markdown)) {
    const body = overLimitBody(markdown);
    return { ...body, links: null, prose: firstCodePoints(body.text, PROSE_MAX_CHARS) };
  }
  const parsed = parseTree(markdown);
  // The targets are read from the tree before the render turns it into HTML; a body whose public form differs
  // (stored before the safe-Markdown rule) is parsed in that form instead.
  const publicForm = publicMarkdown(markdown);
  const links = encodeLinkTargets(publicForm === markdown ? findLinkTargetsInTree(markdown, parsed) : findLinkTargets(publicForm));
  const tree = renderer.runSync(parsed);
  // Neither reading mutates the tree.
  // Raw control characters of the source survive parsing (character references to them do not: micromark makes them U+FFFD).
  return {
    text: withoutForbiddenCodePoints(plainText(tree)),
    html: withoutForbiddenCodePoints(renderer.stringify(tree)),
    links,
    prose: withoutForbiddenCodePoints(proseOf(tree)),
  };
}

/** What is stored of a body's rendering (`content_html`, `content_text`, `link_targets`). */
export interface RenderedBody {
  readonly html: string;
  readonly text: string;
  /** Where its relative link targets are (`link-targets.ts`); null when the build must find them. */
  readonly links: string | null;
  /** Its paragraphs as plain text (`prose.ts`): what automatic summaries are cut from. */
  readonly prose: string;
}
