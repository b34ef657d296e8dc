/**
 * Markdown that is safe to hand out as Markdown.
 *
 * The HTML of a body is sanitised when it is rendered, but the Markdown
 * itself is published too (`.md` files, JSON `content_markdown`, agent
 * answers), and whoever renders it next may not sanitise. So the Markdown
 * carries the same allowlist as the HTML: each raw HTML node is reduced to
 * what `PREPARE_SCHEMA` keeps (the article schema, without id clobbering,
 * which rendering adds), and link, image and definition targets with a
 * scheme the schema does not allow (`javascript:`, `data:`, `vbscript:`…)
 * are dropped. Applied when a body is saved (with warnings) and again to
 * every public Markdown output, for bodies stored before the rule existed.
 *
 * Raw HTML is sanitised node by node, as mdast splits it: inline HTML such
 * as `<sub>2</sub>` is three nodes, and a node is rewritten only when
 * sanitising changes it, so allowed markup keeps the publisher's bytes.
 * @module
 */

import type { Root as HastRoot } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import type { Html, Parents, Root, RootContent } from 'mdast';
import { stripBidiInTree } from './bidi.ts';
import { enforceDir } from './dir.ts';
import { parseHtmlFragment, parseMarkdown, stringifyHtml, stringifyMarkdown } from './processors.ts';
import { describeRemovals, takeInventory } from './sanitize-report.ts';
import { DIR_BLOCK_TAGS, PREPARE_SCHEMA, schemaKeepsTag } from './schema.ts';
import { eachElement } from './tree-walk.ts';
import { removeImagesWithoutAlt } from './image-alt.ts';
import { withoutForbiddenCodePoints } from './forbidden-code-points.ts';

/** What making a tree safe changed; counts add up across calls. */
export interface MarkdownSafetyChanges {
  /** Names of removed HTML, as `describeRemovals` words them (e.g. `<script>`). */
  htmlRemoved: string[];
  /** Link, image and definition targets dropped for their scheme. */
  unsafeUrls: number;
  /** `dir` attributes removed from raw HTML. */
  dirRemoved: number;
  /** Bidi controls written as character references in raw HTML. */
  bidiStripped: number;
  /** `<img>` without an `alt` attribute, removed (`image-alt.ts`). */
  imagesWithoutAlt: number;
}

const DIR_TAGS: ReadonlySet<string> = new Set([...DIR_BLOCK_TAGS, 'h1']);
const HREF_PROTOCOLS = PREPARE_SCHEMA.protocols?.['href'] ?? ['http', 'https', 'mailto'];
const SRC_PROTOCOLS = PREPARE_SCHEMA.protocols?.['src'] ?? ['http', 'https'];

/**
 * True when `url` is relative or its scheme is in `allowed`; the same test
 * hast-util-sanitize applies to `href`/`src`. Anything before a colon that
 * precedes the first `/`, `?` or `#` is a scheme, so spellings a browser
 * would still run (` javascript:`, `java\tscript:`) are never allowed.
 */
export function isSafeUrl(url: string, allowed: readonly string[]): boolean {
  const colon = url.indexOf(':');
  if (colon === -1) return true;
  for (const mark of ['/', '?', '#']) {
    const at = url.indexOf(mark);
    if (at !== -1 && at < colon) return true;
  }
  return allowed.includes(url.slice(0, colon).toLowerCase());
}

