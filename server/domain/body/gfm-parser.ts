/**
 * remark-parse with remark-gfm, as two parsers that give the same trees:
 * the plugin's own, and one for text with no `@`, which skips the work
 * GFM's literal email autolinks cost on every word (issue 36: a third of
 * the parse of ordinary Markdown).
 *
 * Why that work is needed only where an `@` is:
 * - micromark-extension-gfm-autolink-literal puts its email construct on
 *   every letter, digit and `+-._`. At each word's start the text stops
 *   (a new data token per word) and the construct reads the word to its
 *   end before it fails: each word was read twice. The construct succeeds
 *   only once it has read an `@` (`tokenizeEmailAutolink`), so on text
 *   without one it always fails, and the tree is the same without it (the
 *   compiler joins adjacent data into one text node, positions included).
 * - mdast-util-gfm-autolink-literal's transform then searches every text
 *   node of the tree with four patterns, each of which needs `@`,
 *   `http://`, `https://` or `www.` (any case) in the text. It now runs on
 *   the top-level blocks that have such a text node only.
 *
 * Both are taken from remark-gfm itself (its processor data), so an
 * upgrade of the plugin brings its new parts; `gfm-parser.test.ts`
 * compares every tree with the plugin's own and fails if the parts change
 * shape.
 * @module
 */
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified, type Data } from 'unified';

type SyntaxExtension = NonNullable<Data['micromarkExtensions']>[number];
type TreeExtensions = NonNullable<Data['fromMarkdownExtensions']>;
type TreeExtension = Extract<TreeExtensions[number], { transforms?: unknown }>;
type Transform = NonNullable<TreeExtension['transforms']>[number];
type Construct = { name?: string };

/** The text the autolink transform's patterns need one of (`@`, or a URL's start). */
const MAY_AUTOLINK = /@|https?:\/\/|www\./i;

const gfmData = unified().use(remarkGfm).freeze().data();
const gfmSyntax = gfmData.micromarkExtensions ?? [];
const gfmTrees = (gfmData.fromMarkdownExtensions ?? []).flat() as TreeExtension[];

/** remark-gfm's syntax without the email autolink construct: for text with no `@`. */
function withoutEmailAutolinks(extension: SyntaxExtension): SyntaxExtension {
  const text = extension.text;
  if (!text) return extension;
  const kept: Record<string, Construct[]> = {};
  for (const [code, entry] of Object.entries(text)) {
    const constructs = (Array.isArray(entry) ? entry : [entry]) as Construct[];
    const rest = constructs.filter((c) => c.name !== 'emailAutolink');
    if (rest.length > 0) kept[code] = rest;
  }
  return { ...extension, text: kept } as SyntaxExtension;
}

/** Whether `node` holds a text node the autolink transform could change. */
function mayAutolink(node: unknown): boolean {
  const stack = [node as { type: string; value?: string; children?: unknown[] }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at.type === 'text' && MAY_AUTOLINK.test(at.value ?? '')) return true;
    if (at.children) for (const child of at.children) stack.push(child as typeof at);
  }
  return false;
}

/** The transform run on the top-level blocks it could change only (it changes text nodes in place, under their parents). */
function onCandidateBlocks(transform: Transform): Transform {
  return (tree: Root) => {
    const candidates = tree.children.filter(mayAutolink);
    if (candidates.length > 0) transform({ ...tree, children: candidates });
  };
}

/** The tree extensions, the autolink one's transform run where it could change something. */
const trees = gfmTrees.map((extension): TreeExtension => {
  if (!extension.transforms || !extension.enter || !('literalAutolink' in extension.enter)) return extension;
  return { ...extension, transforms: extension.transforms.map(onCandidateBlocks) };
});

/** Whether remark-gfm still has the parts this module changes: checked by the tests. */
export const GFM_PARTS_FOUND =
  gfmSyntax.some((extension) => Object.values(extension.text ?? {}).some((entry) => ([entry].flat() as Construct[]).some((c) => c?.name === 'emailAutolink'))) &&
  trees.some((extension, i) => extension !== gfmTrees[i]);

/** The plugin's own parser: the reference the tests compare with. */
export const stockGfmParser = unified().use(remarkParse).use(remarkGfm).freeze();
const anyTextParser = unified().use(remarkParse).data('micromarkExtensions', gfmSyntax).data('fromMarkdownExtensions', trees).freeze();
const noEmailParser = unified().use(remarkParse).data('micromarkExtensions', gfmSyntax.map(withoutEmailAutolinks)).data('fromMarkdownExtensions', trees).freeze();

/** Parses Markdown (CommonMark + GFM) to mdast: the tree remark-parse with remark-gfm gives. */
export function parseGfm(markdown: string): Root {
  return (markdown.includes('@') ? anyTextParser : noEmailParser).parse(markdown);
}
