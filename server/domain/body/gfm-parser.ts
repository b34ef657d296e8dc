/**
 * remark-parse with remark-gfm, as parsers that give the same trees: the
 * plugin's own, and, for text that cannot hold some kinds of GFM's literal
 * autolinks, one without them (issue 36: they were a third of the parse of
 * ordinary Markdown, and two thirds of a paragraph of words that begin
 * with a `w`).
 *
 * Why that work is needed only where the text can hold such a link:
 * - micromark-extension-gfm-autolink-literal puts a construct for each
 *   kind on the characters a link can begin with: e-mail on every letter,
 *   digit and `+-._`; `www.` on `w` and `W`; `http(s)://` on `h` and `H`.
 *   At such a character after a space or punctuation the text stops (a new
 *   data token) and the construct reads on before it fails: the e-mail one
 *   reads every word to its end. Each succeeds only once it has read an
 *   `@`, `www.` or `http://` / `https://` (any case: `tokenizeEmailAutolink`,
 *   `tokenizeWwwPrefix`, `tokenizeProtocolAutolink`), so in text without
 *   one it always fails, and the tree is the same without it (the compiler
 *   joins adjacent data into one text node, positions included).
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

/** Each literal autolink construct of remark-gfm, and what a text must hold for it to succeed. */
const AUTOLINKS: ReadonlyArray<{ readonly name: string; readonly needs: RegExp }> = [
  { name: 'emailAutolink', needs: /@/ },
  { name: 'wwwAutolink', needs: /www\./i },
  { name: 'protocolAutolink', needs: /https?:\/\//i },
];

/** remark-gfm's syntax without the constructs named in `dropped`. */
function withoutConstructs(extension: SyntaxExtension, dropped: ReadonlySet<string>): SyntaxExtension {
  const text = extension.text;
  if (!text || dropped.size === 0) return extension;
  const kept: Record<string, Construct[]> = {};
  for (const [code, entry] of Object.entries(text)) {
    const rest = ([entry].flat() as Construct[]).filter((c) => !dropped.has(c.name ?? ''));
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

const constructNames = new Set(gfmSyntax.flatMap((extension) => Object.values(extension.text ?? {}).flatMap((entry) => ([entry].flat() as Construct[]).map((c) => c?.name))));

/** Whether remark-gfm still has the parts this module changes: checked by the tests. */
export const GFM_PARTS_FOUND = AUTOLINKS.every(({ name }) => constructNames.has(name)) && trees.some((extension, i) => extension !== gfmTrees[i]);

/** The plugin's own parser: the reference the tests compare with. */
export const stockGfmParser = unified().use(remarkParse).use(remarkGfm).freeze();
/** The parsers by the autolink kinds they leave out (a bit per `AUTOLINKS` entry), made when first needed. */
const parsers = new Map<number, ReturnType<typeof parserWithout>>();

function parserWithout(mask: number) {
  const dropped = new Set(AUTOLINKS.filter((_, i) => mask & (1 << i)).map((a) => a.name));
  const syntax = gfmSyntax.map((extension) => withoutConstructs(extension, dropped));
  return unified().use(remarkParse).data('micromarkExtensions', syntax).data('fromMarkdownExtensions', trees).freeze();
}

/** Parses Markdown (CommonMark + GFM) to mdast: the tree remark-parse with remark-gfm gives. */
export function parseGfm(markdown: string): Root {
  let mask = 0;
  for (const [i, { needs }] of AUTOLINKS.entries()) if (!needs.test(markdown)) mask |= 1 << i;
  let parser = parsers.get(mask);
  if (!parser) parsers.set(mask, (parser = parserWithout(mask)));
  return parser.parse(markdown);
}
