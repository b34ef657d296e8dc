/**
 * The HTML allowlist for article bodies and the `dir` attribute rules.
 *
 * One schema serves both sanitising HTML input and rendering stored
 * Markdown, so what a publisher sees after upload is exactly what readers
 * get. It starts from GitHub-style `defaultSchema` (which also covers GFM
 * footnotes and task lists) and only tightens or adds article markup.
 * @module
 */

import type { Schema } from 'hast-util-sanitize';
import { defaultSchema } from 'rehype-sanitize';

/** Values accepted for `dir`, already lowercase. */
export type DirValue = 'ltr' | 'rtl' | 'auto';

/**
 * Block elements that may keep `dir`. Direction is a property of a block of
 * text; on inline elements it tends to be pasted noise from editors, and the
 * bidi algorithm already handles inline runs.
 */
export const DIR_BLOCK_TAGS: ReadonlySet<string> = new Set([
  'p', 'div', 'section', 'blockquote', 'ul', 'ol', 'li',
  'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'td', 'th', 'pre', 'figure', 'figcaption',
]);

/** Lowercases a `dir` value, or returns null when it is not ltr/rtl/auto. */
export function normaliseDir(value: unknown): DirValue | null {
  if (typeof value !== 'string') return null;
  const lower = value.trim().toLowerCase();
  return lower === 'ltr' || lower === 'rtl' || lower === 'auto' ? lower : null;
}

// Elements removed together with their content. defaultSchema strips only
// `script`; the others would otherwise be unwrapped and leak CSS, fallback
// text or raw markup into the article as visible text.
const STRIP_WITH_CONTENT = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'noscript', 'noembed', 'noframes', 'template', 'textarea', 'select', 'title',
  'svg', 'math', 'canvas', 'audio', 'video', 'head',
];

const DIR_PROPERTY: [string, ...string[]] = ['dir', 'ltr', 'rtl', 'auto'];

function buildAttributes(dirTags: Iterable<string>): NonNullable<Schema['attributes']> {
  const base = defaultSchema.attributes ?? {};
  const attributes: NonNullable<Schema['attributes']> = {};
  for (const [tag, list] of Object.entries(base)) attributes[tag] = [...list];
  // defaultSchema allows `dir` everywhere with any value; ours is per block.
  attributes['*'] = (attributes['*'] ?? []).filter((attribute) => attribute !== 'dir');
  for (const tag of dirTags) attributes[tag] = [...(attributes[tag] ?? []), DIR_PROPERTY];
  return attributes;
}

const ARTICLE_TAGS = [
  ...(defaultSchema.tagNames ?? []).filter((tag) => tag !== 'h1'),
  'figure',
  'figcaption',
];

/**
 * Allowlist used when rendering. No `h1`: the title is the page's H1, and
 * the renderer demotes stray ones before sanitising. Keeps defaultSchema's
 * `user-content-` clobbering of ids; it is applied exactly once, here.
 */
export const ARTICLE_SCHEMA: Readonly<Schema> = Object.freeze({
  ...defaultSchema,
  tagNames: ARTICLE_TAGS,
  attributes: buildAttributes(DIR_BLOCK_TAGS),
  strip: STRIP_WITH_CONTENT,
});

/**
 * Allowlist used on HTML input before conversion to Markdown. Differs from
 * `ARTICLE_SCHEMA` in two ways: `h1` survives (so the title check and H1
 * demotion can count and warn precisely), and ids are not clobbered —
 * rendering clobbers them, and doing it twice would give
 * `user-content-user-content-…`.
 */
export const PREPARE_SCHEMA: Readonly<Schema> = Object.freeze({
  ...ARTICLE_SCHEMA,
  tagNames: [...ARTICLE_TAGS, 'h1'],
  attributes: buildAttributes([...DIR_BLOCK_TAGS, 'h1']),
  clobber: [],
});

/** True when sanitising with `schema` keeps an element named `tagName`. */
export function schemaKeepsTag(schema: Readonly<Schema>, tagName: string): boolean {
  return (schema.tagNames ?? []).includes(tagName) && !(schema.strip ?? []).includes(tagName);
}