/** Sanitises one raw HTML node; returns the safe HTML, or null when it was already safe. */
function sanitiseHtmlValue(value: string, changes: MarkdownSafetyChanges): string | null {
  const parsed = parseHtmlFragment(value);
  const before = stringifyHtml(parsed);
  const inventory = takeInventory(parsed);
  changes.bidiStripped += stripBidiInTree(parsed);
  changes.dirRemoved += enforceDir(parsed, { blockTags: DIR_TAGS, ignore: (element) => !schemaKeepsTag(PREPARE_SCHEMA, element.tagName) });
  const clean = sanitize(parsed, PREPARE_SCHEMA) as HastRoot;
  // What the allowlist removed, told apart from images removed for want of alt text (a warning of their own).
  const removals = describeRemovals(inventory, takeInventory(clean));
  const withoutAlt = removeImagesWithoutAlt(clean);
  // A class list the schema emptied would be written as `class=""`.
  eachElement(clean, (element) => {
    for (const [name, value] of Object.entries(element.properties)) {
      if (Array.isArray(value) && value.length === 0) delete element.properties[name];
    }
  });
  const after = stringifyHtml(clean);
  if (after === before) return null;
  changes.imagesWithoutAlt += withoutAlt;
  for (const name of removals) {
    if (!changes.htmlRemoved.includes(name)) changes.htmlRemoved.push(name);
  }
  return after;
}

interface Pass {
  readonly changes: MarkdownSafetyChanges;
  changed: boolean;
  /** Drop changed raw HTML instead of rewriting it (the last pass; see `stabilise`). */
  readonly strict: boolean;
}

/** The safe replacement of one child: itself (possibly changed), other nodes, or nothing. */
function safeChild(node: RootContent, pass: Pass): RootContent[] {
  const { changes } = pass;
  switch (node.type) {
    case 'html': {
      const safe = sanitiseHtmlValue(node.value, changes);
      if (safe === null) return [node];
      pass.changed = true;
      return safe.trim() === '' || pass.strict ? [] : [{ ...node, value: safe } as Html];
    }
    case 'link':
      if (isSafeUrl(node.url, HREF_PROTOCOLS)) break;
      changes.unsafeUrls++;
      pass.changed = true;
      // Unwrapped, as the HTML renderer drops the href and keeps the text.
      return node.children.flatMap((child) => safeChild(child, pass));
    case 'image':
      if (isSafeUrl(node.url, SRC_PROTOCOLS)) break;
      changes.unsafeUrls++;
      pass.changed = true;
      return node.alt ? [{ type: 'text', value: node.alt }] : [];
    case 'definition':
      if (isSafeUrl(node.url, HREF_PROTOCOLS)) break;
      changes.unsafeUrls++;
      pass.changed = true;
      return [{ ...node, url: '' }];
  }
  if ('children' in node) sanitiseChildren(node, pass);
  return [node];
}

// An inline `<script>` is its own html node, its content text nodes after it:
// HTML drops everything up to the matching end tag, and so does this.
const STRIPPED = new Set(PREPARE_SCHEMA.strip ?? []);
const OPEN_TAG = /^<([a-z][a-z0-9-]*)(?=[\s/>])/i;

function strippedTagOpenedBy(node: RootContent): string | null {
  if (node.type !== 'html') return null;
  const name = OPEN_TAG.exec(node.value)?.[1]?.toLowerCase();
  if (!name || !STRIPPED.has(name)) return null;
  // Closed in the same node (a block, or `<script></script>` together): nothing else to drop.
  return new RegExp(`</${name}\\s*>`, 'i').test(node.value) ? null : name;
}

function sanitiseChildren(parent: Parents, pass: Pass): void {
  const input = parent.children as RootContent[];
  const children: RootContent[] = [];
  for (let i = 0; i < input.length; i++) {
    const child = input[i]!;
    const stripped = strippedTagOpenedBy(child);
    if (stripped) {
      const close = new RegExp(`^</${stripped}\\s*>`, 'i');
      while (i + 1 < input.length && !(input[i + 1]!.type === 'html' && close.test((input[i + 1] as Html).value))) i++;
      i++; // the end tag, when there is one
      pass.changed = true;
      if (!pass.changes.htmlRemoved.includes(`<${stripped}>`)) pass.changes.htmlRemoved.push(`<${stripped}>`);
      continue;
    }
    children.push(...safeChild(child, pass));
  }
  (parent as { children: RootContent[] }).children = children;
}

/** A tally with nothing changed yet. */
export function noSafetyChanges(): MarkdownSafetyChanges {
  return { htmlRemoved: [], unsafeUrls: 0, dirRemoved: 0, bidiStripped: 0, imagesWithoutAlt: 0 };
}

/**
 * Makes an mdast tree safe in place (see module doc), adding what it did to `changes`.
 * @param strict drops raw HTML that had to change instead of rewriting it.
 * @returns true when anything changed, so the caller must serialise the tree again.
 */
export function sanitiseMarkdownTree(tree: Root, changes: MarkdownSafetyChanges = noSafetyChanges(), strict = false): boolean {
  const pass: Pass = { changes, changed: false, strict };
  sanitiseChildren(tree, pass);
  return pass.changed;
}

// Rewritten raw HTML is Markdown again once serialised: an unknown element
// unwrapped to the text `[a](javascript:x)` becomes a link on the next parse.
// So the result is parsed until nothing changes; the last pass drops raw
// HTML rather than rewriting it, which can only remove syntax.
const PASSES = 4;

/**
 * Serialises a tree that `sanitiseMarkdownTree` changed, and repeats until
 * the Markdown parses to a safe tree: the returned text is a fixed point
 * (`publicMarkdown` gives it back unchanged).
 */
export function stabilise(tree: Root, changes: MarkdownSafetyChanges = noSafetyChanges()): string {
  let markdown = stringifyMarkdown(tree);
  for (let pass = 1; pass < PASSES; pass++) {
    const next = parseMarkdown(markdown);
    if (!sanitiseMarkdownTree(next, changes, pass === PASSES - 1)) return markdown;
    markdown = stringifyMarkdown(next);
  }
  return markdown;
}

// Raw HTML and autolinks need `<`; inline link and image destinations follow
// `](`, definitions `]:`. Those are the only places an unsafe target can be
// written.
const LINK_TARGET_START = /\]\(|\]:/g;
// Entities, escapes and percent-encoding can spell a scheme a parser decodes.
const MAY_SPELL_SCHEME = /[&\\%]/;

/**
 * Whether `markdown` may hold something unsafe, without parsing it: raw HTML
 * or an autolink (`<`), or a link, image or definition whose target is not
 * plainly relative or http(s). Bodies that pass, most of them (the links of
 * an article are http(s) or relative), skip the parse, which costs as much
 * as rendering the body; anything unusual (a line break before a target, an
 * entity or escape in its scheme part, any other scheme) is parsed.
 */
export function mayNeedWork(markdown: string): boolean {
  if (markdown.includes('<')) return true;
  for (const match of markdown.matchAll(LINK_TARGET_START)) {
    let at = match.index + 2;
    while (markdown[at] === ' ' || markdown[at] === '\t') at++;
    // A target on the next line may follow a container prefix (`> `): the parser knows where it starts.
    if (markdown[at] === '\n' || markdown[at] === '\r') return true;
    let end = at;
    while (end < markdown.length && !/[\s)]/.test(markdown[end]!)) end++;
    const target = markdown.slice(at, end);
    const schemePart = target.split(/[/?#]/, 1)[0]!;
    if (MAY_SPELL_SCHEME.test(schemePart) || !isSafeUrl(target, SRC_PROTOCOLS)) return true;
  }
  return false;
}

/**
 * The public form of a stored body: the same text when it is already safe
 * (the usual case, and always for bodies saved since this rule), otherwise
 * re-serialised without the unsafe parts.
 */
export function publicMarkdown(stored: string): string {
  // Rows saved before control characters were removed on save still hold them; the page drops them.
  const markdown = withoutForbiddenCodePoints(stored);
  if (!mayNeedWork(markdown)) return markdown;
  const tree = parseMarkdown(markdown);
  return sanitiseMarkdownTree(tree) ? stabilise(tree) : markdown;
}
